import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from '@portal/web-kit';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { AdminPage } from '../../../layout/AdminPage';
import { PATHS } from '../../../paths';
import { USAGE_TEXT } from '../../../texts';
import { GroupDialog } from '../../../components/GroupDialog';
import { RatesEditorButton } from '../components/RatesEditorButton';
import { AddIcon } from '../../../layout/icons';
import { lazyGrid } from '@portal/web-kit/grid';

const GroupsList = lazyGrid(async () => (await import('../components/GroupsList')).GroupsList);
const UsersList = lazyGrid(async () => (await import('../components/UsersList')).UsersList);

type ListName = 'groups' | 'users';

/**
 * /services/admin (spec 03 "Services admin screen"): the groups and the users, server paged, with their
 * service switches; the group and user dialogs, deleting, claims settings, and the way to the rates
 * editor, the two editing grids, the usage of every group and (a group's row) its API keys and webhooks
 * (issue 22). The list shown is kept in the address (?list=users).
 */
export function ServicesAdminPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const list: ListName = searchParams.get('list') === 'users' ? 'users' : 'groups';
  const [creatingGroup, setCreatingGroup] = useState(false);

  return (
    <AdminPage
      title="Services administration"
      subtitle="Groups, users and the services they may use. Switching a service on or off takes effect at once."
      actions={
        <>
          <Button component={RouterLink} to={PATHS.users} variant="outlined">
            Users grid
          </Button>
          <Button component={RouterLink} to={PATHS.groups} variant="outlined">
            Groups grid
          </Button>
          <RatesEditorButton />
          <Button component={RouterLink} to={PATHS.usage} variant="outlined">
            {USAGE_TEXT.title}
          </Button>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreatingGroup(true)}>
            New group
          </Button>
        </>
      }
    >
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Tabs
          value={list}
          onChange={(_event, value: ListName) =>
            setSearchParams(value === 'users' ? { list: 'users' } : {}, { replace: true })
          }
          aria-label="Lists"
          sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab value="groups" label="Groups" />
          <Tab value="users" label="Users" />
        </Tabs>
        {list === 'groups' ? <GroupsList /> : <UsersList />}
      </Paper>
      {creatingGroup && <GroupDialog mode="create" onClose={() => setCreatingGroup(false)} />}
    </AdminPage>
  );
}
