import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { CreatedApiKey } from '@portal/contracts';
import { API_KEYS_TEXT as T } from '../../../texts';

/**
 * The new key, this once: the service keeps only its hash, so closing the dialog is the last chance to copy
 * it. The field is read-only and selected on focus, so the keyboard copies it too.
 */
export function NewKeyDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(created.key);
    setCopied(true);
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="new-key-title">
      <DialogTitle id="new-key-title">{T.newKeyTitle}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{T.newKeyWarning}</Alert>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label={created.name}
              value={created.key}
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
