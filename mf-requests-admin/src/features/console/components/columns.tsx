import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import { REQUEST_STATUSES, type RequestRow } from '@portal/contracts';
import {
  PROPERTY_TYPES,
  actionFor,
  ageingLevel,
  formatRand,
  formatSaDateTime,
  type RequestAction,
} from '@portal/domain';
import { clientReferenceColumn } from '../../../components/clientReferenceColumn';

const rand = (value: number | null) => (value === null ? '' : formatRand(value));

const AGEING_COLOUR = { ok: 'success', near: 'warning', over: 'error' } as const;

export interface ConsoleColumnOptions {
  /** Spec 02 §6: prioritise is hidden when isAdmin is '0'. */
  canPrioritise: boolean;
  /** Spec 02 §4.2: admins edit the status in the grid. */
  canEditStatus: boolean;
  ageingTargets: Record<string, number>;
  onAction: (row: RequestRow, action: RequestAction) => void;
  onDetail: (row: RequestRow) => void;
  onDuplicates: (row: RequestRow) => void;
}

/** Spec 02 §3 "Request (grid row)": every column, the edits of §7.2, the action of §4.1. */
export function consoleColumns(options: ConsoleColumnOptions): GridColDef<RequestRow>[] {
  return [
    {
      field: 'action',
      headerName: 'Action',
      width: 170,
      sortable: false,
      filterable: false,
      renderCell: ({ row }) => {
        const action = actionFor(row.status);
        return action ? (
          <Button size="small" variant="contained" onClick={() => options.onAction(row, action)}>
            {action}
          </Button>
        ) : null;
      },
    },
    {
      field: 'priority',
      headerName: 'Priority',
      width: 100,
      type: 'singleSelect',
      valueOptions: ['Yes', 'No'],
      editable: options.canPrioritise,
    },
    { field: 'type', headerName: 'Type', width: 80 },
    { field: 'gripReference', headerName: 'GRiP Reference', width: 160 },
    { field: 'client', headerName: 'Client', width: 150 },
    clientReferenceColumn(200),
    { field: 'user', headerName: 'User', width: 150 },
    { field: 'email', headerName: 'E-mail', width: 190 },
    {
      field: 'created',
      headerName: 'Created',
      width: 170,
      valueFormatter: (value: string) => formatSaDateTime(value),
    },
    {
      field: 'status',
      headerName: 'Status',
      width: 150,
      type: 'singleSelect',
      valueOptions: [...REQUEST_STATUSES],
      editable: options.canEditStatus,
    },
    {
      field: 'timeInQueue',
      headerName: 'Time in queue (h)',
      width: 150,
      renderCell: ({ row }) => {
        const level = ageingLevel(row.status, row.timeInQueue, options.ageingTargets);
        return level ? (
          <Tooltip title={`Target ${options.ageingTargets[row.status]} h in '${row.status}'`}>
            <Chip size="small" color={AGEING_COLOUR[level]} label={row.timeInQueue} data-ageing={level} />
          </Tooltip>
        ) : (
          row.timeInQueue
        );
      },
    },
    { field: 'firstQS', headerName: 'First QS', width: 150 },
    { field: 'address', headerName: 'Address', width: 280 },
    { field: 'comments', headerName: 'Comments', width: 180, sortable: false },
    { field: 'cantlocate', headerName: "Can't locate", width: 110 },
    { field: 'downloaded', headerName: 'Downloaded', width: 110 },
    { field: 'invoice', headerName: 'Invoice', width: 130 },
    { field: 'disputed', headerName: 'Disputed', width: 100 },
    {
      field: 'rveType',
      headerName: 'RVE type',
      width: 150,
      type: 'singleSelect',
      valueOptions: [...PROPERTY_TYPES],
      editable: true,
    },
    { field: 'numberOfBuildings', headerName: 'Buildings', width: 110, type: 'number', editable: true },
    {
      field: 'unitPrice',
      headerName: 'Unit price',
      width: 130,
      type: 'number',
      editable: true,
      valueFormatter: (value: number | null) => rand(value),
    },
    {
      field: 'reportFee',
      headerName: 'Report fee',
      width: 140,
      type: 'number',
      valueFormatter: (value: number | null) => rand(value),
    },
    {
      field: 'rve',
      headerName: 'RVE',
      width: 150,
      type: 'number',
      valueFormatter: (value: number | null) => rand(value),
    },
    {
      field: 'more',
      headerName: '',
      width: 190,
      sortable: false,
      filterable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          <Button size="small" onClick={() => options.onDetail(row)}>
            Details
          </Button>
          <IconButton
            size="small"
            aria-label={`Duplicate check of ${row.gripReference}`}
            onClick={() => options.onDuplicates(row)}
          >
            <Box component="span" aria-hidden sx={{ fontSize: 14 }}>
              ⌖
            </Box>
          </IconButton>
        </Stack>
      ),
    },
  ];
}

/** The edits the grid saves, by column. */
export const EDITABLE_FIELDS = ['priority', 'status', 'rveType', 'numberOfBuildings', 'unitPrice'] as const;
