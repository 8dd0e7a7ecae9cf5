import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { AdminGroup } from '@portal/contracts';
import { canAccess } from '@portal/domain';
import { useCurrentUser } from '@portal/web-kit';
import { RATES_ROLES } from '../../../access';
import { RatesIcon } from '../../../layout/icons';
import { ratesHref } from '../../../paths';
import { ADMIN_TEXT } from '../../../texts';
import { useAllGroupsQuery } from '../../../api/groupsApi';

/**
 * The 'Rates editor' button (spec 03 "Services admin screen"), for rates editors and admins: it asks
 * which group's rates to edit (the user's own group first) and opens them in a new tab.
 */
export function RatesEditorButton() {
  const { user } = useCurrentUser();
  const [choosing, setChoosing] = useState(false);
  if (!canAccess(user, RATES_ROLES)) return null;
  return (
    <>
      <Button variant="outlined" startIcon={<RatesIcon />} onClick={() => setChoosing(true)}>
        Rates editor
      </Button>
      {choosing && (
        <ChooseGroupDialog ownGroupID={user?.groupID ?? null} onClose={() => setChoosing(false)} />
      )}
    </>
  );
}

function ChooseGroupDialog({ ownGroupID, onClose }: { ownGroupID: string | null; onClose: () => void }) {
  const groups = useAllGroupsQuery();
  const [chosen, setChosen] = useState<AdminGroup | null>(null);
  const group = chosen ?? groups.data?.find((g) => g._id === ownGroupID) ?? null;

  const open = () => {
    if (!group) return;
    window.open(ratesHref(group._id), '_blank', 'noopener');
    onClose();
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Rates editor</DialogTitle>
      <DialogContent>
        <DialogContentText variant="body2" sx={{ mb: 2 }}>
          Choose the group whose rate table to edit. It opens in a new tab.
        </DialogContentText>
        <Autocomplete<AdminGroup>
          options={groups.data ?? []}
          value={group}
          onChange={(_event, value) => setChosen(value)}
          getOptionLabel={(option) => `${option.name} (${option.code})`}
          isOptionEqualToValue={(option, value) => option._id === value._id}
          loading={groups.isLoading}
          loadingText={ADMIN_TEXT.loading}
          noOptionsText={groups.isError ? ADMIN_TEXT.loadingError : 'No matching groups'}
          renderInput={(params) => <TextField {...params} label="Group" margin="none" autoFocus />}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={open} disabled={!group}>
          Open rates editor
        </Button>
      </DialogActions>
    </Dialog>
  );
}
