import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { AdminGroup } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { reasonOf } from '../../../api/answers';
import { ADMIN_TEXT } from '../../../texts';
import { useUpdateGroupMutation } from '../../../api/groupsApi';
import type { ReferenceEntry } from '../../../components/references/references';
import { ReferencesEditor } from '../../../components/references/ReferencesEditor';

/**
 * The claims-settings popup (spec 03 "Services admin screen"): the references a group's claims users
 * fill in (claimsReferences), edited like the group's references.
 */
export function ClaimsSettingsDialog({ group, onClose }: { group: AdminGroup; onClose: () => void }) {
  const notify = useNotify();
  const [updateGroup, { isLoading: saving }] = useUpdateGroupMutation();
  const [claimsReferences, setClaimsReferences] = useState<ReferenceEntry[]>(group.claimsReferences);
  const [failure, setFailure] = useState<{ reason?: string } | null>(null);

  const save = async () => {
    setFailure(null);
    const result = await updateGroup({ id: group._id, changes: { claimsReferences } });
    if (result.error) {
      setFailure({ reason: reasonOf(result.error) });
      return;
    }
    notify({ message: `Claims settings of ${group.name} saved.`, severity: 'success' });
    onClose();
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Claims settings: {group.name}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText variant="body2" sx={{ mb: 2 }}>
          The references the group&apos;s claims users fill in with a request.
        </DialogContentText>
        {failure && (
          <Alert severity="error" sx={{ mb: 2 }}>
            <AlertTitle>{ADMIN_TEXT.failedToUpdateGroup}</AlertTitle>
            {failure.reason}
          </Alert>
        )}
        <ReferencesEditor
          noun="Claims reference"
          value={claimsReferences}
          onChange={setClaimsReferences}
          disabled={saving}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          Save claims settings
        </Button>
      </DialogActions>
    </Dialog>
  );
}
