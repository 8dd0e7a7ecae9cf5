import type { GridActionsColDef, GridColDef } from '@mui/x-data-grid';
import { SERVICE_CHOICES } from '../../../constants';
import { SERVER_FILTER_OPERATORS } from '../../../grid/columns';
import { ServiceSwitch } from './ServiceSwitch';

type ListRow = { _id: string; name: string; services: string[]; active: boolean };

/** One switch column per service (avs, iris, savi, spatialkey) for a list of users or of groups. */
export function serviceSwitchColumns<Row extends ListRow>(owner: 'user' | 'group'): GridColDef<Row>[] {
  return SERVICE_CHOICES.map(({ identifier, label }) => ({
    field: `service:${identifier}`,
    headerName: label,
    width: 104,
    sortable: false,
    filterable: false,
    align: 'center',
    headerAlign: 'center',
    renderCell: ({ row }) => (
      <ServiceSwitch
        owner={owner}
        id={row._id}
        ownerName={row.name}
        service={identifier}
        assigned={row.services.includes(identifier)}
      />
    ),
  }));
}

/**
 * The columns both lists end with: the service switches, 'Active', and the row's actions (`actionsWidth`
 * wide, the buttons `actionsOf` gives for the row).
 */
export function switchesAndActionsColumns<Row extends ListRow>(
  owner: 'user' | 'group',
  actionsWidth: number,
  actionsOf: (row: Row) => ReturnType<GridActionsColDef<Row>['getActions']>,
): GridColDef<Row>[] {
  return [
    ...serviceSwitchColumns<Row>(owner),
    {
      field: 'active',
      headerName: 'Active',
      type: 'boolean',
      width: 90,
      filterOperators: SERVER_FILTER_OPERATORS.boolean,
    },
    {
      field: 'actions',
      headerName: 'Actions',
      type: 'actions',
      width: actionsWidth,
      getActions: ({ row }) => actionsOf(row),
    },
  ];
}
