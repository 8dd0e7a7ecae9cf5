import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

/** A dialog asking for one name, checked by `errorOf` (spec 02 §5: required, unique) when it is added. */
export function NameDialog({
  title,
  label,
  errorOf,
  onClose,
  onAdd,
}: {
  title: string;
  label: string;
  errorOf: (name: string) => string | null;
  onClose: () => void;
  onAdd: (name: string) => void;
}) {
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const error = tried ? errorOf(name) : null;
  return (
    <Dialog open onClose={onClose} aria-label={title}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField
          label={label}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={!!error}
          helperText={error ?? undefined}
          fullWidth
          margin="dense"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={() => {
            setTried(true);
            if (errorOf(name) === null) onAdd(name.trim());
          }}
        >
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
