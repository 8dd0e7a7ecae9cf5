import { useCallback, useMemo } from 'react';
import { useGridApiRef, type GridColDef } from '@mui/x-data-grid';
import type { AdminUser } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { failureText } from '../../../api/answers';
import { CheckboxCell } from '../../../grid/CheckboxCell';
import { SERVER_FILTER_OPERATORS } from '../../../grid/columns';
import { AdminPageGrid } from '../../../grid/AdminPageGrid';
import { pageForModelParams, type ServerFields } from '../../../grid/pageForModel';
import { useGridQuery } from '@portal/web-kit/grid';
import { ADMIN_TEXT } from '../../../texts';
import { useAllGroupsQuery } from '../../../api/groupsApi';
import { useAddUserServiceMutation, useRemoveUserServiceMutation } from '../../../api/serviceAssignmentApi';
import { useUpdateUserMutation, useUsersPageQuery } from '../../../api/usersApi';
import { serviceChanges, USER_FLAGS, userChanges, type UserFlag } from '../../../api/userChanges';
import { GroupEditCell } from './GroupEditCell';
import { ServiceChips } from './ServiceChips';
import { ServicesEditCell } from './ServicesEditCell';

/** What the server sorts and filters by; the group column goes by the group's name (spec 03 §2). */
const USERS_GRID_FIELDS: ServerFields = {
  name: {},
  email: {},
  group: { sortBy: 'groupName', filterBy: 'groupName' },
  active: { type: 'boolean' },
  admin: { type: 'boolean' },
  ratesEditor: { type: 'boolean' },
  saviOperator: { type: 'boolean' },
  saviQC: { type: 'boolean' },
  claimsUser: { type: 'boolean' },
};

/**
 * The users grid (spec 03 "Users grid"): paged, sorted and filtered by the server; name, group, the
 * role checkboxes and the services save at once, each edit on its own. A failed save puts the row back
 * and says 'Failed to update user' (or, for a service, the spec's service text).
 */
export function UsersGrid() {
  const apiRef = useGridApiRef();
  const notify = useNotify();
  const grid = useGridQuery([{ field: 'name', sort: 'asc' }]);
  const page = useUsersPageQuery(pageForModelParams('users', grid.query, USERS_GRID_FIELDS));
  const groups = useAllGroupsQuery();
  const [updateUser] = useUpdateUserMutation();
  const [addUserService] = useAddUserServiceMutation();
  const [removeUserService] = useRemoveUserServiceMutation();

  /** Saves one edit; answers the row to show: the saved one, or the previous one when it failed. */
  const saveRow = useCallback(
    async (edited: AdminUser, previous: AdminUser): Promise<AdminUser> => {
      let saved = previous;
      const changes = userChanges(previous, edited);
      if (Object.keys(changes).length > 0) {
        const result = await updateUser({ id: previous._id, changes });
        if (result.error) {
          notify({ message: failureText(ADMIN_TEXT.failedToUpdateUser, result.error), severity: 'error' });
          return previous;
        }
        saved = result.data;
      }
      const { added, removed } = serviceChanges(previous.services, edited.services);
      const calls = [
        ...added.map((service) => () => addUserService({ id: previous._id, service })),
        ...removed.map((service) => () => removeUserService({ id: previous._id, service })),
      ];
      let services = saved.services;
      for (const call of calls) {
        const result = await call();
        if (result.error) {
          notify({ message: failureText(ADMIN_TEXT.failedToChangeService, result.error), severity: 'error' });
          return { ...saved, services: previous.services };
        }
        services = result.data;
      }
      return { ...saved, services };
    },
    [updateUser, addUserService, removeUserService, notify],
  );

  const toggle = useCallback(
    async (row: AdminUser, field: UserFlag, checked: boolean) => {
      const edited = { ...row, [field]: checked };
      apiRef.current?.updateRows([edited]);
      apiRef.current?.updateRows([await saveRow(edited, row)]);
    },
    [apiRef, saveRow],
  );

  const groupOptions = useMemo(
    () => [
      { value: '', label: 'No group' },
      ...(groups.data ?? []).map((group) => ({ value: group._id, label: group.name })),
    ],
    [groups.data],
  );

  const columns = useMemo<GridColDef<AdminUser>[]>(
    () => [
      {
        field: 'name',
        headerName: 'Name',
        flex: 1.2,
        minWidth: 170,
        editable: true,
        filterOperators: SERVER_FILTER_OPERATORS.string,
        preProcessEditCellProps: ({ props }) => ({
          ...props,
          error: String(props.value ?? '').trim() === '',
        }),
      },
      {
        field: 'email',
        headerName: 'Email',
        flex: 1.4,
        minWidth: 220,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      {
        field: 'group',
        headerName: 'Group',
        flex: 1.1,
        minWidth: 170,
        type: 'singleSelect',
        editable: groups.isSuccess,
        valueOptions: groupOptions,
        valueGetter: (value: string | null) => value ?? '',
        valueSetter: (value: string, row) => ({ ...row, group: value || null }),
        // The server's name for it: right even before the list of groups has loaded.
        renderCell: ({ row }) => row.groupName || '—',
        renderEditCell: (params) => <GroupEditCell {...params} />,
        // Filtered by the group's name, as it is sorted.
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      ...USER_FLAGS.map(({ field, label }): GridColDef<AdminUser> => ({
        field,
        headerName: label,
        type: 'boolean',
        width: field === 'claimsUser' ? 124 : 104,
        filterOperators: SERVER_FILTER_OPERATORS.boolean,
        renderCell: ({ row }) => (
          <CheckboxCell
            checked={row[field]}
            label={`${label} for ${row.name}`}
            onChange={(checked) => void toggle(row, field, checked)}
          />
        ),
      })),
      {
        field: 'services',
        headerName: 'Services',
        flex: 1.3,
        minWidth: 230,
        editable: true,
        sortable: false,
        filterable: false,
        renderCell: ({ row }) => <ServiceChips services={row.services} />,
        renderEditCell: (params) => <ServicesEditCell {...params} />,
      },
    ],
    [groupOptions, groups.isSuccess, toggle],
  );

  return (
    <AdminPageGrid<AdminUser>
      apiRef={apiRef}
      label="Users"
      grid={grid}
      page={page}
      columns={columns}
      processRowUpdate={saveRow}
    />
  );
}
