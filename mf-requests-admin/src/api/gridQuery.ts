import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import type { GridQuery } from '@portal/web-kit/grid';
import type { PagerParams } from './requestsApi';

/** The grid's column → the pager's filter name (spec 02 §7.2, spec 03 §7). */
export const FILTER_NAME_OF: Record<string, string> = {
  type: 'request_type',
  gripReference: 'grip_reference',
  status: 'status',
  address: 'address',
  client: 'client',
  clientReference: 'client_reference',
  email: 'email',
  firstQS: 'firstUser',
  invoice: 'invoiceNumber',
  cantlocate: 'cantlocate',
  disputed: 'reportDisputed',
  downloaded: 'downloaded',
  priority: 'priority',
};

/** The grid's sort model as the pager's sort_object ({"created": -1}, in order). */
export function sortObject(model: GridSortModel): Record<string, 1 | -1> | undefined {
  if (model.length === 0) return undefined;
  return Object.fromEntries(model.map((item) => [item.field, item.sort === 'desc' ? -1 : 1]));
}

/** The grid's own column filters as pager filters (the value of each filtered column). */
export function columnFilters(model: GridFilterModel): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const item of model.items) {
    const name = FILTER_NAME_OF[item.field];
    if (!name || item.value === undefined || item.value === null || String(item.value).trim() === '')
      continue;
    filters[name] = String(item.value).trim();
  }
  return filters;
}

/** A grid's state as the pager's parameters (the grid counts pages from 0, the service from 1). */
export const pagerParams = (query: GridQuery, filters: Record<string, string>): PagerParams => ({
  page: query.page + 1,
  limit: query.pageSize,
  sort: sortObject(query.sortModel),
  filters: { ...columnFilters(query.filterModel), ...filters },
});
