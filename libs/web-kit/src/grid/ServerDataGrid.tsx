import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { GridValidRowModel } from '@mui/x-data-grid';
import { SERVER_GRID_HEIGHT } from './gridConstants';
import type { ServerDataGridProps } from './ServerDataGridView';

/** The list's own words while its code loads (a progress indicator needs a name: WCAG 4.1.2). */
export const GRID_CODE_LOADING = 'Loading the list';

/**
 * A component whose code loads when it is first drawn, shown meanwhile as GridCodeLoading: for grids, whose
 * code (x-data-grid, ~450 KB before compression, the largest module of a list screen) should not hold up
 * the page around them. The page's heading, filters and buttons paint first and the grid follows into a
 * box of its final size, so nothing below it moves. Call it once, at module level.
 */
export function lazyGrid<P extends object>(
  load: () => Promise<ComponentType<P>>,
  height?: (props: P) => number | undefined,
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LazyGrid(props: P) {
    return (
      <Suspense fallback={<GridCodeLoading height={height?.(props)} />}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

const LoadedServerDataGrid = lazyGrid<ServerDataGridProps<GridValidRowModel>>(
  async () => (await import('./ServerDataGridView')).ServerDataGridView,
  (props) => props.height,
);

/**
 * A DataGrid paged, sorted and filtered by the server (the admin grids' page-for-model, the request
 * queue's pager), 750 px high (spec 03 §9), with the portal's page sizes (ServerDataGridView), its code
 * loaded when first drawn (lazyGrid).
 */
export function ServerDataGrid<R extends GridValidRowModel>(props: ServerDataGridProps<R>): ReactElement {
  // lazy() drops the row type parameter; the props were checked against it here.
  return <LoadedServerDataGrid {...(props as unknown as ServerDataGridProps<GridValidRowModel>)} />;
}

/**
 * Where a grid will be while its code loads: a box of the grid's size with a named progress indicator. The
 * Suspense fallback of lazyGrid.
 */
export function GridCodeLoading({ height = SERVER_GRID_HEIGHT }: { height?: number }): ReactElement {
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
