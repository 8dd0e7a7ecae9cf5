import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatCapturedOn, type MeasurementDraft } from '@portal/web-kit/imagery';
import { TEXT } from '../../../texts';

/**
 * What was measured on the editor's map (issue 21): each with its figures and the survey it was measured
 * on. The editor has no request to save them against, so they are kept for the page's life only.
 */
export function MeasuredList({
  measured,
  onClear,
}: {
  measured: readonly (MeasurementDraft & { key: string })[];
  onClear: () => void;
}) {
  if (measured.length === 0) return null;
  return (
    <Paper variant="outlined" component="section" aria-label={TEXT.measured} sx={{ p: 1.5, mt: 1 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle2" component="h2">
          {TEXT.measured}
        </Typography>
        <Button size="small" onClick={onClear}>
          {TEXT.clearMeasured}
        </Button>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {TEXT.measuredNote}
      </Typography>
      <List dense aria-label={TEXT.measured} data-testid="measured-list">
        {measured.map((item) => (
          <ListItem key={item.key} disableGutters>
            <ListItemText
              primary={item.label}
              secondary={
                item.capturedOn ? TEXT.measuredOn(item.text, formatCapturedOn(item.capturedOn)) : item.text
              }
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
