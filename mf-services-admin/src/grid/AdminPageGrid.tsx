import type { GridValidRowModel } from '@mui/x-data-grid';
import { ServerDataGrid, type ServerDataGridProps } from '@portal/web-kit/grid';

/** What a page-for-model query hook gives (RTK Query's result, the part the grid reads). */
export interface PageQueryResult<Row> {
  data?: { docs: Row[]; total: number };
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * A server-paged grid of users or groups (spec 03 "Services admin screen", the users and groups grids): the
 * rows and their count from a page-for-model answer, the row's `_id` as its id, the page's loading and
 * failure (with a retry).
 */
export function AdminPageGrid<Row extends GridValidRowModel & { _id: string }>({
  page,
  ...props
}: Omit<ServerDataGridProps<Row>, 'rows' | 'rowCount' | 'getRowId' | 'loading' | 'loadFailed' | 'onRetry'> & {
  page: PageQueryResult<Row>;
}) {
  return (
    <ServerDataGrid<Row>
      {...props}
      rows={page.data?.docs ?? []}
      rowCount={page.data?.total ?? 0}
      getRowId={(row) => row._id}
      loading={page.isFetching}
      loadFailed={page.isError}
      onRetry={() => void page.refetch()}
    />
  );
}
