import { lazy, Suspense, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { GridValidRowModel } from '@mui/x-data-grid';
import { SERVER_GRID_HEIGHT } from './gridConstants';
import type { ServerDataGridProps } from './ServerDataGridView';

/** The list's own words while its code loads (a progress indicator needs a name: WCAG 4.1.2). */
export const GRID_CODE_LOADING = 'Loading the list';

/**
 * The data grid's code (x-data-grid, ~450 KB before compression, the largest module of a list screen) is
 * fetched and run when a grid is first drawn, not before the page around it: the page's heading, filters
 * and buttons paint first and the grid follows into a box of its final size, so nothing below it moves.
 */
const LoadedServerDataGrid = lazy(async () => ({
  default: (await import('./ServerDataGridView')).ServerDataGridView,
}));

/**
 * A DataGrid paged, sorted and filtered by the server (the admin grids' page-for-model, the request
 * queue's pager), 750 px high (spec 03 §9), with the portal's page sizes (ServerDataGridView).
 */
export function ServerDataGrid<R extends GridValidRowModel>(props: ServerDataGridProps<R>): ReactElement {
  return (
    <Suspense fallback={<GridCodeLoading height={props.height ?? SERVER_GRID_HEIGHT} />}>
      {/* lazy() drops the row type parameter; the props were checked against it above. */}
      <LoadedServerDataGrid {...(props as unknown as ServerDataGridProps<GridValidRowModel>)} />
    </Suspense>
  );
}

/**
 * Where a grid will be while its code loads: a box of the grid's size with a named progress indicator. The
 * Suspense fallback of ServerDataGrid, and of any page's own grid component loaded with `lazy`.
 */
export function GridCodeLoading({ height = SERVER_GRID_HEIGHT }: { height?: number | string }): ReactElement {
  return (
    <Box
      sx={{
        height,
        width: '100%',
        bgcolor: 'background.paper',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <CircularProgress aria-label={GRID_CODE_LOADING} />
    </Box>
  );
}

export type { ServerDataGridProps } from './ServerDataGridView';
