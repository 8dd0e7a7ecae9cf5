import type { DataSource } from 'typeorm';
import type { RequestRow, RequestSortField } from '@portal/contracts';
import { joinedUuidSlice, KeptLists, SqlParameters, type KeptList } from '@portal/db';
import { requestFilterSql, type ParsedRequestFilters } from './filters';
import type { PagerInput, PagerOptions } from './pager';
import { REQUEST_ROW_COLUMNS, toRequestRow, type RequestDbRow } from './rows';
import { orderBySql, orderTerms, type SortKey } from './sort';

/**
 * What the request pager keeps between requests: the totals the triggers count (requests.request_totals)
 * and, per filter and sort, a list read at a revision of the requests list (KeptLists, @portal/db): the
 * matches' ids in order, or a walk's checkpoints.
 */

/** The revision of the requests list (bumped by the triggers of every write that moves a request). */
const REVISION = '(SELECT revision FROM requests.request_list_revision)';

/**
 * The filters whose matches the kept totals count (requests.request_totals: per type, can't locate,
 * status and priority): their total is a sum over a few rows.
 */
export function countedByTotals(filters: ParsedRequestFilters, ownerId: string | null): boolean {
  if (ownerId) return false;
  const counted = new Set(['requestTypes', 'statuses', 'cantLocate', 'priority']);
  return Object.entries(filters).every(([name, value]) => value === null || counted.has(name));
}

export async function keptTotal(ds: DataSource, filters: ParsedRequestFilters): Promise<number> {
  // The totals' columns have the requests' names: the same WHERE over `r`.
  const { where, params } = requestFilterSql(filters, { userId: null });
  const [{ total }] = (await ds.query(
    `SELECT coalesce(sum(r.requests), 0)::int AS total FROM requests.request_totals r WHERE ${where}`,
    params,
  )) as { total: number }[];
  return total;
}

/** A column of a checkpointed walk, in the walk's order. */
interface WalkKey {
  expression: string;
  type: string;
  descending: boolean;
  nullable: boolean;
}

/** The sort's key columns: their SQL, type, and whether they can be NULL. */
const SORT_KEY: Partial<Record<RequestSortField, Omit<WalkKey, 'descending'>>> = {
  created: { expression: 'r.created_at', type: 'timestamptz', nullable: false },
  priority: { expression: 'r.priority', type: 'boolean', nullable: false },
  status: { expression: 'r.status', type: 'text', nullable: false },
  type: { expression: 'r.request_type', type: 'text', nullable: false },
  gripReference: { expression: 'r.grip_reference', type: 'text', nullable: false },
  user: { expression: 'r.user_name', type: 'text', nullable: false },
  address: { expression: 'r.address', type: 'text', nullable: false },
  client: { expression: 'r.group_name', type: 'text', nullable: true },
  firstQS: { expression: 'r.first_user_name', type: 'text', nullable: true },
  invoice: { expression: 'r.report_invoice_number', type: 'text', nullable: true },
  rve: { expression: 'r.rve_total', type: 'numeric', nullable: true },
  reportFee: { expression: '(r.number_of_buildings * r.unit_price)', type: 'numeric', nullable: true },
  numberOfBuildings: { expression: 'r.number_of_buildings', type: 'integer', nullable: true },
  unitPrice: { expression: 'r.unit_price', type: 'numeric', nullable: true },
};

/**
 * A sort as a walk of an index, when checkpoints can start its pages: keys that cannot be NULL all one
 * way (a row comparison), or one key that can (its NULLs are a segment of their own), or time in queue
 * (created_at the other way, the id as asked: exact while none of the matches is delivered, which the
 * reader checks). The id ends every walk, the way the last key runs (orderBySql).
 */
interface Walk {
  keys: WalkKey[];
  idDescending: boolean;
  /** Time in queue: checkpoints only while none of the matches is delivered. */
  undeliveredOnly: boolean;
}

function walkOf(sort: SortKey[]): Walk | undefined {
  if (sort.length === 1 && sort[0].field === 'timeInQueue') {
    const { descending } = sort[0];
    return {
      keys: [{ expression: 'r.created_at', type: 'timestamptz', nullable: false, descending: !descending }],
      idDescending: descending,
      undeliveredOnly: true,
    };
  }
  const keys: WalkKey[] = [];
  for (const { field, descending } of sort) {
    const key = SORT_KEY[field];
    if (!key) return undefined;
    keys.push({ ...key, descending });
  }
  const idDescending = keys[keys.length - 1].descending;
  if (keys.some((key) => key.descending !== idDescending)) return undefined;
  if (keys.some((key) => key.nullable) && keys.length > 1) return undefined;
  return { keys, idDescending, undeliveredOnly: false };
}

