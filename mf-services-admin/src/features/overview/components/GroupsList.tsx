import { useMemo, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import type { AdminGroup } from '@portal/contracts';
import { SERVER_FILTER_OPERATORS } from '../../../grid/columns';
import { AdminPageGrid } from '../../../grid/AdminPageGrid';
import { RowActionButton } from '../../../grid/RowActionButton';
import { pageForModelParams, type ServerFields } from '../../../grid/pageForModel';
import { useGridQuery } from '@portal/web-kit/grid';
import { ConfirmDeleteDialog } from '../../../layout/ConfirmDeleteDialog';
import { ClaimsIcon, DeleteIcon, EditIcon } from '../../../layout/icons';
import { ADMIN_TEXT } from '../../../texts';
import { switchesAndActionsColumns } from './listColumns';
import { useDeleteGroupMutation, useGroupsPageQuery } from '../../../api/groupsApi';
import { ClaimsSettingsDialog } from './ClaimsSettingsDialog';
import { GroupDialog } from '../../../components/GroupDialog';
import { RatesLink } from '../../../components/RatesLink';
import { GroupPageLink } from '../../../components/GroupPageLink';

const SERVER_FIELDS: ServerFields = { name: {}, code: {}, active: { type: 'boolean' } };

type OpenDialog = { kind: 'update' | 'claims' | 'delete'; group: AdminGroup } | null;

/** The groups of the services-admin screen: their services as switches, and what can be done to each. */
export function GroupsList() {
  const grid = useGridQuery([{ field: 'name', sort: 'asc' }]);
  const page = useGroupsPageQuery(pageForModelParams('groups', grid.query, SERVER_FIELDS));
  const [deleteGroup] = useDeleteGroupMutation();
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const columns = useMemo<GridColDef<AdminGroup>[]>(
    () => [
      {
        field: 'name',
        headerName: 'Name',
        flex: 1.4,
        minWidth: 180,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      { field: 'code', headerName: 'Code', width: 110, filterOperators: SERVER_FILTER_OPERATORS.string },
      {
        field: 'adminLabel',
        headerName: 'Admin',
        flex: 1.4,
        minWidth: 200,
        // page-for-model cannot sort or filter groups by their admin or their users.
        sortable: false,
        filterable: false,
      },
      {
        field: 'userCount',
        headerName: 'Users',
        type: 'number',
        width: 90,
        sortable: false,
        filterable: false,
      },
      ...switchesAndActionsColumns<AdminGroup>('group', 250, (row) => [
        <RowActionButton
          key="edit"
          title="Update group"
          label={`Update group ${row.name}`}
          onClick={() => setDialog({ kind: 'update', group: row })}
        >
          <EditIcon fontSize="small" />
        </RowActionButton>,
        <RowActionButton
          key="claims"
          title="Claims settings"
          label={`Claims settings of ${row.name}`}
          onClick={() => setDialog({ kind: 'claims', group: row })}
        >
          <ClaimsIcon fontSize="small" />
        </RowActionButton>,
        <RatesLink key="rates" group={row} />,
        <GroupPageLink key="api-keys" group={row} target="apiKeys" />,
        <GroupPageLink key="webhooks" group={row} target="webhooks" />,
        <RowActionButton
          key="delete"
          title="Delete group"
          label={`Delete group ${row.name}`}
          onClick={() => setDialog({ kind: 'delete', group: row })}
        >
          <DeleteIcon fontSize="small" />
        </RowActionButton>,
      ]),
    ],
    [],
  );

  return (
    <>
      <AdminPageGrid<AdminGroup> label="Groups" grid={grid} page={page} columns={columns} />
      {dialog?.kind === 'update' && (
        <GroupDialog mode="update" group={dialog.group} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'claims' && (
        <ClaimsSettingsDialog group={dialog.group} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDeleteDialog
          title="Delete group"
          failureText={ADMIN_TEXT.failedToDeleteGroup}
          onConfirm={() => deleteGroup(dialog.group._id).unwrap()}
          onClose={() => setDialog(null)}
        >
          Delete the group <strong>{dialog.group.name}</strong> ({dialog.group.code})? A group that still has
          users cannot be deleted.
        </ConfirmDeleteDialog>
      )}
    </>
  );
}
