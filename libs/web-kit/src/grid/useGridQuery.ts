import { useCallback, useMemo, useState } from 'react';
import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import { type PAGE_SIZES } from '@portal/contracts';

/** Spec 03 §9: the grids' default page size. */
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 20;

/** What a server-paged grid asks for: a page (0-based, as the grid counts), its size, sort and filter. */
export interface GridQuery {
  page: number;
  pageSize: number;
  sortModel: GridSortModel;
  filterModel: GridFilterModel;
}

export interface GridQueryControl {
  query: GridQuery;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  setSortModel: (model: GridSortModel) => void;
  setFilterModel: (model: GridFilterModel) => void;
}

/**
 * The state of a server-paged grid: page, page size (spec 03 §9 default 20), sort and filter. A new
 * sort, filter or page size starts again at the first page.
 */
export function useGridQuery(
  initialSort: GridSortModel = [],
  initialFilter: GridFilterModel = { items: [] },
): GridQueryControl {
  const [query, setQuery] = useState<GridQuery>(() => ({
    page: 0,
    pageSize: DEFAULT_PAGE_SIZE,
    sortModel: initialSort,
    filterModel: initialFilter,
  }));
  const setPage = useCallback((page: number) => setQuery((q) => ({ ...q, page })), []);
  const setPageSize = useCallback((pageSize: number) => setQuery((q) => ({ ...q, pageSize, page: 0 })), []);
  const setSortModel = useCallback(
    (sortModel: GridSortModel) => setQuery((q) => ({ ...q, sortModel, page: 0 })),
    [],
  );
  const setFilterModel = useCallback(
    (filterModel: GridFilterModel) => setQuery((q) => ({ ...q, filterModel, page: 0 })),
    [],
  );
  return useMemo(
    () => ({ query, setPage, setPageSize, setSortModel, setFilterModel }),
    [query, setPage, setPageSize, setSortModel, setFilterModel],
  );
}
