import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { HIGH_RES_STATUS_NAMES, type LatLng } from '@portal/contracts';
import { TEXT, VIEW_NAMES } from '../../../texts';
import { useAerialViews } from '../useAerialViews';

/**
 * The aerial views of the point (spec 03 §4 imagery step): the ones that loaded can be chosen for the PDF
 * (the ortho by default); the others say why not (no coverage, offline).
 */
export function AerialPicker({ reportId, point }: { reportId: string; point: LatLng }) {
  const { loading, outcomes, chosen, save, choose } = useAerialViews(reportId, point);
  const available = outcomes.filter((o) => o.status === 0);
  return (
    <Paper component="section" variant="outlined" aria-label={TEXT.aerial} sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2">
          {TEXT.aerial}
        </Typography>
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
                  aria-checked={chosen === o.view}
                  aria-label={VIEW_NAMES[o.view]}
                  disabled={o.status !== 0 || save === 'saving'}
                  onClick={() => void choose(o.view)}
                  sx={{
                    flexDirection: 'column',
                    alignItems: 'stretch',
                    border: 2,
                    borderRadius: 1,
                    borderColor: chosen === o.view ? 'primary.main' : 'divider',
                    p: 0.5,
                    opacity: o.status === 0 ? 1 : 0.6,
                  }}
                >
                  {o.url ? (
                    <Box
                      component="img"
                      src={o.url}
                      alt=""
                      sx={{ width: '100%', aspectRatio: '4 / 3', objectFit: 'cover' }}
                    />
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
            {save === 'saved' && (
              <Typography variant="body2" data-testid="aerial-saved">
                {TEXT.aerialSaved}
              </Typography>
            )}
            {save === 'failed' && <Alert severity="warning">{TEXT.aerialFailed}</Alert>}
          </>
        )}
      </Stack>
    </Paper>
  );
}