const dir = (descending: boolean) => (descending ? 'DESC' : 'ASC');
const walkOrder = (walk: Walk, prefix = '') =>
  [
    ...walk.keys.map((key, i) => `${prefix ? `${prefix}k${i}` : key.expression} ${dir(key.descending)}`),
    `${prefix ? `${prefix}id` : 'r.id'} ${dir(walk.idDescending)}`,
  ].join(', ');

/**
 * The conditions of the segments a walk is read in from a checkpoint (`from`: its keys and id as text):
 * one row comparison, or for a key that can be NULL its non-NULL rows and its NULL rows, in walk order.
 */
function fromCheckpoint(walk: Walk, from: (string | null)[], bind: (value: unknown) => string): string[] {
  const id = `${bind(from[from.length - 1])}::uuid`;
  const [first] = walk.keys;
  const at = (i: number) => `${bind(from[i])}::${walk.keys[i].type}`;
  if (walk.undeliveredOnly) {
    const x = at(0);
    const [ge, gt] = first.descending ? ['<=', '<'] : ['>=', '>'];
    return [
      `${first.expression} ${ge} ${x} AND (${first.expression} ${gt} ${x} OR r.id ${walk.idDescending ? '<=' : '>='} ${id})`,
    ];
  }
  const ge = walk.idDescending ? '<=' : '>=';
  if (!first.nullable) {
    const keys = walk.keys.map((key) => key.expression).join(', ');
    return [`(${keys}, r.id) ${ge} (${walk.keys.map((_, i) => at(i)).join(', ')}, ${id})`];
  }
  // NULLs last ascending, first descending (PostgreSQL's order, which the index holds).
  const k = first.expression;
  if (from[0] === null) {
    const nulls = `${k} IS NULL AND r.id ${ge} ${id}`;
    return first.descending ? [nulls, `${k} IS NOT NULL`] : [nulls];
  }
  const values = `(${k}, r.id) ${ge} (${at(0)}, ${id})`;
  return first.descending ? [values] : [values, `${k} IS NULL`];
}

/** Every `step`-th key of a walk (and id), from the first. */
interface Checkpoints extends KeptList {
  kind: 'checkpoints';
  step: number;
  keys: (string | null)[][];
}
/** Every match's id in the sort's order, joined by commas (joinedUuidSlice). */
interface SortedMatches extends KeptList {
  kind: 'matches';
  ids: string;
}
type Kept = Checkpoints | SortedMatches;

/** The lists pages keep between requests, per database: read at a revision of the requests list. */
const keptLists = new KeptLists<Kept>({
  owner: 'request pager',
  maxLists: 128,
  /** Keys and ids in all (about 40 bytes each). */
  maxSize: 1_500_000,
  /** Lists read at once (the machine's cores serve the pages too). */
  maxReads: 2,
  /** Lists kept once: when one goes out of date, requests read the plain way rather than wait for it. */
  keptKeysLimit: 10_000,
});
/** The longest a request waits for a list it needs (then it reads the plain way). */
const MAX_WAIT_MS = 15_000;

/** How many lists a database keeps, of each kind (tests). */
export function keptListKinds(ds: DataSource): Record<Kept['kind'], number> {
  const kinds = { checkpoints: 0, matches: 0 };
  for (const list of keptLists.lists(ds)) kinds[list.kind]++;
  return kinds;
}

/** The lists being read (tests wait for them before the database closes). */
export const settleKeptLists = (ds: DataSource): Promise<void> => keptLists.settle(ds);

/** A parameter as text, for requests.sort_checkpoints (cast back in its query). */
function asText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return `{${value.map((item) => `"${String(item).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  return String(value);
}

/**
 * Reads a kept list: the matches sorted (up to the limit), or, when there are more (the kept totals may
 * say so at once), the walk's checkpoints. Undefined when neither serves (too many matches for a sort
 * without a walk, or delivered requests for time in queue).
 */
async function readKept(
  ds: DataSource,
  input: PagerInput,
  options: PagerOptions,
  knownTotal: number | undefined,
): Promise<Kept | undefined> {
  // A list is read in the background, once per revision: at 5 000 000 requests a broad filter's matches
  // or a walk take longer than a page's statement timeout (10 s) on a busy machine, and a page never read
  // from a list falls back to counting and skipping them on every request.
  return ds.transaction(async (manager) => {
    await manager.query(`SET LOCAL statement_timeout = '${KEPT_READ_TIMEOUT}'`);
    return readKeptIn(manager, input, options, knownTotal);
  });
}

