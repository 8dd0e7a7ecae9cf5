import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReportMarker } from '@portal/domain';

/**
 * Stands in for the report image with its draggable markers (spec 02 §2.1) until the images part of the
 * service exists: the image area (716×358, spec 02 §9) with the markers listed by their number.
 */
export function MarkerPanel({
  label,
  text,
  items,
}: {
  label: string;
  text: string;
  items: { key: string; name: string; marker?: ReportMarker | null }[];
}) {
  return (
    <Paper variant="outlined" aria-label={label} sx={{ maxWidth: 716, minHeight: 180, p: 2, mb: 2 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {text}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {items.map((item, i) => (
          <Chip
            key={item.key}
            label={
              <Box component="span">
                <strong>{item.marker?.number ?? i + 1}</strong> {item.name}
              </Box>
            }
          />
        ))}
      </Stack>
    </Paper>
  );
}
