import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ConsoleJob } from '@portal/contracts';
import { useConsoleJobQuery } from '../../../api/requestsApi';

const KIND = { xlsx: 'Excel export', zip: 'Zip of reports' } as const;

/**
 * A background job of the console (xlsx export, zip) while it runs: its progress, then the download
 * link, or why it failed. Polled every second (the socket's console_job events make it sooner).
 */
export function JobProgress({
  job,
  pushed,
  onDone,
}: {
  job: ConsoleJob;
  pushed?: ConsoleJob;
  onDone?: () => void;
}) {
  const finished = (state: ConsoleJob['state']) => state === 'done' || state === 'failed';
  const polled = useConsoleJobQuery(job.id, {
    pollingInterval: 1000,
    skip: pushed ? finished(pushed.state) : false,
  });
  const current = [pushed, polled.data, job]
    .filter((candidate): candidate is ConsoleJob => Boolean(candidate))
    .sort((a, b) => rank(b) - rank(a))[0];
  useEffect(() => {
    if (finished(current.state)) onDone?.();
  }, [current.state, onDone]);
  return (
    // A live region (issue 24): the export's progress, its link when ready or its failure are read out.
    <Box sx={{ mb: 2 }} data-testid={`job-${current.kind}`} aria-live="polite">
      {current.state === 'failed' ? (
        <Alert severity="error">
          {KIND[current.kind]} failed: {current.error ?? 'unknown error'}
        </Alert>
      ) : current.state === 'done' && current.downloadUrl ? (
        <Alert severity="success">
          {KIND[current.kind]} ready{current.rows !== null ? ` (${current.rows} requests)` : ''}:{' '}
          <Link href={current.downloadUrl} download>
            Download
          </Link>
        </Alert>
      ) : (
        <>
          <Typography variant="body2">
            {KIND[current.kind]}:{' '}
            {current.state === 'queued' ? 'waiting…' : `${Math.round(current.progress)} %`}
          </Typography>
          <LinearProgress
            variant={current.state === 'queued' ? 'indeterminate' : 'determinate'}
            value={current.progress}
            aria-label={`${KIND[current.kind]} progress`}
          />
        </>
      )}
    </Box>
  );
}

/** The furthest along of the answers (a poll and a push can arrive in either order). */
function rank(job: ConsoleJob): number {
  const state = { queued: 0, running: 1, done: 3, failed: 3 }[job.state];
  return state * 1000 + job.progress;
}
