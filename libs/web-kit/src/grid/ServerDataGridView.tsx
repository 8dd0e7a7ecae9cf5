import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  GridOverlay,
  type DataGridProps,
  type GridPaginationModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { PAGE_SIZES } from '@portal/contracts';
import { GRID_LOADING_ERROR, SERVER_GRID_HEIGHT } from './gridConstants';
import type { GridQueryControl } from './useGridQuery';

interface ServerPaging {
  page: number;
  pageSize: number;
  rowCount: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  pageSizes: readonly number[];
}

interface LoadFailure {
  failed: boolean;
  onRetry: () => void;
}

declare module '@mui/x-data-grid' {
  interface PaginationPropsOverrides {
    paging?: ServerPaging;
  }
  interface NoRowsOverlayPropsOverrides {
    loadFailure?: LoadFailure;
  }
}

/**
 * The MIT grid refuses page sizes over 100 (spec 03 §9 has 500 and 1000). In server mode it shows the
 * rows it is given without slicing them, so it is kept on one fixed page of its own and shows whatever
 * page the server sent; ServerPagination, in its footer, offers all six sizes.
 */
const GRID_OWN_PAGE: GridPaginationModel = { page: 0, pageSize: 100 };

export type ServerDataGridProps<R extends GridValidRowModel> = Omit<
  DataGridProps<R>,
  | 'paginationMode'
  | 'sortingMode'
  | 'filterMode'
  | 'paginationModel'
  | 'onPaginationModelChange'
  | 'pageSizeOptions'
  | 'sortModel'
  | 'onSortModelChange'
  | 'filterModel'
  | 'onFilterModelChange'
  | 'rowCount'
> & {
  grid: GridQueryControl;
  rowCount: number;
  /** The page could not be loaded: the grid says so, with a retry. */
  loadFailed?: boolean;
  onRetry?: () => void;
  /** Its height in pixels (spec 03 §9: 750). */
  height?: number;
  /** Its page sizes (spec 03 §9 by default). */
  pageSizes?: readonly number[];
};

/**
 * A DataGrid paged, sorted and filtered by the server (the admin grids' page-for-model, the request
 * queue's pager), 750 px high (spec 03 §9), with the portal's page sizes. Loaded by ServerDataGrid when
 * first drawn.
 */
export function ServerDataGridView<R extends GridValidRowModel>({
  grid,
  rowCount,
  loadFailed = false,
  onRetry = () => {},
  height = SERVER_GRID_HEIGHT,
  pageSizes = PAGE_SIZES,
  slots,
  slotProps,
  ...props
}: ServerDataGridProps<R>) {
  const { query, setPage, setPageSize, setSortModel, setFilterModel } = grid;
  return (
    <Box sx={{ height, width: '100%', bgcolor: 'background.paper' }}>
      <DataGrid<R>
        disableRowSelectionOnClick
        showToolbar
        filterDebounceMs={400}
        {...props}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        paginationModel={GRID_OWN_PAGE}
        rowCount={rowCount}
        sortModel={query.sortModel}
        onSortModelChange={setSortModel}
        filterModel={query.filterModel}
        onFilterModelChange={setFilterModel}
        slots={{ pagination: ServerPagination, noRowsOverlay: NoRowsOverlay, ...slots }}
        slotProps={{
          ...slotProps,
          // Quick filter, CSV and print would work on the one page in the browser, not on the data.
          toolbar: {
            showQuickFilter: false,
            csvOptions: { disableToolbarButton: true },
            printOptions: { disableToolbarButton: true },
            ...slotProps?.toolbar,
          },
          pagination: {
            paging: {
              page: query.page,
              pageSize: query.pageSize,
              rowCount,
              onPageChange: setPage,
              onPageSizeChange: setPageSize,
              pageSizes,
            },
          },
          noRowsOverlay: { loadFailure: { failed: loadFailed, onRetry } },
        }}
      />
    </Box>
  );
}

function ServerPagination({ paging }: { paging?: ServerPaging }) {
  if (!paging) return null;
  return (
    <TablePagination
      component="div"
      count={paging.rowCount}
      page={paging.rowCount === 0 ? 0 : paging.page}
      rowsPerPage={paging.pageSize}
      rowsPerPageOptions={[...paging.pageSizes]}
      onPageChange={(_event, page) => paging.onPageChange(page)}
      onRowsPerPageChange={(event) => paging.onPageSizeChange(Number(event.target.value))}
      showFirstButton
      showLastButton
      sx={{ ml: 'auto' }}
    />
  );
}

function NoRowsOverlay({ loadFailure }: { loadFailure?: LoadFailure }) {
  return (
    <GridOverlay>
      {loadFailure?.failed ? (
        <Stack spacing={1} sx={{ alignItems: 'center' }} role="alert">
          <Typography color="error">{GRID_LOADING_ERROR}</Typography>
          <Button size="small" variant="outlined" onClick={loadFailure.onRetry}>
            Try again
          </Button>
        </Stack>
      ) : (
        <Typography color="text.secondary">No rows</Typography>
      )}
    </GridOverlay>
  );
}