/** The longest a kept list's read may take (then the pages are read the plain way). */
const KEPT_READ_TIMEOUT = '120s';

async function readKeptIn(
  ds: Pick<DataSource, 'query'>,
  input: PagerInput,
  options: PagerOptions,
  knownTotal: number | undefined,
): Promise<Kept | undefined> {
  const walk = walkOf(input.sort);
  const delivered = (where: string) =>
    `(SELECT EXISTS (SELECT 1 FROM requests.requests r WHERE ${where} AND r.delivered_at IS NOT NULL))`;
  if (knownTotal === undefined || knownTotal <= options.keptMatchesLimit) {
    const { where, params } = requestFilterSql(input.filters, { userId: input.ownerId }, 2);
    const { terms, idDescending } = orderTerms(input.sort);
    const [row] = (await ds.query(
      `WITH matches AS MATERIALIZED (
         SELECT r.id, r.delivered_at IS NOT NULL AS delivered, ${terms.map(({ expression }, i) => `${expression} AS k${i}`).join(', ')}
         FROM requests.requests r WHERE ${where} LIMIT $1)
       SELECT ${REVISION}::text AS revision, (SELECT count(*)::int FROM matches) AS total,
              (SELECT coalesce(bool_or(delivered), false) FROM matches) AS delivered,
              array_to_string(ARRAY(SELECT id FROM matches
                                    ORDER BY ${terms.map(({ descending }, i) => `k${i} ${dir(descending)}`).join(', ')}, id ${dir(idDescending)}), ',') AS ids`,
      [options.keptMatchesLimit + 1, ...params],
    )) as { revision: string; total: number; delivered: boolean; ids: string }[];
    if (row.total <= options.keptMatchesLimit) {
      // Time in queue changes with the clock between a delivered request and the others.
      if (input.sort.some(({ field }) => field === 'timeInQueue') && row.delivered) return undefined;
      return { kind: 'matches', revision: row.revision, total: row.total, ids: row.ids, size: row.total };
    }
  }
  if (!walk) return undefined;
  const textParams: unknown[] = [];
  const { where: keyWhere, params: keyParams } = requestFilterSql(
    input.filters,
    { userId: input.ownerId },
    1,
    (n) => `($1)[${n}]`,
  );
  textParams.push(...keyParams.map(asText));
  const keysQuery = `SELECT ARRAY[${walk.keys.map(({ expression }) => `${expression}::text`).join(', ')}, r.id::text]
    FROM requests.requests r WHERE ${keyWhere} ORDER BY ${walkOrder(walk)}`;
  const { where, params } = requestFilterSql(input.filters, { userId: input.ownerId }, 4);
  const [row] = (await ds.query(
    `SELECT ${REVISION}::text AS revision, c.total, c.checkpoints AS keys,
            ${walk.undeliveredOnly ? delivered(where) : 'false'} AS delivered
     FROM requests.sort_checkpoints($1, $2, $3::text[]) c`,
    [keysQuery, options.checkpointStep, textParams, ...(walk.undeliveredOnly ? params : [])],
  )) as { revision: string; total: number; keys: (string | null)[][]; delivered: boolean }[];
  if (row.delivered) return undefined;
  return {
    kind: 'checkpoints',
    revision: row.revision,
    total: row.total,
    step: options.checkpointStep,
    keys: row.keys,
    size: row.keys.length,
  };
}

/**
 * A page from a kept list, its rows read in a statement that checks the list's revision (so a page never
 * mixes a list with rows that have moved since). Undefined when the revision has moved on.
 */
