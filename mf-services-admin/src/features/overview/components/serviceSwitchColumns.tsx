import type { GridColDef } from '@mui/x-data-grid';
import { SERVICE_CHOICES } from '../../../constants';
import { ServiceSwitch } from '../../services/components/ServiceSwitch';

/** One switch column per service (avs, iris, savi, spatialkey) for a list of users or of groups. */
export function serviceSwitchColumns<Row extends { _id: string; name: string; services: string[] }>(
  owner: 'user' | 'group',
): GridColDef<Row>[] {
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
