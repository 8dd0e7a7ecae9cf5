import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { HIGH_RES_STATUS_NAMES } from '@portal/contracts';
import { CaptureDate, captureDateText } from '@portal/web-kit/imagery';
import { TEXT, VIEW_NAMES } from '../../../texts';
import type { AerialViews } from '../useAerialViews';

/**
 * The aerial views of the point (spec 03 §4 imagery step), of the survey the timeline shows: the ones
 * that loaded can be chosen for the PDF (the ortho of the newest survey by default); the others say why
 * not (no coverage, offline). Every picture carries its capture date (issue 21), and so does the line
 * naming the view the PDF gets.
 */
export function AerialPicker({ views }: { views: AerialViews }) {
  const { loading, outcomes, chosen, save, choose } = views;
  const available = outcomes.filter((o) => o.status === 0);
  const isChosen = (o: (typeof outcomes)[number]) =>
    chosen !== null && chosen.view === o.view && chosen.surveyId === o.surveyId;
  return (
    <Stack spacing={1.5}>
      {loading ? (
        <>
          <Typography variant="body2">{TEXT.aerialLoading}</Typography>
          <LinearProgress aria-label={TEXT.aerialLoading} />
        </>
      ) : available.length === 0 ? (
        <Typography>{TEXT.aerialNone}</Typography>
      ) : (
        <>
          <Typography variant="subtitle2" id="iris-aerial-choice">
            {TEXT.aerialChoose}
          </Typography>
          <Box
            role="radiogroup"
            aria-labelledby="iris-aerial-choice"
            sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))' }}
          >
            {outcomes.map((o) => (
              <ButtonBase
                key={o.view}
                role="radio"
                aria-checked={isChosen(o)}
                aria-label={`${VIEW_NAMES[o.view]}, ${captureDateText(o.capturedOn)}`}
                disabled={o.status !== 0 || save === 'saving'}
                onClick={() => void choose(o.view)}
                sx={{
                  flexDirection: 'column',
                  alignItems: 'stretch',
                  border: 2,
                  borderRadius: 1,
                  borderColor: isChosen(o) ? 'primary.main' : 'divider',
                  p: 0.5,
                  opacity: o.status === 0 ? 1 : 0.6,
                }}
              >
                {o.url ? (
                  <Box sx={{ position: 'relative' }}>
                    <Box
                      component="img"
                      src={o.url}
                      alt=""
                      sx={{ width: '100%', aspectRatio: '4 / 3', objectFit: 'cover', display: 'block' }}
                    />
                    <CaptureDate capturedOn={o.capturedOn} overlay />
                  </Box>
                ) : (
                  <Box sx={{ width: '100%', aspectRatio: '4 / 3', bgcolor: 'action.hover' }} />
                )}
                <Typography variant="caption">{VIEW_NAMES[o.view]}</Typography>
                {o.status !== 0 && (
                  <Typography variant="caption" color="text.secondary">
                    {HIGH_RES_STATUS_NAMES[o.status]}
                  </Typography>
                )}
              </ButtonBase>
            ))}
          </Box>
          {save === 'saving' && <Typography variant="body2">{TEXT.aerialSaving}</Typography>}
          {save === 'saved' && chosen && (
            <Typography variant="body2" data-testid="aerial-saved">
              {TEXT.aerialSaved(VIEW_NAMES[chosen.view], captureDateText(chosen.capturedOn))}
            </Typography>
          )}
          {save === 'failed' && <Alert severity="warning">{TEXT.aerialFailed}</Alert>}
        </>
      )}
    </Stack>
  );
}
