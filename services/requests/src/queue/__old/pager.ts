import type { DataSource, QueryRunner } from 'typeorm';
import { REQUEST_SORT_FIELDS, type RequestRow, type RequestSortField } from '@portal/contracts';
import { badRequest } from '@portal/server-kit';
import { requestFilterSql, type ParsedRequestFilters } from './filters';
import { REQUEST_ROW_COLUMNS, toRequestRow, type RequestDbRow } from '../rows';

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

/** The keys' SQL and directions, and the id's direction (the last key's) that ends every order. */
export function orderTerms(keys: SortKey[]): {
  terms: { expression: string; descending: boolean }[];
  idDescending: boolean;
} {
  return {
    terms: keys.map((key) => ({ expression: SORT_SQL[key.field], descending: key.descending })),
    idDescending: keys.length > 0 ? keys[keys.length - 1].descending : false,
  };
}

/**
 * ORDER BY for the keys, ending in the id so that pages never overlap or skip rows with equal keys. Nulls
 * go last ascending and first descending (PostgreSQL's own order, which its indexes hold).
 */
export function orderBySql(keys: SortKey[], reverse = false): string {
  const direction = (descending: boolean) => (descending !== reverse ? 'DESC' : 'ASC');
  const { terms, idDescending } = orderTerms(keys);
  return [
    ...terms.map((term) => `${term.expression} ${direction(term.descending)}`),
    `r.id ${direction(idDescending)}`,
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
  keptMatchesLimit: 150_000,
  wait: false,
  plain: false,
};

/** The revision of the requests list (bumped by the triggers of every write that moves a request). */
const REVISION = '(SELECT revision FROM requests.request_list_revision)';
/** A uuid's text and the comma after it (SortedMatches.ids). */
const UUID_STRIDE = 37;

/**
 * The filters whose matches the kept totals count (requests.request_totals: per type, can't locate,
 * status and priority): their total is a sum over a few rows.
 */
function countedByTotals(filters: ParsedRequestFilters, ownerId: string | null): boolean {
  if (ownerId) return false;
  const counted = new Set(['requestTypes', 'statuses', 'cantLocate', 'priority']);
  return Object.entries(filters).every(([name, value]) => value === null || counted.has(name));
}

async function keptTotal(ds: DataSource, filters: ParsedRequestFilters): Promise<number> {
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

/** What pages keep between requests, per database: read at a revision of the requests list. */
interface KeptList {
  revision: string;
  /** The number of matches. */
  total: number;
  /** How many keys or ids it holds: the budget counts these. */
  size: number;
}
/** Every `step`-th key of a walk (and id), from the first. */
interface Checkpoints extends KeptList {
  kind: 'checkpoints';
  step: number;
  keys: (string | null)[][];
}
/** Every match's id in the sort's order, joined by commas (each 36 characters, so the n-th at 37 × n). */
interface SortedMatches extends KeptList {
  kind: 'matches';
  ids: string;
}
type Kept = Checkpoints | SortedMatches;

const MAX_KEPT_LISTS = 128;
/** Keys and ids in all (about 40 bytes each). */
const MAX_KEPT_SIZE = 1_500_000;
/** Lists read at once (the machine's cores serve the pages too). */
const MAX_READS = 2;
/** The longest a request waits for a list it needs (then it reads the plain way). */
const MAX_WAIT_MS = 15_000;

interface KeptStore {
  /** Least recently used first. */
  lists: Map<string, Kept>;
  size: number;
  reading: Map<string, Promise<void>>;
  /** Lists kept once: when one goes out of date, requests read the plain way rather than wait for it. */
  seen: Set<string>;
}
const keptStores = new WeakMap<DataSource, KeptStore>();

function keptStore(ds: DataSource): KeptStore {
  let store = keptStores.get(ds);
  if (!store)
    keptStores.set(ds, (store = { lists: new Map(), size: 0, reading: new Map(), seen: new Set() }));
  return store;
}

function forget(store: KeptStore, key: string) {
  const list = store.lists.get(key);
  if (!list) return;
  store.lists.delete(key);
  store.size -= list.size;
}

function remember(store: KeptStore, key: string, list: Kept) {
  forget(store, key);
  store.lists.set(key, list);
  store.size += list.size;
  if (store.seen.size > 10_000) store.seen.clear();
  store.seen.add(key);
  for (const oldest of store.lists.keys()) {
    if ((store.lists.size <= MAX_KEPT_LISTS && store.size <= MAX_KEPT_SIZE) || oldest === key) break;
    forget(store, oldest);
  }
}

function peek(store: KeptStore, key: string): Kept | undefined {
  const kept = store.lists.get(key);
  if (kept) {
    store.lists.delete(key);
    store.lists.set(key, kept);
  }
  return kept;
}

/** How many lists a database keeps, of each kind (tests). */
export function keptListKinds(ds: DataSource): Record<Kept['kind'], number> {
  const kinds = { checkpoints: 0, matches: 0 };
  for (const list of keptStores.get(ds)?.lists.values() ?? []) kinds[list.kind]++;
  return kinds;
}

/** The lists being read (tests wait for them before the database closes). */
export async function settleKeptLists(ds: DataSource): Promise<void> {
  const store = keptStores.get(ds);
  while (store && store.reading.size > 0) await Promise.all(store.reading.values());
}

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
    const ids = kept.ids.slice(offset * UUID_STRIDE, (offset + take) * UUID_STRIDE - 1);
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
    const { where, params } = requestFilterSql(input.filters, { userId: input.ownerId });
    const bind = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const revision = `${REVISION} = ${bind(kept.revision)}::bigint`;
    const segments = checkpoint > 0 ? fromCheckpoint(walk, kept.keys[checkpoint], bind) : ['TRUE'];
    const limit = `${bind(take)}::int`;
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
    rows = (await ds.query(
      `SELECT ${REQUEST_ROW_COLUMNS} FROM (${ids}) page JOIN requests.requests r ON r.id = page.id
        ORDER BY ${orderBySql(input.sort)}`,
      params,
    )) as RequestDbRow[];
  }
  if (rows.length !== take) return undefined;
  const now = new Date();
  return rows.map((row) => toRequestRow(row, now));
}

/**
 * One page and the total, exact.
 * - Totals: filters of type, can't locate, status and priority only add up the kept totals
 *   (requests.request_totals); other filters count.
 * - Pages: per filter and sort, a list is kept per revision of the requests list: up to 150 000 matches
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
    const store = keptStore(ds);
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
      forget(store, key);
      return undefined;
    };
    const kept = peek(store, key);
    const page = kept && (await fromKept(kept));
    if (page) return page;
    let reading = store.reading.get(key);
    if (!reading && store.reading.size < MAX_READS) {
      const knownTotal = counted ? await keptTotal(ds, input.filters) : undefined;
      reading = readKept(ds, input, options, knownTotal)
        .then(
          (list) => {
            if (list) remember(store, key, list);
          },
          (err: Error) => process.emitWarning(`request pager: a kept list could not be read: ${err.message}`),
        )
        .finally(() => store.reading.delete(key));
      store.reading.set(key, reading);
    }
    // The first time (not when a list went out of date: writes would keep requests waiting), and when the
    // plain way would count or walk far.
    const slow = !counted || offset >= options.checkpointStep;
    if (reading && (options.wait || (slow && !kept && !store.seen.has(key)))) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, MAX_WAIT_MS)))]);
      clearTimeout(timer);
      const fresh = peek(store, key);
      const page = fresh && (await fromKept(fresh));
      if (page) return page;
    }
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
