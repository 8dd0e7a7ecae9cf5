import type { DataSource, QueryRunner } from 'typeorm';
import type { RequestRow } from '@portal/contracts';
import { SqlParameters } from '@portal/db';
import { requestFilterSql, type ParsedRequestFilters } from './filters';
import { countedByTotals, keptTotal, pageFromKeptLists } from './kept-pages';
import { REQUEST_ROW_COLUMNS, toRequestRow, type RequestDbRow } from './rows';
import { orderBySql, type SortKey } from './sort';

/**
 * The request pager: one page of the queue and its total (requestPage), the counts per status, and every
 * match through a cursor (the streamed list and the exports). Its sorts are in sort.ts, what it keeps
 * between requests in kept-pages.ts.
 */

export {
  orderBySql,
  orderTerms,
  PAGER_TEXT,
  parseSort,
  STAFF_DEFAULT_SORT,
  USER_DEFAULT_SORT,
  type SortKey,
} from './sort';
export { keptListKinds, settleKeptLists } from './kept-pages';

export interface PagerInput {
  filters: ParsedRequestFilters;
  /** A plain user's own requests only. */
  ownerId: string | null;
  sort: SortKey[];
  page: number;
  limit: number;
}

/**
 * How a page is read, for tests: the limits are the service's unless given (to reach each way with few
 * rows), and `wait` waits for the kept lists a request starts reading (deterministic tests).
 */
export interface PagerOptions {
  /** Positions between two checkpoints: a page from checkpoints skips fewer index entries than this. */
  checkpointStep: number;
  /** Up to this many matches, a filter's matches are kept sorted (ids); more are read from checkpoints. */
  keptMatchesLimit: number;
  /** Always wait for the kept list (tests); otherwise only when the plain way would be slow. */
  wait: boolean;
  /** Never use kept lists (the plain way: tests compare with it). */
  plain: boolean;
}

const PAGER_DEFAULTS: PagerOptions = {
  checkpointStep: 1000,
  // Up to a tenth of 5 000 000 requests (a status, a common word of the address): sorted ids, a slice
  // per page. More are read from checkpoints, whose walk reads the heap of every entry when the sort's
  // index does not carry the filter's column.
  keptMatchesLimit: 600_000,
  wait: false,
  plain: false,
};

/**
 * One page and the total, exact.
 * - Totals: filters of type, can't locate, status and priority only add up the kept totals
 *   (requests.request_totals); other filters count.
 * - Pages: per filter and sort, a list is kept per revision of the requests list: up to 600 000 matches
 *   their ids in order (a page is a slice, its rows read by id), more the sort's key every 1000th match (a
 *   page starts at the checkpoint before it and skips fewer than 1000 index entries). A list is read in
 *   the background; a request waits for it only the first time and when the plain way would be slow.
 * - The plain way: the page's ids found first (a walk of a sort index that carries the id) and only its
 *   rows read whole; a page past the middle is read from the other end in reverse order.
 */
export async function requestPage(
  ds: DataSource,
  input: PagerInput,
  given: Partial<PagerOptions> = {},
): Promise<{ total: number; docs: RequestRow[] }> {
  const options = { ...PAGER_DEFAULTS, ...given };
  const offset = (input.page - 1) * input.limit;
  const counted = countedByTotals(input.filters, input.ownerId);
  // A user's own requests are few: the plain way.
  if (!options.plain && !input.ownerId) {
    const page = await pageFromKeptLists(ds, input, options, counted);
    if (page) return page;
  }

  const { where, params } = requestFilterSql(input.filters, { userId: input.ownerId });
  const total = counted
    ? await keptTotal(ds, input.filters)
    : (
        (await ds.query(`SELECT count(*)::int AS total FROM requests.requests r WHERE ${where}`, params)) as {
          total: number;
        }[]
      )[0].total;
  if (offset >= total) return { total, docs: [] };
  const fromEnd = offset > total / 2;
  const limit = fromEnd ? Math.min(input.limit, total - offset) : input.limit;
  const skip = fromEnd ? total - offset - limit : offset;
  const order = (await undeliveredTimeInQueue(ds, input.sort, where, params))
    ? undeliveredTimeInQueueOrder(input.sort[0].descending !== fromEnd)
    : orderBySql(input.sort, fromEnd);
  const window = new SqlParameters(params);
  const rows = (await ds.query(
    `SELECT ${REQUEST_ROW_COLUMNS}
       FROM (SELECT r.id FROM requests.requests r WHERE ${where} ORDER BY ${order} LIMIT ${window.bind(limit)} OFFSET ${window.bind(skip)}) page
       JOIN requests.requests r ON r.id = page.id
      ORDER BY ${orderBySql(input.sort)}`,
    window.values,
  )) as RequestDbRow[];
  const now = new Date();
  return { total, docs: rows.map((row) => toRequestRow(row, now)) };
}

/**
 * Time in queue alone, while none of the matches is delivered (the delivered requests' partial index
 * answers that at once): then it is the creation order reversed, which the creation index walks, instead of
 * a sort of every match by an expression of now() (over 5 000 000 requests, past the statement timeout).
 */
async function undeliveredTimeInQueue(
  ds: DataSource,
  sort: PagerInput['sort'],
  where: string,
  params: unknown[],
): Promise<boolean> {
  if (sort.length !== 1 || sort[0].field !== 'timeInQueue') return false;
  const [{ delivered }] = (await ds.query(
    `SELECT EXISTS (SELECT 1 FROM requests.requests r WHERE ${where} AND r.delivered_at IS NOT NULL) AS delivered`,
    params,
  )) as { delivered: boolean }[];
  return !delivered;
}

/** orderBySql of time in queue (the id the same way) for undelivered requests: oldest first when longest first. */
const undeliveredTimeInQueueOrder = (longestFirst: boolean) =>
  longestFirst ? 'r.created_at ASC, r.id DESC' : 'r.created_at DESC, r.id ASC';

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
  const query = new SqlParameters(params);
  const idsClause = input.ids ? ` AND r.id = ANY(${query.bind(input.ids)}::uuid[])` : '';
  const runner: QueryRunner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction('REPEATABLE READ');
    await runner.query(
      `DECLARE request_rows NO SCROLL CURSOR FOR
         SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r WHERE ${where}${idsClause}
         ORDER BY ${orderBySql(input.sort)}`,
      query.values,
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
