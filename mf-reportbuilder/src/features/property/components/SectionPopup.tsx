import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { newSectionName, sectionPopupErrors, type ReportSections } from '@portal/domain';
import { SECTION_TYPES } from '../../../texts';

/** Spec 02 §5 section popup: name and type required, the name unique; 'DEFAULT' offered for the first (§4.4). */
export function SectionPopup({
  sections,
  onClose,
  onAdd,
}: {
  sections: ReportSections;
  onClose: () => void;
  onAdd: (input: { name: string; type: string }) => void;
}) {
  const [name, setName] = useState(() => newSectionName(sections));
  const [type, setType] = useState('');
  const [tried, setTried] = useState(false);
  const errors = sectionPopupErrors({ name, type }, sections);
  return (
    <Dialog open onClose={onClose} aria-labelledby="section-popup-title">
      <DialogTitle id="section-popup-title">Add section</DialogTitle>
      <DialogContent>
        <TextField
          label="Section name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={tried && !!errors.name}
          helperText={tried ? errors.name : undefined}
          fullWidth
          margin="dense"
        />
        <TextField
          select
          label="Section type"
          value={type}
          onChange={(e) => setType(e.target.value)}
          error={tried && !!errors.type}
          helperText={tried ? errors.type : undefined}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          fullWidth
          margin="dense"
        >
          <option value="">Please select a value</option>
          {SECTION_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={() => {
            setTried(true);
            if (!errors.name && !errors.type) onAdd({ name: name.trim(), type });
          }}
        >
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
