import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { IRIS_API } from '@portal/contracts';
import { TEXT } from '../../../texts';
import { canCancel, canRegenerate } from '../pdfFlow';
import { usePdfFlow } from '../usePdfFlow';

/** Spec 03 §4 steps 2–5: the PDF's progress, its link when ready, Cancel and Regenerate. */
export function PdfProgress({ reportId, requestId }: { reportId: string; requestId: string }) {
  const { state, cancel, regenerate } = usePdfFlow(reportId, requestId);
  const busy = canCancel(state);
  const message =
    state.phase === 'preparing'
      ? TEXT.pdfPreparing
      : state.phase === 'generating'
        ? TEXT.pdfGenerating
        : state.phase === 'waiting'
          ? TEXT.pdfWaiting
          : state.phase === 'ready'
            ? TEXT.pdfReady
            : state.phase === 'failed'
              ? TEXT.pdfFailed
              : TEXT.pdfCancelled;
  return (
    <Paper component="section" variant="outlined" aria-label={TEXT.pdf} sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2">
          {TEXT.pdf}
        </Typography>
        <Typography role="status" data-testid="pdf-status">
          {message}
        </Typography>
        {state.timedOut && state.phase !== 'preparing' && <Alert severity="info">{TEXT.pdfTimeout}</Alert>}
        {busy && (
          <LinearProgress
            aria-label={TEXT.pdf}
            variant={state.phase === 'generating' ? 'indeterminate' : 'determinate'}
            value={Math.max(0, Math.min(100, state.progress))}
          />
        )}
        {state.phase === 'failed' && state.error && <Alert severity="error">{state.error}</Alert>}
        <Stack direction="row" spacing={1}>
          {state.phase === 'ready' && (
            <Button variant="contained" href={IRIS_API.download(reportId)} download>
              {TEXT.pdfDownload}
            </Button>
          )}
          {busy && (
            <Button variant="outlined" color="inherit" onClick={() => void cancel()}>
              {TEXT.cancel}
            </Button>
          )}
          {canRegenerate(state) && (
            <Button variant="outlined" onClick={() => void regenerate()}>
              {TEXT.regenerate}
            </Button>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
