import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

/** Spec 02 §2.1 section-overview's comment dialog: edits the section's comment. */
export function CommentDialog({
  comment,
  onClose,
  onDone,
}: {
  comment: string;
  onClose: () => void;
  onDone: (comment: string) => void;
}) {
  const [text, setText] = useState(comment);
  return (
    <Dialog open onClose={onClose} aria-label="Section comment" fullWidth>
      <DialogTitle>Section comment</DialogTitle>
      <DialogContent>
        <TextField
          label="Comment"
          value={text}
          onChange={(e) => setText(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          margin="dense"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => onDone(text)}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
