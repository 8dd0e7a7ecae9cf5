import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TEXT } from '../../../../texts';
import type { EditOutcome } from '../../useEditAction';

/** The frame of every popup on the map: a title, a close button, what went wrong or right last. */
export function PopupFrame({
  label,
  title,
  onClose,
  outcome,
  children,
}: {
  label: string;
  title: string;
  onClose: () => void;
  outcome: EditOutcome | null;
  children: ReactNode;
}) {
  return (
    <Paper
      role="dialog"
      aria-label={label}
      elevation={6}
      sx={{ width: 320, maxHeight: 420, overflow: 'auto', p: 1.5 }}
      data-testid="editor-popup"
    >
      <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2">{title}</Typography>
        <IconButton size="small" aria-label={TEXT.close} onClick={onClose}>
          ×
        </IconButton>
      </Stack>
      {children}
      {outcome && (
        <Alert severity={outcome.severity} sx={{ mt: 1 }} role="status">
          {outcome.text}
        </Alert>
      )}
    </Paper>
  );
}
