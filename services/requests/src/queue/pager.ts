import type { DataSource, QueryRunner } from 'typeorm';
import { REQUEST_SORT_FIELDS, type RequestRow, type RequestSortField } from '@portal/contracts';
import { badRequest } from '@portal/server-kit';
import { requestFilterSql, type ParsedRequestFilters } from './filters';
import { REQUEST_ROW_COLUMNS, toRequestRow, type RequestDbRow } from './rows';

/** The column (SQL over `r`) each sortable grid field sorts by. */
const SORT_SQL: Record<RequestSortField, string> = {
  created: 'r.created_at',
  priority: 'r.priority',
  status: 'r.status',
  type: 'r.request_type',
  gripReference: 'r.grip_reference',
  user: 'r.user_name',
  address: 'r.address',
  client: 'r.group_name',
  // Longest in queue first when descending: time in queue grows as created_at falls (until delivery).
  timeInQueue: '(coalesce(r.delivered_at, now()) - r.created_at)',
  firstQS: 'r.first_user_name',
  invoice: 'r.report_invoice_number',
  rve: 'r.rve_total',
  reportFee: '(r.number_of_buildings * r.unit_price)',
  numberOfBuildings: 'r.number_of_buildings',
  unitPrice: 'r.unit_price',
};

export type SortKey = { field: RequestSortField; descending: boolean };

export const PAGER_TEXT = {
  badSort:
    'sort_object must be a JSON object of grid fields and directions (1, -1, "asc" or "desc"), e.g. {"created":-1}.',
  unknownSort: (field: string) => `Cannot sort by '${field}'. Sortable: ${REQUEST_SORT_FIELDS.join(', ')}.`,
} as const;

/** Spec 02 §9: the console's default order; spec 03: a user's own list, oldest first. */
export const STAFF_DEFAULT_SORT: SortKey[] = [
  { field: 'priority', descending: true },
  { field: 'created', descending: true },
];
export const USER_DEFAULT_SORT: SortKey[] = [{ field: 'created', descending: false }];

/** Reads `sort_object` ({"priority": -1, "created": -1}, in order of precedence); the default when absent. */
export function parseSort(raw: string | undefined, fallback: SortKey[]): SortKey[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '{}') return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(PAGER_TEXT.badSort);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw badRequest(PAGER_TEXT.badSort);
  const keys: SortKey[] = [];
  for (const [field, direction] of Object.entries(parsed as Record<string, unknown>)) {
    if (!(REQUEST_SORT_FIELDS as readonly string[]).includes(field))
      throw badRequest(PAGER_TEXT.unknownSort(field));
    const descending =
      direction === -1 ||
      direction === '-1' ||
      (typeof direction === 'string' && direction.toLowerCase() === 'desc');
    const ascending =
      direction === 1 ||
      direction === '1' ||
      (typeof direction === 'string' && direction.toLowerCase() === 'asc');
    if (!descending && !ascending) throw badRequest(PAGER_TEXT.badSort);
    keys.push({ field: field as RequestSortField, descending });
  }
  return keys.length > 0 ? keys : fallback;
}

/**
 * ORDER BY for the keys, ending in the id so that pages never overlap or skip rows with equal keys. Nulls
 * go last ascending and first descending (PostgreSQL's own order, which its indexes hold).
 */
export function orderBySql(keys: SortKey[], reverse = false): string {
  const direction = (descending: boolean) => (descending !== reverse ? 'DESC' : 'ASC');
  const last = keys.length > 0 ? keys[keys.length - 1].descending : false;
  return [
    ...keys.map((key) => `${SORT_SQL[key.field]} ${direction(key.descending)}`),
    `r.id ${direction(last)}`,
  ].join(', ');
}

export interface PagerInput {
  filters: ParsedRequestFilters;
  /** A plain user's own requests only. */
  ownerId: string | null;
  sort: SortKey[];
  page: number;
  limit: number;
}

/**
 * One page and the total. The page's ids are found first (a walk of a sort index that carries the id, no
 * row read per skipped entry) and only its rows are read whole. A page past the middle is read from the
 * other end in reverse order, so the deepest page skips as few entries as the first.
 */
export async function requestPage(
  ds: DataSource,
  input: PagerInput,
): Promise<{ total: number; docs: RequestRow[] }> {
  const { where, params } = requestFilterSql(input.filters, { userId: input.ownerId });
  const [{ total }] = (await ds.query(
    `SELECT count(*)::int AS total FROM requests.requests r WHERE ${where}`,
    params,
  )) as {
    total: number;
  }[];
  const offset = (input.page - 1) * input.limit;
  if (offset >= total) return { total, docs: [] };
  const fromEnd = offset > total / 2;
  const limit = fromEnd ? Math.min(input.limit, total - offset) : input.limit;
  const skip = fromEnd ? total - offset - limit : offset;
  const order = orderBySql(input.sort, fromEnd);
  const n = params.length;
  const rows = (await ds.query(
    `SELECT ${REQUEST_ROW_COLUMNS}
       FROM (SELECT r.id FROM requests.requests r WHERE ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}) page
       JOIN requests.requests r ON r.id = page.id
      ORDER BY ${orderBySql(input.sort)}`,
    [...params, limit, skip],
  )) as RequestDbRow[];
  const now = new Date();
  return { total, docs: rows.map((row) => toRequestRow(row, now)) };
}

/** Counts per status for the filters (the status filter itself left out, so every chip keeps its count). */
export async function statusCounts(
  ds: DataSource,
  filters: ParsedRequestFilters,
  ownerId: string | null,
): Promise<{ total: number; counts: Record<string, number> }> {
  const { where, params } = requestFilterSql({ ...filters, statuses: null }, { userId: ownerId });
  const rows = (await ds.query(
    `SELECT r.status, count(*)::int AS n FROM requests.requests r WHERE ${where} GROUP BY r.status`,
    params,
  )) as { status: string; n: number }[];
  const counts = Object.fromEntries(rows.map((row) => [row.status, row.n]));
  return { total: rows.reduce((sum, row) => sum + row.n, 0), counts };
}

/**
 * Every match, in batches from a server-side cursor (one transaction, so the list is one snapshot): the
 * streamed list and the exports read through this, never holding more than a batch.
 */
export async function* requestRowsCursor(
  ds: DataSource,
  input: Omit<PagerInput, 'page' | 'limit'> & { batch?: number; ids?: string[] },
): AsyncGenerator<RequestRow[]> {
  const { where, params } = requestFilterSql(input.filters, { userId: input.ownerId });
  const idsClause = input.ids ? ` AND r.id = ANY($${params.length + 1}::uuid[])` : '';
  const runner: QueryRunner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction('REPEATABLE READ');
    await runner.query(
      `DECLARE request_rows NO SCROLL CURSOR FOR
         SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r WHERE ${where}${idsClause}
         ORDER BY ${orderBySql(input.sort)}`,
      input.ids ? [...params, input.ids] : params,
    );
    for (;;) {
      const rows = (await runner.query(`FETCH ${input.batch ?? 1000} FROM request_rows`)) as RequestDbRow[];
      if (rows.length === 0) break;
      const now = new Date();
      yield rows.map((row) => toRequestRow(row, now));
    }
    await runner.query('CLOSE request_rows');
    await runner.commitTransaction();
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}
