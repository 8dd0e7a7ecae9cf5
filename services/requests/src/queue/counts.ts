import type { DataSource } from 'typeorm';
import { requestFilterSql, type ParsedRequestFilters } from './filters';

/** How many requests match the filters (everyone's: the console's export checks its size with it). */
export async function countMatchingRequests(ds: DataSource, filters: ParsedRequestFilters): Promise<number> {
  const { where, params } = requestFilterSql(filters, { userId: null });
  const [{ total }] = (await ds.query(
    `SELECT count(*)::int AS total FROM requests.requests r WHERE ${where}`,
    params,
  )) as { total: number }[];
  return total;
}
