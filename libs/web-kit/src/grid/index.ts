// Server-paged MUI data grids (a subpath of its own, @portal/web-kit/grid: the grid library stays out of
// the pages that have no grid, like the login page).
export { ServerDataGrid, lazyGrid, GRID_CODE_LOADING, type ServerDataGridProps } from './ServerDataGrid';
export { SERVER_GRID_HEIGHT, GRID_LOADING_ERROR } from './gridConstants';
export { useGridQuery, DEFAULT_PAGE_SIZE, type GridQuery, type GridQueryControl } from './useGridQuery';
