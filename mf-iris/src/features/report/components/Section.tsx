import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DataSource } from '@portal/contracts';
import { TEXT } from '../../../texts';

/**
 * One section of the report: its heading, its content or — when the section has no data for this point —
 * the server's `unavailable` text, plainly; and always the data's source and date.
 */
export function Section({
  title,
  source,
  unavailable,
  children,
}: {
  title: string;
  source: DataSource;
  unavailable?: string | null;
  children: ReactNode;
}) {
  const id = `iris-section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={id} sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <Typography id={id} variant="h6" component="h2">
          {title}
        </Typography>
        {unavailable ? <Typography data-testid="unavailable">{unavailable}</Typography> : children}
        <Typography variant="caption" color="text.secondary" data-testid="source">
          {TEXT.source}: {source.name}
          {source.date ? ` (${source.date})` : ''}
          {source.licence ? ` · ${source.licence}` : ''}
        </Typography>
      </Stack>
    </Paper>
  );
}
