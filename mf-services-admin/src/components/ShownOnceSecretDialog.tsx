import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { SHOWN_ONCE_TEXT as T } from '../texts';

/**
 * A secret shown this once (a new API key; a webhook endpoint's signing secret at creation and rotation):
 * the service keeps only its hash or will not show it again, so closing the dialog is the last chance to
 * copy it. The field is read-only and selected on focus, so the keyboard copies it too; the Copy button
 * uses the clipboard. `label` names the field, `warning` says why to copy it now.
 */
export function ShownOnceSecretDialog({
  title,
  warning,
  label,
  secret,
  onClose,
}: {
  title: string;
  warning: string;
  label: string;
  secret: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(secret);
    setCopied(true);
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{warning}</Alert>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label={label}
              value={secret}
              fullWidth
              slotProps={{
                htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } },
              }}
              onFocus={(event) => event.target.select()}
            />
            <Button variant="outlined" onClick={() => void copy()}>
              {copied ? T.copied : T.copy}
            </Button>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {T.done}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
