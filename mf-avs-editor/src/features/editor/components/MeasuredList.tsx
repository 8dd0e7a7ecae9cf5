import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MeasurementList, type MeasurementDraft } from '@portal/web-kit/imagery';
import { TEXT } from '../../../texts';

/**
 * What was measured on the editor's map (issue 21): web-kit's MeasurementList of the drafts, each with its
 * figures and the survey it was measured on. The editor has no request to save them against, so they are
 * kept for the page's life only; each can be removed, or all cleared.
 */
export function MeasuredList({
  measured,
  onRemove,
  onClear,
}: {
  measured: readonly (MeasurementDraft & { key: string })[];
  onRemove: (key: string) => void;
  onClear: () => void;
}) {
  if (measured.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mt: 1 }} data-testid="measured-list">
      <MeasurementList drafts={measured} onDelete={onRemove} headingComponent="h2" />
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="caption" color="text.secondary">
          {TEXT.measuredNote}
        </Typography>
        <Button size="small" onClick={onClear}>
          {TEXT.clearMeasured}
        </Button>
      </Stack>
    </Paper>
  );
}
