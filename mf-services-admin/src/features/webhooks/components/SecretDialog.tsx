import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { WEBHOOKS_TEXT } from '../../../texts';

const T = WEBHOOKS_TEXT.secret;

/**
 * An endpoint's signing secret, this once (at creation and after a rotation). The field is read-only and
 * selected on focus, so the keyboard copies it too; the Copy button uses the clipboard.
 */
export function SecretDialog({
  secret,
  rotated,
  onClose,
}: {
  secret: string;
  rotated: boolean;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(secret);
    setCopied(true);
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="secret-dialog-title">
      <DialogTitle id="secret-dialog-title">{rotated ? T.rotatedTitle : T.createdTitle}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{T.warning}</Alert>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label={T.label}
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
