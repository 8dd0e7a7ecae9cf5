import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { reasonOf } from '../api/answers';

interface ConfirmDeleteDialogProps {
  title: string;
  children: ReactNode;
  /** The spec's text for a refused or failed delete. */
  failureText: string;
  /** The confirming button's words ('Delete' unless said; 'Revoke' for an API key). */
  confirmLabel?: string;
  /** Resolves when deleted, rejects with the service's error otherwise. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/**
 * Asks before deleting. A refusal (e.g. a group that still has users) keeps the dialog open with the
 * spec's text and the service's reason.
 */
export function ConfirmDeleteDialog({
  title,
  children,
  failureText,
  confirmLabel = 'Delete',
  onConfirm,
  onClose,
}: ConfirmDeleteDialogProps) {
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<{ reason?: string } | null>(null);

  const confirm = async () => {
    setDeleting(true);
    setFailure(null);
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      setFailure({ reason: reasonOf(error) });
      setDeleting(false);
    }
  };

  return (
    <Dialog open onClose={deleting ? undefined : onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{children}</DialogContentText>
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }}>
            <AlertTitle>{failureText}</AlertTitle>
            {failure.reason}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={deleting}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={deleting}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