async function pageFromKept(
  ds: DataSource,
  input: PagerInput,
  kept: Kept,
  offset: number,
  take: number,
): Promise<RequestRow[] | undefined> {
  let rows: RequestDbRow[];
  if (kept.kind === 'matches') {
    const ids = joinedUuidSlice(kept.ids, offset, take);
    rows = (await ds.query(
      `SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r
        WHERE r.id = ANY($1::uuid[]) AND ${REVISION} = $2::bigint
        ORDER BY ${orderBySql(input.sort)}`,
      [`{${ids}}`, kept.revision],
    )) as RequestDbRow[];
  } else {
    const walk = walkOf(input.sort)!;
    const checkpoint = Math.floor(offset / kept.step);
    const skip = offset - checkpoint * kept.step;
    const filtered = requestFilterSql(input.filters, { userId: input.ownerId });
    const { where } = filtered;
    const query = new SqlParameters(filtered.params);
    const bind = (value: unknown) => query.bind(value);
    const revision = `${REVISION} = ${bind(kept.revision)}::bigint`;
    const segments = checkpoint > 0 ? fromCheckpoint(walk, kept.keys[checkpoint], bind) : ['TRUE'];
    const limit = `${bind(take)}::int`;
    let statement: string;
    if (segments.length === 1 && skip === 0) {
      // A page that starts at a checkpoint (every page of 1 000 rows, the step being 1 000) reads its rows
      // straight from the walk, in its order, each row's heap tuple as the index reaches it. The two-step
      // read below finds the ids first, then looks each row up again by its primary key and sorts them:
      // for a 1 000-row page 5 011 buffers and 10–15 ms against about 1 240 buffers and 2–3 ms here
      // (EXPLAIN ANALYZE at 1 000 000 requests, a loaded machine). With entries to skip the two-step read
      // stays: a skipped entry then costs no heap tuple (an OFFSET over whole rows reads and projects each).
      statement = `SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r
                    WHERE ${where} AND ${segments[0]} AND ${revision}
                    ORDER BY ${walkOrder(walk)} LIMIT ${limit}`;
    } else {
      const skipped = `${bind(skip)}::int`;
      let ids: string;
      if (segments.length === 1) {
        ids = `SELECT r.id FROM requests.requests r WHERE ${where} AND ${segments[0]} AND ${revision}
               ORDER BY ${walkOrder(walk)} LIMIT ${limit} OFFSET ${skipped}`;
      } else {
        // A key that can be NULL: its values and its NULLs, each a range of the index, then merged.
        const keys = walk.keys.map((key, i) => `${key.expression} AS k${i}`).join(', ');
        const parts = segments.map(
          (
            segment,
          ) => `(SELECT r.id, ${keys} FROM requests.requests r WHERE ${where} AND ${segment} AND ${revision}
                         ORDER BY ${walkOrder(walk)} LIMIT ${limit} + ${skipped})`,
        );
        ids = `SELECT s.id FROM (${parts.join(' UNION ALL ')}) s
               ORDER BY ${walkOrder(walk, 's.')} LIMIT ${limit} OFFSET ${skipped}`;
      }
      statement = `SELECT ${REQUEST_ROW_COLUMNS} FROM (${ids}) page JOIN requests.requests r ON r.id = page.id
                    ORDER BY ${orderBySql(input.sort)}`;
    }
    rows = (await ds.query(statement, query.values)) as RequestDbRow[];
  }
  if (rows.length !== take) return undefined;
  const now = new Date();
  return rows.map((row) => toRequestRow(row, now));
}

/**
 * A page from the list kept for its filters and sort, when there is one of the current revision. Without
 * one, the list is read in the background (or its read joined); the request waits for it the first time
 * and when the plain way would be slow (`counted`: the plain way's total is a sum of kept totals).
 * Undefined: the caller reads the page the plain way.
 */
export async function pageFromKeptLists(
  ds: DataSource,
  input: PagerInput,
  options: PagerOptions,
  counted: boolean,
): Promise<{ total: number; docs: RequestRow[] } | undefined> {
  const offset = (input.page - 1) * input.limit;
  const { where, params } = requestFilterSql(input.filters, { userId: null });
  const key = JSON.stringify([
    where,
    params,
    orderBySql(input.sort),
    options.checkpointStep,
    options.keptMatchesLimit,
  ]);
  const fromKept = async (kept: Kept) => {
    const take = Math.min(input.limit, kept.total - offset);
    if (take <= 0) return undefined;
    const docs = await pageFromKept(ds, input, kept, offset, take);
    if (docs) return { total: kept.total, docs };
    keptLists.forget(ds, key);
    return undefined;
  };
  const kept = keptLists.peek(ds, key);
  const page = kept && (await fromKept(kept));
  if (page) return page;
  const reading = keptLists.read(ds, key, async () =>
    readKept(ds, input, options, counted ? await keptTotal(ds, input.filters) : undefined),
  );
  // The first time (not when a list went out of date: writes would keep requests waiting), and when the
  // plain way would count or walk far.
  const slow = !counted || offset >= options.checkpointStep;
  if (reading && (options.wait || (slow && !kept && !keptLists.keptBefore(ds, key)))) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, MAX_WAIT_MS)))]);
    clearTimeout(timer);
    const fresh = keptLists.peek(ds, key);
    const page = fresh && (await fromKept(fresh));
    if (page) return page;
  }
  return undefined;
}
