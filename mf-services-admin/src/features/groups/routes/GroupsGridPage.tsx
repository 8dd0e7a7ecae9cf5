import { useState } from 'react';
import Button from '@mui/material/Button';
import { AdminPage } from '../../../layout/AdminPage';
import { GroupDialog } from '../../../components/GroupDialog';
import { AddIcon } from '../../../layout/icons';
import { lazyGrid } from '@portal/web-kit/grid';

const GroupsGrid = lazyGrid(async () => (await import('../components/GroupsGrid')).GroupsGrid);

/** /services/admin/groups (spec 03 "Groups grid"), with the 'create group' dialog. */
export function GroupsGridPage() {
  const [creating, setCreating] = useState(false);
  return (
    <AdminPage
      title="Groups"
      backToAdmin
      subtitle="Double-click a cell to change it. A change is saved at once when the group has an admin and a code."
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
          Create group
        </Button>
      }
    >
      <GroupsGrid />
      {creating && <GroupDialog mode="create" onClose={() => setCreating(false)} />}
    </AdminPage>
  );
}
