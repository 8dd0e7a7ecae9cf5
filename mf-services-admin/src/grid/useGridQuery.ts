import { useCallback, useMemo, useState } from 'react';
import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import { DEFAULT_PAGE_SIZE } from '../constants';
import type { GridQuery } from './pageForModel';

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
export function useGridQuery(initialSort: GridSortModel = []): GridQueryControl {
  const [query, setQuery] = useState<GridQuery>(() => ({
    page: 0,
    pageSize: DEFAULT_PAGE_SIZE,
    sortModel: initialSort,
    filterModel: { items: [] },
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
