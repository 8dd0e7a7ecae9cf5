import { useCallback, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import {
  useGridApiContext,
  useGridApiRef,
  type GridColDef,
  type GridRenderEditCellParams,
} from '@mui/x-data-grid';
import type { AdminGroup } from '@portal/contracts';
import { NOTIFY_DURATION, useNotify } from '@portal/web-kit';
import { failureText } from '../../../api/answers';
import { CheckboxCell } from '../../../grid/CheckboxCell';
import { SERVER_FILTER_OPERATORS } from '../../../grid/columns';
import { AdminPageGrid } from '../../../grid/AdminPageGrid';
import { RowActionButton } from '../../../grid/RowActionButton';
import { pageForModelParams, type ServerFields } from '../../../grid/pageForModel';
import { useGridQuery } from '@portal/web-kit/grid';
import { EditIcon } from '../../../layout/icons';
import { ADMIN_TEXT } from '../../../texts';
import { GroupPageLink } from '../../../components/GroupPageLink';
import { RatesLink } from '../../../components/RatesLink';
import { AdminUserPicker, type AdminChoice } from '../../../components/AdminUserPicker';
import { useGroupsPageQuery, useUpdateGroupMutation } from '../../../api/groupsApi';
import { canSaveGroup, groupChanges } from '../groupRows';
import { referenceLabel, type ReferenceEntry } from '../../../components/references/references';
import { ReferencesDialog } from './ReferencesDialog';

const GROUPS_GRID_FIELDS: ServerFields = {
  name: {},
  code: {},
  professionalFeePercentage: { type: 'number' },
  extraField: {},
  reportNameFormat: {},
  active: { type: 'boolean' },
  includeVAT: { type: 'boolean' },
  includeProfessionalFee: { type: 'boolean' },
};

const GROUP_FLAGS = [
  { field: 'active', label: 'Active' },
  { field: 'includeVAT', label: 'Include VAT' },
  { field: 'includeProfessionalFee', label: 'Include prof. fee' },
] as const satisfies readonly { field: keyof AdminGroup; label: string }[];

const NONE: ReadonlySet<string> = new Set();

const adminChoiceOfRow = (group: AdminGroup): AdminChoice | null =>
  group.admin ? { id: group.admin, label: group.adminLabel } : null;

/**
 * The groups grid (spec 03 "Groups grid"). An edit is saved only when the group has an admin and a
 * code (spec 03 §5); otherwise it stays on screen, marked, with the not-saved notice for 10 s, so that
 * the missing value can be given next and both are saved together.
 */
export function GroupsGrid() {
  const apiRef = useGridApiRef();
  const notify = useNotify();
  const grid = useGridQuery([{ field: 'name', sort: 'asc' }]);
  const page = useGroupsPageQuery(pageForModelParams('groups', grid.query, GROUPS_GRID_FIELDS));
  const [updateGroup] = useUpdateGroupMutation();
  const [editingReferences, setEditingReferences] = useState<AdminGroup | null>(null);

  // The groups as the server has them: an edit is saved as its difference from these.
  const serverGroups = useMemo(
    () => new Map((page.data?.docs ?? []).map((group) => [group._id, group])),
    [page.data],
  );
  // Rows with an edit not saved. A page read again replaces the grid's rows, unsaved edits included,
  // so the marks hold only for the page they were made on.
  const [unsaved, setUnsaved] = useState({ page: page.data, ids: new Set<string>() });
  const unsavedIds = unsaved.page === page.data ? unsaved.ids : NONE;
  const markUnsaved = useCallback(
    (id: string, isUnsaved: boolean) =>
      setUnsaved((current) => {
        const next = new Set(current.page === page.data ? current.ids : NONE);
        if (isUnsaved) next.add(id);
        else next.delete(id);
        return { page: page.data, ids: next };
      }),
    [page.data],
  );

  /** Saves one edit; answers the row to show. */
  const saveRow = useCallback(
    async (edited: AdminGroup, previous: AdminGroup): Promise<AdminGroup> => {
      if (Object.keys(groupChanges(previous, edited)).length === 0) return previous;
      if (!canSaveGroup(edited)) {
        markUnsaved(edited._id, true);
        notify({
          message: ADMIN_TEXT.groupNotSaved,
          severity: 'warning',
          durationMs: NOTIFY_DURATION.notSaved,
        });
        return edited;
      }
      const saved = serverGroups.get(edited._id) ?? previous;
      const result = await updateGroup({ id: edited._id, changes: groupChanges(saved, edited) });
      if (result.error) {
        notify({ message: failureText(ADMIN_TEXT.failedToUpdateGroup, result.error), severity: 'error' });
        return previous;
      }
      markUnsaved(edited._id, false);
      return result.data;
    },
    [updateGroup, notify, serverGroups, markUnsaved],
  );

  const saveFromCell = useCallback(
    async (row: AdminGroup, edited: AdminGroup) => {
      apiRef.current?.updateRows([edited]);
      apiRef.current?.updateRows([await saveRow(edited, row)]);
    },
    [apiRef, saveRow],
  );

  const columns = useMemo<GridColDef<AdminGroup>[]>(
    () => [
      {
        field: 'name',
        headerName: 'Name',
        flex: 1.2,
        minWidth: 180,
        editable: true,
        filterOperators: SERVER_FILTER_OPERATORS.string,
        preProcessEditCellProps: ({ props }) => ({
          ...props,
          error: String(props.value ?? '').trim() === '',
        }),
      },
      {
        field: 'code',
        headerName: 'Code',
        width: 90,
        editable: true,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      {
        field: 'admin',
        headerName: 'Admin',
        flex: 1.6,
        minWidth: 230,
        editable: true,
        // page-for-model cannot sort or filter groups by their admin.
        sortable: false,
        filterable: false,
        valueGetter: (_value, row) => adminChoiceOfRow(row),
        valueSetter: (choice: AdminChoice | null, row) => ({
          ...row,
          admin: choice?.id ?? null,
          adminLabel: choice?.label ?? '',
        }),
        renderCell: ({ row }) =>
          row.adminLabel || (
            <Box component="span" sx={{ color: 'warning.main' }}>
              No admin
            </Box>
          ),
        renderEditCell: (params) => <AdminEditCell {...params} />,
      },
      {
        field: 'professionalFeePercentage',
        headerName: 'Prof. fee %',
        type: 'number',
        width: 100,
        editable: true,
        filterOperators: SERVER_FILTER_OPERATORS.number,
        preProcessEditCellProps: ({ props }) => {
          const value = Number(props.value);
          return { ...props, error: !Number.isFinite(value) || value < 0 || value > 100 };
        },
      },
      {
        field: 'extraField',
        headerName: 'Extra field',
        width: 120,
        editable: true,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      {
        field: 'reportNameFormat',
        headerName: 'Report name format',
        width: 150,
        editable: true,
        filterOperators: SERVER_FILTER_OPERATORS.string,
      },
      {
        field: 'references',
        headerName: 'References',
        flex: 1.3,
        minWidth: 200,
        sortable: false,
        filterable: false,
        renderCell: ({ row }) => (
          <ReferencesCell
            references={row.references}
            groupName={row.name}
            onEdit={() => setEditingReferences(row)}
          />
        ),
      },
      ...GROUP_FLAGS.map(({ field, label }): GridColDef<AdminGroup> => ({
        field,
        headerName: label,
        type: 'boolean',
        width: field === 'active' ? 80 : field === 'includeVAT' ? 105 : 128,
        filterOperators: SERVER_FILTER_OPERATORS.boolean,
        renderCell: ({ row }) => (
          <CheckboxCell
            checked={row[field]}
            label={`${label} for ${row.name}`}
            onChange={(checked) => void saveFromCell(row, { ...row, [field]: checked } as AdminGroup)}
          />
        ),
      })),
      {
        field: 'userCount',
        headerName: 'Users',
        type: 'number',
        width: 75,
        sortable: false,
        filterable: false,
      },
      {
        field: 'rates',
        headerName: 'Rates',
        type: 'actions',
        width: 64,
        getActions: ({ row }) => [<RatesLink key="rates" group={row} />],
      },
      {
        field: 'apiKeys',
        headerName: 'API keys',
        type: 'actions',
        width: 80,
        getActions: ({ row }) => [<GroupPageLink key="api-keys" group={row} target="apiKeys" />],
      },
      {
        field: 'webhooks',
        headerName: 'Webhooks',
        type: 'actions',
        width: 90,
        getActions: ({ row }) => [<GroupPageLink key="webhooks" group={row} target="webhooks" />],
      },
    ],
    [saveFromCell],
  );

  return (
    <>
      <AdminPageGrid<AdminGroup>
        apiRef={apiRef}
        label="Groups"
        grid={grid}
        page={page}
        columns={columns}
        processRowUpdate={saveRow}
        getRowClassName={({ id }) => (unsavedIds.has(String(id)) ? 'group--unsaved' : '')}
        sx={(theme) => {
          const unsavedTint = alpha(theme.palette.warning.main, 0.14);
          return { '& .group--unsaved, & .group--unsaved:hover': { bgcolor: unsavedTint } };
        }}
      />
      {editingReferences && (
        <ReferencesDialog
          group={editingReferences}
          onApply={(references) => {
            const row = apiRef.current?.getRow<AdminGroup>(editingReferences._id) ?? editingReferences;
            void saveFromCell(row, { ...row, references });
          }}
          onClose={() => setEditingReferences(null)}
        />
      )}
    </>
  );
}

function ReferencesCell({
  references,
  groupName,
  onEdit,
}: {
  references: readonly ReferenceEntry[];
  groupName: string;
  onEdit: () => void;
}) {
  const labels = references.map(referenceLabel).join(', ');
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%', width: '100%' }}>
      <Typography
        variant="body2"
        noWrap
        title={labels}
        sx={{ flexGrow: 1 }}
        color={labels ? 'text.primary' : 'text.secondary'}
      >
        {labels || 'None'}
      </Typography>
      <RowActionButton title="Edit references" label={`Edit references of ${groupName}`} onClick={onEdit}>
        <EditIcon fontSize="small" />
      </RowActionButton>
    </Stack>
  );
}

/** The admin cell's editor: a user search that ends the edit once a user is picked. */
function AdminEditCell({ id, field, value }: GridRenderEditCellParams<AdminGroup, AdminChoice | null>) {
  const apiRef = useGridApiContext();
  return (
    <Box sx={{ width: '100%', px: 0.5 }}>
      <AdminUserPicker
        size="small"
        value={value ?? null}
        openOnMount
        autoFocus
        onChange={async (choice) => {
          await apiRef.current.setEditCellValue({ id, field, value: choice });
          apiRef.current.stopCellEditMode({ id, field });
        }}
      />
    </Box>
  );
}
