import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { AdminGroup } from '@portal/contracts';
import type { ReferenceEntry } from '../../../components/references/references';
import { ReferencesEditor } from '../../../components/references/ReferencesEditor';

interface ReferencesDialogProps {
  group: AdminGroup;
  /** Hands the edited references back to whoever saves the group. */
  onApply: (references: ReferenceEntry[]) => void;
  onClose: () => void;
}

/** The groups grid's editor for a group's references (spec 03 "Groups grid"). */
export function ReferencesDialog({ group, onApply, onClose }: ReferencesDialogProps) {
  const [references, setReferences] = useState<ReferenceEntry[]>(group.references);
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>References: {group.name}</DialogTitle>
      <DialogContent dividers>
        <ReferencesEditor noun="Reference" value={references} onChange={setReferences} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={() => {
            onApply(references);
            onClose();
          }}
        >
          Save references
        </Button>
      </DialogActions>
    </Dialog>
  );
}
