import { useCallback, useEffect, useState } from 'react';
import { Link, skipToken } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { REPORTBUILDER_API, isReportSubmittedStatus } from '@portal/contracts';
import {
  useGenerateReportMutation,
  useReportDetailsQuery,
  useReportReadyQuery,
  useReportRequestQuery,
} from '../../../api/reportBuilderApi';
import { propertyOverviewHref } from '../../../paths';
import { IMPROVEMENT_AND_REPORT_TEXT, TEXT } from '../../../texts';
import { useRouteParams } from '../../../report/useRouteParams';

const PARAMS = ['requestID'] as const;

/** How often the ready call is polled while the PDF is being made. */
export const PDF_POLL_MS = 1500;

type Phase =
  { kind: 'generating'; progress: number } | { kind: 'ready' } | { kind: 'failed'; error: string | null };

/**
 * Spec 02 §2.1 view-report (?requestID): generates the report PDF (GET report/…/savi/south africa/{group}/
 * full, which waits up to 10 s), polls the ready call with a progress bar while it is not done, then shows
 * the PDF inline (the download path with ?inline=true) with a download link. A submitted report's PDF (QC
 * check and later) is the server's, queued by the submission (issue 22): the page asks for nothing and only
 * follows its progress — unless the user tries again after a failure.
 */
export function ViewReportPage() {
  const { requestID } = useRouteParams(PARAMS);
  const detailsQuery = useReportDetailsQuery(requestID ?? skipToken);
  const requestQuery = useReportRequestQuery(requestID ?? skipToken);
  const [generate] = useGenerateReportMutation();
  const [phase, setPhase] = useState<Phase>({ kind: 'generating', progress: 0 });
  const [attempt, setAttempt] = useState(0);
  /** The attempt whose generate call has been sent. */
  const [started, setStarted] = useState(-1);

  // The group is the remote's part of the path (the service prices with the request's own group).
  const group = detailsQuery.data?.group?.name ?? requestQuery.data?.group?.name ?? null;
  const known =
    (detailsQuery.isSuccess || detailsQuery.isError) && (requestQuery.isSuccess || requestQuery.isError);
  const submitted = !!requestQuery.data && isReportSubmittedStatus(requestQuery.data.status);

  const start = useCallback(
    async (id: string, groupName: string) => {
      setPhase({ kind: 'generating', progress: 0 });
      try {
        const answer = await generate({ requestID: id, group: groupName }).unwrap();
        if (!answer.success) setPhase({ kind: 'failed', error: answer.error });
        else if (answer.ready && answer.url) setPhase({ kind: 'ready' });
        else setPhase({ kind: 'generating', progress: answer.progress });
      } catch (error) {
        // Spec 02 §8: logged; the screen says only that there is no PDF.
        console.error('[reportbuilder] the report PDF could not be generated', error);
        setPhase({ kind: 'failed', error: null });
      }
    },
    [generate],
  );

  useEffect(() => {
    if (!requestID || !known || started === attempt) return;
    setStarted(attempt);
    // A submitted report's PDF is already on its way: follow it (the first attempt) rather than ask.
    if (submitted && attempt === 0) setPhase({ kind: 'generating', progress: 0 });
    else void start(requestID, group ?? 'savi');
  }, [requestID, known, group, attempt, started, start, submitted]);

  // Polled while the PDF is being made (also during generate's own wait, for the progress bar).
  const polling = phase.kind === 'generating' && started === attempt && requestID !== null;
  const ready = useReportReadyQuery(polling ? requestID : skipToken, {
    pollingInterval: PDF_POLL_MS,
    skipPollingIfUnfocused: false,
  });
  useEffect(() => {
    const answer = ready.data;
    if (!answer || phase.kind !== 'generating') return;
    if (answer.state === 'none') return;
    if (answer.state === 'failed' || answer.state === 'cancelled' || !answer.success)
      setPhase({ kind: 'failed', error: answer.error });
    else if (answer.state === 'done' && answer.pdfReady) setPhase({ kind: 'ready' });
    else if (answer.progress !== phase.progress) setPhase({ kind: 'generating', progress: answer.progress });
  }, [ready.data, phase]);

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  const download = REPORTBUILDER_API.download(requestID);

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', height: 'calc(100vh - 120px)' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h5" component="h1">
          Report {detailsQuery.data?.gripReference ?? ''}
        </Typography>
        <Link to={propertyOverviewHref(requestID)}>Property overview</Link>
        {phase.kind === 'ready' && (
          <Button variant="outlined" href={download} download>
            {IMPROVEMENT_AND_REPORT_TEXT.downloadPdf}
          </Button>
        )}
      </Stack>
      {phase.kind === 'generating' && (
        <Box sx={{ maxWidth: 600 }}>
          {/* Read out when the PDF starts; the failure (an Alert) and the ready PDF replace it. */}
          <Typography role="status">{IMPROVEMENT_AND_REPORT_TEXT.generating}</Typography>
          <LinearProgress
            variant={phase.progress > 0 ? 'determinate' : 'indeterminate'}
            value={phase.progress}
            aria-label={IMPROVEMENT_AND_REPORT_TEXT.generating}
          />
        </Box>
      )}
      {phase.kind === 'failed' && (
        <Alert
          severity="error"
          action={
            <Button onClick={() => setAttempt((n) => n + 1)}>{IMPROVEMENT_AND_REPORT_TEXT.tryAgain}</Button>
          }
        >
          {IMPROVEMENT_AND_REPORT_TEXT.reportFailed}
          {phase.error ? ` ${phase.error}` : ''}
        </Alert>
      )}
      {phase.kind === 'ready' && (
        <Box
          component="iframe"
          title="Report PDF"
          src={`${download}?inline=true`}
          sx={{ flex: 1, minHeight: 600, width: '100%', border: 0 }}
        />
      )}
    </Box>
  );
}
