import { useCallback, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { SEARCH_TEXT } from './texts';

/**
 * The spec's alerts (spec 01 §8: "alert '…'", some ending "Click OK to continue."): a modal with an OK
 * button, queued so two alerts in a row are both read.
 */
export function useAlerts() {
  const [queue, setQueue] = useState<string[]>([]);
  const alert = useCallback((message: string) => setQueue((previous) => [...previous, message]), []);
  const dismiss = useCallback(() => setQueue((previous) => previous.slice(1)), []);
  return { alert, current: queue[0] ?? null, dismiss };
}

export function AlertDialog({ message, onClose }: { message: string | null; onClose: () => void }) {
  return (
    <Dialog open={message !== null} onClose={onClose} aria-describedby="locator-alert-text">
      <DialogContent>
        <DialogContentText id="locator-alert-text" role="alert">
          {message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {SEARCH_TEXT.ok}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
