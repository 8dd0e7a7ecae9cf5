import { useEffect, useMemo } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import {
  DataGrid,
  GridActionsCellItem,
  useGridApiRef,
  type GridColDef,
  type GridPaginationModel,
} from '@mui/x-data-grid';
import { CheckboxCell } from '../../../grid/CheckboxCell';
import { LAYOUT } from '../../../constants';
import {
  NUMBER_FIELDS,
  parseRateNumber,
  RATE_COLUMNS,
  rateFieldProblem,
  type EditableRateRow,
  type NumberField,
} from '../rateRows';
import { DeleteIcon } from '../../../layout/icons';

const isNumberField = (field: string): field is NumberField =>
  (NUMBER_FIELDS as readonly string[]).includes(field);
const BOOLEAN_FIELDS = ['slope', 'fee', 'vat'] as const;
type BooleanField = (typeof BOOLEAN_FIELDS)[number];
const isBooleanField = (field: string): field is BooleanField =>
  (BOOLEAN_FIELDS as readonly string[]).includes(field);

/**
 * The MIT grid pages at most 100 rows. A rate table is edited as one list, so the grid is told the
 * paging is done elsewhere (it then shows every row it is given) and its footer is hidden; the page
 * shows the row count.
 */
const WHOLE_TABLE: GridPaginationModel = { page: 0, pageSize: 100 };

interface RatesGridProps {
  rows: EditableRateRow[];
  loading: boolean;
  onRowsChange: (rows: EditableRateRow[]) => void;
  /** A row just added: the grid shows it and starts editing its first cell. */
  focusRowId: number | null;
}

/** The rates editor's grid: the spec's twelve columns (spec 03 "Rates editor"), edited in place. */
export function RatesGrid({ rows, loading, onRowsChange, focusRowId }: RatesGridProps) {
  const apiRef = useGridApiRef();

  useEffect(() => {
    if (focusRowId === null) return;
    const index = rows.findIndex((row) => row.id === focusRowId);
    if (index < 0 || !apiRef.current) return;
    apiRef.current.scrollToIndexes({ rowIndex: index, colIndex: 0 });
    apiRef.current.setCellFocus(focusRowId, 'report');
    apiRef.current.startCellEditMode({ id: focusRowId, field: 'report' });
    // Only when a new row asks for it, not on every edit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRowId]);

  const columns = useMemo<GridColDef<EditableRateRow>[]>(() => {
    const replaceRow = (edited: EditableRateRow) =>
      onRowsChange(rows.map((row) => (row.id === edited.id ? edited : row)));
    return [
      ...RATE_COLUMNS.map(({ field, headerName }): GridColDef<EditableRateRow> => {
        if (isBooleanField(field))
          return {
            field,
            headerName,
            type: 'boolean',
            width: 110,
            renderCell: ({ row }) => (
              <CheckboxCell
                checked={row[field]}
                label={`${headerName}, row ${rows.indexOf(row) + 1}`}
                onChange={(checked) => replaceRow({ ...row, [field]: checked })}
              />
            ),
          };
        if (isNumberField(field))
          return {
            field,
            headerName,
            width: field === 'increase' ? 135 : 115,
            editable: true,
            align: 'right',
            headerAlign: 'right',
            // Typed text becomes a number (spec 03 §5); text that is not one stays, to be shown as wrong.
            valueParser: (value) => parseRateNumber(value),
            renderCell: ({ row }) => <NumberCell value={row[field]} problem={rateFieldProblem(row, field)} />,
          };
        if (field === 'quantity') return { field, headerName, editable: true, width: 125 };
        return { field, headerName, editable: true, flex: 1, minWidth: field === 'report' ? 175 : 120 };
      }),
      {
        field: 'actions',
        type: 'actions',
        headerName: '',
        width: 50,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="delete"
            icon={<DeleteIcon />}
            label={`Delete row ${rows.indexOf(row) + 1}`}
            onClick={() => onRowsChange(rows.filter((other) => other.id !== row.id))}
          />,
        ],
      },
    ];
  }, [rows, onRowsChange]);

  return (
    <Box sx={{ height: LAYOUT.gridHeight, width: '100%', bgcolor: 'background.paper' }}>
      <DataGrid<EditableRateRow>
        apiRef={apiRef}
        label="Rates"
        rows={rows}
        columns={columns}
        loading={loading}
        disableRowSelectionOnClick
        disableColumnSorting
        paginationMode="server"
        paginationModel={WHOLE_TABLE}
        rowCount={rows.length}
        hideFooter
        processRowUpdate={(edited) => {
          onRowsChange(rows.map((row) => (row.id === edited.id ? edited : row)));
          return edited;
        }}
        getCellClassName={({ field, row }) =>
          isNumberField(field) && rateFieldProblem(row, field) ? 'rate--invalid' : ''
        }
        sx={{ '& .rate--invalid': { bgcolor: 'rgba(179, 38, 30, 0.08)' } }}
      />
    </Box>
  );
}

/** A number field: the value, or what was typed in red with what is wrong with it. */
function NumberCell({ value, problem }: { value: number | string; problem: string | null }) {
  if (!problem) return <>{value}</>;
  return (
    <Tooltip title={problem}>
      <Box
        component="span"
        sx={{ color: 'error.main', fontWeight: 600 }}
        aria-invalid="true"
        aria-label={`${value === '' ? 'empty' : value}: ${problem}`}
      >
        {value === '' ? '—' : value}
      </Box>
    </Tooltip>
  );
}
