import { useMemo, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import type { AdminUser } from '@portal/contracts';
import { SERVER_FILTER_OPERATORS } from '../../../grid/columns';
import { AdminPageGrid } from '../../../grid/AdminPageGrid';
import { RowActionButton } from '../../../grid/RowActionButton';
import { pageForModelParams, type ServerFields } from '../../../grid/pageForModel';
import { useGridQuery } from '@portal/web-kit/grid';
import { ConfirmDeleteDialog } from '../../../layout/ConfirmDeleteDialog';
import { DeleteIcon, EditIcon } from '../../../layout/icons';
import { ADMIN_TEXT } from '../../../texts';
import { switchesAndActionsColumns } from './listColumns';
import { useDeleteUserMutation, useUsersPageQuery } from '../../../api/usersApi';
import { UserDialog } from './UserDialog';

const SERVER_FIELDS: ServerFields = {
  name: {},
  email: {},
  groupName: {},
  active: { type: 'boolean' },
};

type OpenDialog = { kind: 'update' | 'delete'; user: AdminUser } | null;

/**
 * The users of the services-admin screen: the services given to each user directly (on top of their
 * group's) as switches, and what can be done to each.
 */
export function UsersList() {
  const grid = useGridQuery([{ field: 'name', sort: 'asc' }]);
  const page = useUsersPageQuery(pageForModelParams('users', grid.query, SERVER_FIELDS));
  const [deleteUser] = useDeleteUserMutation();
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const columns = useMemo<GridColDef<AdminUser>[]>(
    () => [
      {
        field: 'name',
        headerName: 'Name',
        flex: 1.2,
        minWidth: 170,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      {
        field: 'email',
        headerName: 'Email',
        flex: 1.4,
        minWidth: 210,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      {
        field: 'groupName',
        headerName: 'Group',
        flex: 1.2,
        minWidth: 170,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      ...switchesAndActionsColumns<AdminUser>('user', 110, (row) => [
        <RowActionButton
          key="edit"
          title="Update user"
          label={`Update user ${row.name}`}
          onClick={() => setDialog({ kind: 'update', user: row })}
        >
          <EditIcon fontSize="small" />
        </RowActionButton>,
        <RowActionButton
          key="delete"
          title="Delete user"
          label={`Delete user ${row.name}`}
          onClick={() => setDialog({ kind: 'delete', user: row })}
        >
          <DeleteIcon fontSize="small" />
        </RowActionButton>,
      ]),
    ],
    [],
  );

  return (
    <>
      <AdminPageGrid<AdminUser> label="Users" grid={grid} page={page} columns={columns} />
      {dialog?.kind === 'update' && <UserDialog user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDeleteDialog
          title="Delete user"
          failureText={ADMIN_TEXT.failedToDeleteUser}
          onConfirm={() => deleteUser(dialog.user._id).unwrap()}
          onClose={() => setDialog(null)}
        >
          Delete the user <strong>{dialog.user.name}</strong> ({dialog.user.email})? The requests they made
          are kept.
        </ConfirmDeleteDialog>
      )}
    </>
  );
}
