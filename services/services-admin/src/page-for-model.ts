import type { DataSource, EntityManager } from 'typeorm';
import {
  ADMIN_MODELS,
  type AdminUser,
  FILTER_OPERATORS,
  type FilterOperator,
  type GroupsPage,
  type UsersPage,
} from '@portal/contracts';
import { UserTotalsEntity } from '@portal/db';
import { badRequest } from '@portal/server-kit';
import { escapeLike, Parameters } from './sql';
import { groupsOf, USER_PAGE_COLUMNS, usersOf, type RowSource, type Rows } from './views';

/**
 * GET /api/v1.0/services/page-for-model (spec 03 §7): one page of the users or groups grid, filtered and
 * sorted by the server. Field names never reach SQL: each known field maps to a fixed expression in the
 * tables below, and every value is a bound parameter.
 */

type ModelName = (typeof ADMIN_MODELS)[number];
type FieldKind = 'text' | 'boolean' | 'number' | 'date';

interface Field {
  kind: FieldKind;
  /** What the field is compared with. */
  column: string;
  /** What it sorts by: text folded to lower case (the database collates bytewise), matching an index. */
  sortBy: string;
  /** Text folded to lower case, what equality filters compare, when it is not `sortBy`. */
  folded?: string;
  /** Further sort expressions, in the same direction (users' groupName: the group's id, the user's name). */
  thenBy?: string[];
  /** Sorting needs the user's group joined (users' groupName). */
  sortJoinsGroup?: boolean;
  /** Unique values: the sort needs no tie-breaker. */
  unique?: boolean;
  /** Turns a condition on `column` into one on the model's own rows (users' groupName: a sub-select). */
  scope?: (condition: string) => string;
  /** What 'isEmpty' means when it is not "the text is empty" (a user without a group). */
  emptyWhen?: string;
  /** The column of the kept user totals that counts the users with this flag set. */
  tally?: string;
  /**
   * The type of `sortBy` when an index walks it (with the id after it unless unique) and carries every
   * column of a page: such a sort is read from checkpoints (see pageFromCheckpoints).
   */
  sortType?: 'text' | 'timestamptz';
}

interface Model {
  from: string;
  alias: string;
  /** Joined only when a sort needs it; filters use `scope` instead, so counting never joins. */
  groupJoin?: string;
  fields: Record<string, Field>;
  defaultSort: SortKey[];
  /** Whether the kept user totals (per group, in all and per flag) count this model's rows. */
  keptTotals?: boolean;
  /** Whether identity.user_list_revision counts this model's changes (pages from checkpoints). */
  revisioned?: boolean;
  /** What a page shows of a row, when its reader takes rows rather than ids (RowSource.rows). */
  pageColumns?: string;
}

const text = (column: string, sortBy = `lower(${column})`): Field => ({ kind: 'text', column, sortBy });
const flag = (column: string, tally?: string): Field => ({ kind: 'boolean', column, sortBy: column, tally });

const MODELS: Record<ModelName, Model> = {
  users: {
    from: 'identity.users u',
    alias: 'u',
    groupJoin: `LEFT JOIN (
        SELECT g.id, row_number() OVER (ORDER BY lower(g.name), g.id) AS position FROM identity.groups g
      ) gp ON gp.id = u.group_id`,
    keptTotals: true,
    revisioned: true,
    pageColumns: USER_PAGE_COLUMNS,
    fields: {
      name: { ...text('u.name'), sortType: 'text' },
      // Stored lower-case (a check constraint says so): compared and sorted as is.
      email: { ...text('u.email', 'u.email'), unique: true, sortType: 'text' },
      groupName: {
        // Sorted by the group's place in name order (then id, so namesakes do not mix): the order of
        // pageByGroupName, so that both ways of reading a page agree, with a number to compare per user
        // instead of the group's name (a third of the time of sorting 2 500 matches).
        ...text('g.name', 'gp.position'),
        folded: 'lower(g.name)',
        thenBy: ['lower(u.name)'],
        sortJoinsGroup: true,
        scope: (condition) => `u.group_id IN (SELECT g.id FROM identity.groups g WHERE ${condition})`,
        emptyWhen: 'u.group_id IS NULL',
      },
      active: flag('u.active', 'active'),
      admin: flag('u.is_admin', 'is_admin'),
      ratesEditor: flag('u.rates_editor', 'rates_editor'),
      saviOperator: flag('u.savi_operator', 'savi_operator'),
      saviQC: flag('u.savi_qc', 'savi_qc'),
      claimsUser: flag('u.claims_user', 'claims_user'),
      createdAt: { kind: 'date', column: 'u.created_at', sortBy: 'u.created_at', sortType: 'timestamptz' },
    },
    defaultSort: [{ field: 'name', descending: false }],
  },
  groups: {
    from: 'identity.groups g',
    alias: 'g',
    fields: {
      name: text('g.name'),
      code: text('g.code'),
      active: flag('g.active'),
      includeVAT: flag('g.include_vat'),
      includeProfessionalFee: flag('g.include_professional_fee'),
      professionalFeePercentage: {
        kind: 'number',
        column: 'g.professional_fee_percentage',
        sortBy: 'g.professional_fee_percentage',
      },
      extraField: text('g.extra_field'),
      reportNameFormat: text('g.report_name_format'),
    },
    defaultSort: [{ field: 'name', descending: false }],
  },
};

/** Which operators make sense for which kind of field (those of the MUI data grid's column types). */
const OPERATORS: Record<FieldKind, readonly FilterOperator[]> = {
  text: ['contains', 'equals', 'startsWith', 'endsWith', 'isEmpty', 'isNotEmpty', 'is', 'not', '=', '!='],
  boolean: ['is', 'not', 'equals', '=', '!='],
  number: ['=', '!=', '>', '>=', '<', '<=', 'equals', 'is', 'not'],
  date: ['is', 'not', 'equals', '=', '!=', '>', '>=', '<', '<='],
};

const MAX_PAGE_SIZE = 1000;
const MAX_SORT_KEYS = 3;
const RESERVED_PARAMETERS = new Set(['modelName', 'pageNumber', 'pageSize', 'sort']);
/** Day boundaries of date filters are South African days (spec 03 §9: SAST). */
const TIME_ZONE = 'Africa/Johannesburg';

const PAGE_TEXT = {
  pageNumber: 'pageNumber must be a positive integer',
  pageSize: `pageSize must be a positive integer no greater than ${MAX_PAGE_SIZE}`,
  modelName: `modelName must be one of ${ADMIN_MODELS.join(', ')}`,
} as const;

interface SortKey {
  field: string;
  descending: boolean;
}

interface Filter {
  field: string;
  operator: FilterOperator;
  value: unknown;
}

export interface PageRequest {
  model: ModelName;
  offset: number;
  limit: number;
  filters: Filter[];
  sort: SortKey[];
}

const isModelName = (value: unknown): value is ModelName => ADMIN_MODELS.includes(value as ModelName);

function positiveInteger(raw: string | undefined, max: number): number | undefined {
  if (raw === undefined || !/^\d{1,12}$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return value >= 1 && value <= max ? value : undefined;
}

function parseJson(raw: string, what: string, shape: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`${what} is not valid JSON: expected ${shape}.`);
  }
}

function parseSort(raw: string | undefined, model: ModelName): SortKey[] {
  const shape = '[["field","asc|desc"]]';
  if (raw === undefined || raw.trim() === '') return MODELS[model].defaultSort;
  let keys = parseJson(raw, 'sort', shape);
  if (!Array.isArray(keys)) throw badRequest(`sort must be a JSON list: ${shape}.`);
  // A single pair, ["name","asc"], is read as a list of one.
  if (typeof keys[0] === 'string') keys = [keys];
  const list = keys as unknown[];
  if (list.length === 0) return MODELS[model].defaultSort;
  if (list.length > MAX_SORT_KEYS) throw badRequest(`sort takes at most ${MAX_SORT_KEYS} fields.`);
  return list.map((key) => {
    if (!Array.isArray(key) || typeof key[0] !== 'string')
      throw badRequest(`sort must be a JSON list: ${shape}.`);
    const [field, direction = 'asc'] = key as [string, unknown];
    if (!Object.hasOwn(MODELS[model].fields, field)) {
      throw badRequest(
        `Cannot sort ${model} by '${field}'. Fields: ${Object.keys(MODELS[model].fields).join(', ')}.`,
      );
    }
    if (typeof direction !== 'string' || !['asc', 'desc'].includes(direction.toLowerCase())) {
      throw badRequest(`The sort direction of '${field}' must be asc or desc.`);
    }
    return { field, descending: direction.toLowerCase() === 'desc' };
  });
}

function parseFilter(field: string, raw: string, model: ModelName): Filter {
  const spec = MODELS[model].fields;
  if (!Object.hasOwn(spec, field)) {
    throw badRequest(
      `Unknown filter field '${field}' for ${model}. Fields: ${Object.keys(spec).join(', ')}.`,
    );
  }
  const shape = '{"compareBy":"operator","compareTo":"value"}';
  const filter = parseJson(raw, `The filter of '${field}'`, shape);
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw badRequest(`The filter of '${field}' must be a JSON object: ${shape}.`);
  }
  const { compareBy, compareTo } = filter as { compareBy?: unknown; compareTo?: unknown };
  if (!FILTER_OPERATORS.includes(compareBy as FilterOperator)) {
    throw badRequest(
      `Unknown operator '${String(compareBy)}' in the filter of '${field}'. Operators: ${FILTER_OPERATORS.join(', ')}.`,
    );
  }
  const operator = compareBy as FilterOperator;
  const kind = spec[field].kind;
  if (!OPERATORS[kind].includes(operator)) {
    throw badRequest(
      `The operator '${operator}' does not apply to '${field}'. Use one of: ${OPERATORS[kind].join(', ')}.`,
    );
  }
  return { field, operator, value: compareTo };
}

/** Reads and checks the query; every problem is a 400 that says what is wrong. */
export function parsePageQuery(query: Record<string, string | undefined>): PageRequest {
  const { modelName, pageNumber, pageSize, sort } = query;
  if (!isModelName(modelName)) throw badRequest(PAGE_TEXT.modelName);
  const page = positiveInteger(pageNumber, 1_000_000_000);
  if (page === undefined) throw badRequest(PAGE_TEXT.pageNumber);
  const limit = positiveInteger(pageSize, MAX_PAGE_SIZE);
  if (limit === undefined) throw badRequest(PAGE_TEXT.pageSize);
  const filters = Object.entries(query)
    .filter(([name, raw]) => !RESERVED_PARAMETERS.has(name) && raw !== undefined)
    .map(([name, raw]) => parseFilter(name, raw!, modelName));
  return { model: modelName, offset: (page - 1) * limit, limit, filters, sort: parseSort(sort, modelName) };
}

/** A filter value the grid has not filled in yet: the filter is not applied (as the grid does locally). */
const isBlank = (value: unknown) => value === undefined || value === null || value === '';

function textCondition(
  fieldName: string,
  field: Field,
  operator: FilterOperator,
  value: unknown,
  params: Parameters,
) {
  if (operator === 'isEmpty' || operator === 'isNotEmpty') {
    const empty = field.emptyWhen ?? `${field.column} = ''`;
    return { condition: operator === 'isEmpty' ? empty : `NOT (${empty})`, scoped: !field.emptyWhen };
  }
  if (isBlank(value)) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw badRequest(`The filter of '${fieldName}' needs text.`);
  }
  const text = String(value);
  const like = (pattern: string) => `${field.column} ILIKE ${params.bind(pattern)}`;
  switch (operator) {
    case 'contains':
      return { condition: like(`%${escapeLike(text)}%`), scoped: true };
    case 'startsWith':
      return { condition: like(`${escapeLike(text)}%`), scoped: true };
    case 'endsWith':
      return { condition: like(`%${escapeLike(text)}`), scoped: true };
    case 'not':
    case '!=':
      return { condition: `${field.folded ?? field.sortBy} <> lower(${params.bind(text)})`, scoped: true };
    default:
      return { condition: `${field.folded ?? field.sortBy} = lower(${params.bind(text)})`, scoped: true };
  }
}

function booleanValue(fieldName: string, value: unknown): boolean | undefined {
  if (isBlank(value) || value === 'any') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badRequest(`The filter of '${fieldName}' needs true or false.`);
}

const COMPARISON: Partial<Record<FilterOperator, string>> = {
  '=': '=',
  equals: '=',
  is: '=',
  '!=': '<>',
  not: '<>',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

function dateCondition(
  fieldName: string,
  column: string,
  operator: FilterOperator,
  value: unknown,
  params: Parameters,
) {
  if (isBlank(value)) return undefined;
  const comparison = COMPARISON[operator]!;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) {
    // A calendar day: from its first instant (inclusive) to the next day's (exclusive), in SAST.
    const day = params.bind(value);
    const start = `(${day}::date::timestamp AT TIME ZONE '${TIME_ZONE}')`;
    const end = `((${day}::date + 1)::timestamp AT TIME ZONE '${TIME_ZONE}')`;
    switch (comparison) {
      case '=':
        return `(${column} >= ${start} AND ${column} < ${end})`;
      case '<>':
        return `(${column} < ${start} OR ${column} >= ${end})`;
      case '>':
        return `${column} >= ${end}`;
      case '>=':
        return `${column} >= ${start}`;
      case '<':
        return `${column} < ${start}`;
      default:
        return `${column} < ${end}`;
    }
  }
  const instant = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(instant.getTime())) {
    throw badRequest(`The filter of '${fieldName}' needs a date (YYYY-MM-DD) or a date and time (ISO 8601).`);
  }
  return `${column} ${comparison} ${params.bind(instant.toISOString())}::timestamptz`;
}

function conditionOf(filter: Filter, model: Model, params: Parameters): string | undefined {
  const field = model.fields[filter.field];
  const scope = (condition: string) => (field.scope ? field.scope(condition) : condition);
  switch (field.kind) {
    case 'text': {
      const built = textCondition(filter.field, field, filter.operator, filter.value, params);
      if (!built) return undefined;
      return built.scoped ? scope(built.condition) : built.condition;
    }
    case 'boolean': {
      const value = booleanValue(filter.field, filter.value);
      if (value === undefined) return undefined;
      return `${field.column} ${COMPARISON[filter.operator]} ${params.bind(value)}`;
    }
    case 'number': {
      if (isBlank(filter.value)) return undefined;
      const value = Number(filter.value);
      if (typeof filter.value === 'boolean' || !Number.isFinite(value)) {
        throw badRequest(`The filter of '${filter.field}' needs a number.`);
      }
      return `${field.column} ${COMPARISON[filter.operator]} ${params.bind(value)}`;
    }
    case 'date':
      return dateCondition(filter.field, field.column, filter.operator, filter.value, params);
  }
}

/** The rows a request selects: the conditions of its filters, over their bound values. */
interface Selection {
  model: Model;
  conditions: string[];
  params: Parameters;
  /** What to add up in the kept user totals instead of counting, when the filters allow it. */
  kept?: string;
}

function selectionOf(request: PageRequest, params = new Parameters()): Selection {
  const model = MODELS[request.model];
  const applied = request.filters.flatMap((filter) => {
    const condition = conditionOf(filter, model, params);
    return condition ? [{ filter, condition }] : [];
  });
  return {
    model,
    conditions: applied.map(({ condition }) => condition),
    params,
    kept: keptOf(
      model,
      applied.map(({ filter }) => filter),
    ),
  };
}

/**
 * Users are counted by triggers per group, in all and per flag (identity.user_totals): with no filter or
 * one on a flag, the total is a sum over a few hundred rows instead of a count over every user.
 */
function keptOf(model: Model, filters: Filter[]): string | undefined {
  if (!model.keptTotals || filters.length > 1) return undefined;
  if (filters.length === 0) return 'users';
  const [{ field, operator, value }] = filters;
  const { tally } = model.fields[field];
  if (!tally) return undefined;
  const wantsSet = booleanValue(field, value) === (COMPARISON[operator] === '=');
  return wantsSet ? tally : `users - ${tally}`;
}

/** The matching users per group (null: without a group), from the kept totals. */
const keptPerGroup = (kept: string) =>
  `SELECT NULLIF(group_id, '${UserTotalsEntity.NO_GROUP}') AS group_id, ${kept} AS members
   FROM identity.user_totals WHERE ${kept} > 0`;

const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');
const direction = (descending: boolean) => (descending ? 'DESC' : 'ASC');

interface Page<Doc> {
  docs: Doc[];
  total: number;
}

/** Reads a page's rows from the SQL that picks its ids (see views.ts). */
type RowReader<Doc> = (source: RowSource) => Promise<Rows<Doc>>;

/**
 * How deep a page may start for its rows to be read alongside the total: walking this many index entries
 * costs about what counting does, so running both at once (two connections) saves the count's time on
 * most pages. Deeper pages wait for the total, to know which end to walk from.
 */
const CONCURRENT_WALK_LIMIT = 50_000;

/**
 * Up to this many matches, a filtered page is cut from all of them, read through the filter's own index
 * (trigram, group) and sorted, which also counts them: an index walk in sort order would pass every row
 * that does not match, which for a rare match is most of the table. More matches than this are dense
 * enough to walk.
 */
const SORTED_MATCHES_LIMIT = 20_000;

/** Positions between two checkpoints of a sort (pageFromCheckpoints): a page skips fewer than this. */
const CHECKPOINT_STEP = 1000;

interface Limits {
  concurrentWalkLimit: number;
  sortedMatchesLimit: number;
  /** 0: no checkpoints. */
  checkpointStep: number;
  /** Whether filtered pages of revisioned models keep their sorted matches (pageKeepingMatches). */
  keepMatches: boolean;
  /** Whether a request waits for the kept lists it starts reading (tests), rather than going on. */
  waitForKeptLists: boolean;
}

/**
 * Any sort: the page's rows and the total, each page in one statement (its ids picked inside it).
 * - No filter, or flag filters only (every sort index carries the flags): the total (kept counts, or a
 *   count with the filters alone: they never need a join) and one ORDER BY … LIMIT … OFFSET walk of the
 *   sort's index, side by side. OFFSET walks every entry it skips, so a deep page past the middle is read
 *   from the far end in exactly the opposite order: no page walks more than half the rows.
 * - Other filters: the matches are sorted whole and counted in the page's statement; if there are too
 *   many of them, `manyMatches` reads the page, or it is counted and walked as above.
 */
async function pageInOrder<Doc>(
  manager: EntityManager,
  request: PageRequest,
  { model, conditions, params, kept }: Selection,
  rowsOf: RowReader<Doc>,
  { concurrentWalkLimit, sortedMatchesLimit, keepMatches, waitForKeptLists }: Limits,
  manyMatches?: () => Promise<Page<Doc>>,
): Promise<Page<Doc>> {
  const where = whereOf(conditions);
  const keys = request.sort.map(({ field, descending }) => ({ field: model.fields[field], descending }));
  const order = keys.flatMap(({ field, descending }) =>
    [field.sortBy, ...(field.thenBy ?? [])].map((expression) => ({ expression, descending })),
  );
  const last = keys[keys.length - 1];
  // The id makes the order total (stable pages); it runs the way the last key does, so that a sort and
  // its reverse are both one walk of an index ending in id.
  if (!last.field.unique) order.push({ expression: `${model.alias}.id`, descending: last.descending });
  const join = keys.some(({ field }) => field.sortJoinsGroup) ? model.groupJoin : '';
  const orderBy = (expressions: string[], reversed = false) =>
    order.map(({ descending }, i) => `${expressions[i]} ${direction(descending !== reversed)}`).join(', ');

  const count = async () => {
    const [{ total }]: { total: number }[] = kept
      ? await manager.query(`SELECT COALESCE(sum(${kept}), 0)::int AS total FROM identity.user_totals`)
      : await manager.query(`SELECT count(*)::int AS total FROM ${model.from} ${where}`, params.values);
    return total;
  };
  const walk = async (offset: number, limit: number, reversed: boolean) => {
    const query = new Parameters(params.values);
    const ids = `ARRAY(
      SELECT ${model.alias}.id FROM ${model.from} ${join} ${where}
      ORDER BY ${orderBy(
        order.map((key) => key.expression),
        reversed,
      )}
      LIMIT ${query.bind(limit)} OFFSET ${query.bind(offset)})`;
    return (await rowsOf({ ids, params: query.values, reversed })).docs;
  };
  /**
   * The filter's matches (at most one over the limit, to tell when there are too many) with their sort
   * keys k0…: MATERIALIZED keeps PostgreSQL from turning this back into the walk.
   */
  const keyOrder = (alias: string) => orderBy(order.map((_, i) => `${alias}k${i}`));
  const matchesOf = (columns: string, query: Parameters) => `matches AS MATERIALIZED (
      SELECT ${columns}, ${order.map(({ expression }, i) => `${expression} AS k${i}`).join(', ')}
      FROM ${model.from} ${join} ${where}
      LIMIT ${query.bind(sortedMatchesLimit + 1)})`;
  /** The page cut from all the matches, with their number; undefined when there are too many. */
  const sortMatches = async (): Promise<Page<Doc> | undefined> => {
    const query = new Parameters(params.values);
    // With the page's columns read along (users), the page is cut from the matches without looking its
    // rows up again.
    const matches = matchesOf(model.pageColumns ?? `${model.alias}.id`, query);
    const limit = `LIMIT ${query.bind(request.limit)} OFFSET ${query.bind(request.offset)}`;
    const page = await rowsOf({
      with: matches,
      ...(model.pageColumns
        ? { rows: { sql: `SELECT * FROM matches ORDER BY ${keyOrder('')} ${limit}`, order: keyOrder('p.') } }
        : { ids: `ARRAY(SELECT id FROM matches ORDER BY ${keyOrder('')} ${limit})` }),
      total: '(SELECT count(*)::int FROM matches)',
      params: query.values,
    });
    // An empty page says nothing about the matches: past their end, or past the limit.
    const total = page.total ?? (await count());
    return total > sortedMatchesLimit ? undefined : { docs: page.docs, total };
  };

  /**
   * Revisioned models (users) keep a filter's sorted matches, read once per revision of the list as the
   * ids in page order; a page is then a slice of them, its rows read by id (a probe of the primary key
   * each) in a statement that checks the revision. Finding the matches again (the filter's index, a
   * recheck of each in the table, a sort) was most of a filtered page.
   */
  const pageKeepingMatches = async (): Promise<Page<Doc> | undefined> => {
    const query = new Parameters(params.values);
    const read = `WITH ${matchesOf(`${model.alias}.id`, query)}
      SELECT ${USER_LIST_REVISION}::text AS revision, (SELECT count(*)::int FROM matches) AS total,
             array_to_string(ARRAY(SELECT id FROM matches ORDER BY ${keyOrder('')}), ',') AS ids`;
    const listKey = JSON.stringify(['matches', read, query.values]);
    const matches = peekKeptList<SortedMatches>(manager, listKey);
    if (matches) {
      const page = await pageOfKeptList(manager, request, listKey, matches, async (take) => {
        const ids = matches.ids.slice(
          request.offset * UUID_STRIDE,
          (request.offset + take) * UUID_STRIDE - 1,
        );
        const rows = await rowsOf({
          ids: `(CASE WHEN ${USER_LIST_REVISION} = $2::bigint THEN $1::uuid[] ELSE '{}' END)`,
          params: [`{${ids}}`, matches.revision],
        });
        return rows.docs;
      });
      if (page) return page;
    }
    const page = await sortMatches();
    // Few enough to keep: for the next pages, sorts of the same filter read them in the background.
    if (page) {
      await keptList(
        manager,
        listKey,
        async (reader): Promise<SortedMatches | undefined> => {
          const [row]: Omit<SortedMatches, 'size'>[] = await reader.query(read, query.values);
          return row.total > sortedMatchesLimit ? undefined : { ...row, size: row.total };
        },
        waitForKeptLists,
      );
    }
    return page;
  };

  const walkable = request.filters.every(({ field }) => model.fields[field].kind === 'boolean');
  if (walkable && request.offset <= concurrentWalkLimit) {
    const [total, docs] = await Promise.all([count(), walk(request.offset, request.limit, false)]);
    return { docs, total };
  }
  if (!walkable) {
    const page = model.revisioned && keepMatches ? await pageKeepingMatches() : await sortMatches();
    if (page) return page;
    if (manyMatches) return manyMatches();
  }
  const total = await count();
  const take = Math.min(request.limit, total - request.offset);
  if (take <= 0) return { docs: [], total };
  const reversed = request.offset > total / 2;
  return {
    docs: await walk(reversed ? total - request.offset - take : request.offset, take, reversed),
    total,
  };
}

/**
 * What pages of a revisioned model (users) keep between requests, per database: read at a revision of the
 * users list (identity.user_list_revision) and good while it stays. A page's statement checks the revision
 * itself, so a page never mixes a kept list with rows that have moved since.
 *
 * A request never waits for a list to be read: when there is none, or the one kept is out of date (every
 * edit in the grid makes it so, and the grid reads its page again right after an edit), the page is read
 * the plain way and the list is read in the background for the requests after it. Reading checkpoints
 * walks every row of a sort, which costs more than most plain pages.
 */
interface KeptList {
  revision: string;
  /** The number of rows the sort and filters select. */
  total: number;
  /** How many keys or ids it holds: the budget below counts these. */
  size: number;
}

/** Every `step`-th key of a sort, from the first (pageFromCheckpoints). */
interface Checkpoints extends KeptList {
  keys: string[][];
}

/** Every id a filter selects, in sort order (pageKeepingMatches). */
interface SortedMatches extends KeptList {
  /** The ids joined by commas: each is 36 characters, so the n-th starts at 37 × n. */
  ids: string;
}

/**
 * How many lists each database keeps, and how many keys and ids in all (about 40 bytes each): the
 * checkpoints of a sort are about 100 keys per 100 000 users, a filter's sorted matches up to
 * SORTED_MATCHES_LIMIT ids.
 */
const MAX_KEPT_LISTS = 64;
const MAX_KEPT_SIZE = 400_000;

interface KeptStore {
  /** Least recently used first (a Map keeps insertion order). */
  lists: Map<string, KeptList>;
  /** The sizes of the lists, added up. */
  size: number;
  /** The lists being read, by key: one read per list at a time. */
  reading: Map<string, Promise<void>>;
}
const keptStores = new WeakMap<DataSource, KeptStore>();

function keptStore(manager: EntityManager): KeptStore {
  let store = keptStores.get(manager.connection);
  if (!store) keptStores.set(manager.connection, (store = { lists: new Map(), size: 0, reading: new Map() }));
  return store;
}

function forget(store: KeptStore, key: string) {
  const list = store.lists.get(key);
  if (!list) return;
  store.lists.delete(key);
  store.size -= list.size;
}

/** Keeps `list` as the most recently used, dropping the least recently used over the budget. */
function remember(store: KeptStore, key: string, list: KeptList) {
  forget(store, key);
  store.lists.set(key, list);
  store.size += list.size;
  for (const oldest of store.lists.keys()) {
    if ((store.lists.size <= MAX_KEPT_LISTS && store.size <= MAX_KEPT_SIZE) || oldest === key) break;
    forget(store, oldest);
  }
}

/** The list kept under `key`, if any (now the most recently used). */
function peekKeptList<List extends KeptList>(manager: EntityManager, key: string): List | undefined {
  const { lists } = keptStore(manager);
  const kept = lists.get(key);
  if (kept) {
    lists.delete(key);
    lists.set(key, kept);
  }
  return kept as List | undefined;
}

/**
 * The list kept under `key`, if any. Without one, `read` is started (unless it is already running) and,
 * as requests do, not waited for; tests wait, to reach the kept-list ways deterministically.
 */
async function keptList<List extends KeptList>(
  manager: EntityManager,
  key: string,
  read: (manager: EntityManager) => Promise<List | undefined>,
  wait: boolean,
): Promise<List | undefined> {
  const kept = peekKeptList<List>(manager, key);
  if (kept) return kept;
  const store = keptStore(manager);
  let reading = store.reading.get(key);
  if (!reading) {
    // The pool's own manager: the request's may be a transaction's, gone before the read ends.
    reading = read(manager.connection.manager)
      .then(
        (list) => {
          if (list) remember(store, key, list);
        },
        // The plain way goes on serving the pages; the next request tries again.
        (err: Error) => process.emitWarning(`page-for-model: a kept list could not be read: ${err.message}`),
      )
      .finally(() => store.reading.delete(key));
    store.reading.set(key, reading);
  }
  if (!wait) return undefined;
  await reading;
  return store.lists.get(key) as List | undefined;
}

/** How many lists a database keeps (tests). */
export const keptListCount = (dataSource: DataSource) => keptStores.get(dataSource)?.lists.size ?? 0;

/** Waits for the lists being read (before the database closes). */
export async function settleKeptLists(dataSource: DataSource): Promise<void> {
  const store = keptStores.get(dataSource);
  while (store && store.reading.size > 0) await Promise.all(store.reading.values());
}

const USER_LIST_REVISION = '(SELECT revision FROM identity.user_list_revision)';
/** A uuid's text and the comma after it (SortedMatches.ids). */
const UUID_STRIDE = 37;

/** Whether the users list is still at `revision` (a page past the end has no rows to check it with). */
async function stillAt(manager: EntityManager, revision: string): Promise<boolean> {
  const [current]: { revision: string }[] = await manager.query(
    `SELECT ${USER_LIST_REVISION}::text AS revision`,
  );
  return current.revision === revision;
}

/**
 * A page from a kept list: `readRows` reads its `take` rows in a statement that checks the list's
 * revision. Undefined, and the list dropped, when the revision has moved on (the rows come back short).
 */
async function pageOfKeptList<Doc>(
  manager: EntityManager,
  request: PageRequest,
  key: string,
  { revision, total }: KeptList,
  readRows: (take: number) => Promise<Doc[]>,
): Promise<Page<Doc> | undefined> {
  const take = Math.min(request.limit, total - request.offset);
  if (take <= 0) {
    if (await stillAt(manager, revision)) return { docs: [], total };
  } else {
    const docs = await readRows(take);
    if (docs.length === take) return { docs, total };
  }
  forget(keptStore(manager), key);
  return undefined;
}

/** Whether a page can come from checkpoints: one indexed sort, flag filters only. */
function checkpointable(request: PageRequest, model: Model): boolean {
  return (
    !!model.revisioned &&
    request.sort.length === 1 &&
    !!model.fields[request.sort[0].field].sortType &&
    request.filters.every(({ field }) => model.fields[field].kind === 'boolean')
  );
}

/**
 * A page without the walk: the sort's key at every `step`-th position and the number of rows are read
 * once per revision of the users list (identity.sort_checkpoints: one walk, MOVE skipping between keys)
 * and kept; a page, in either direction, is then a range of the ascending order that starts at most `step`
 * entries after a checkpoint (`WHERE (key) >= checkpoint … OFFSET < step`), read index-only. Undefined
 * when there are no checkpoints of the current revision yet (the caller reads the page the plain way).
 */
async function pageFromCheckpoints(
  manager: EntityManager,
  request: PageRequest,
  { model, conditions, params }: Selection,
  step: number,
  wait: boolean,
): Promise<Page<AdminUser> | undefined> {
  const [{ field, descending }] = request.sort;
  const sorted = model.fields[field];
  const keys: { expression: string; type: string }[] = [
    { expression: sorted.sortBy, type: sorted.sortType! },
  ];
  if (!sorted.unique) keys.push({ expression: `${model.alias}.id`, type: 'uuid' });
  const ascending = keys.map(({ expression }) => `${expression} ASC`).join(', ');

  // The same filters, their values as elements of the function's boolean[] (EXECUTE … USING).
  const keyParams = new Parameters([], (n) => `($1)[${n}]`);
  const keyConditions = request.filters.flatMap((filter) => conditionOf(filter, model, keyParams) ?? []);
  const keysQuery = `SELECT ARRAY[${keys.map(({ expression }) => `${expression}::text`).join(', ')}]
    FROM ${model.from} ${whereOf(keyConditions)} ORDER BY ${ascending}`;
  const listKey = JSON.stringify(['checkpoints', keysQuery, keyParams.values, step]);
  const read = async (reader: EntityManager): Promise<Checkpoints> => {
    const [row]: Omit<Checkpoints, 'size'>[] = await reader.query(
      `SELECT ${USER_LIST_REVISION}::text AS revision, c.total, c.checkpoints AS keys
       FROM identity.sort_checkpoints($1, $2, $3::boolean[]) c`,
      [keysQuery, step, keyParams.values],
    );
    return { ...row, size: row.keys.length };
  };

  // Twice: kept checkpoints that turn out out of date are dropped and read again (waited for in tests).
  for (let attempt = 0; attempt < 2; attempt++) {
    const checkpoints = await keptList(manager, listKey, read, wait);
    if (!checkpoints) return undefined;
    const page = await pageOfKeptList(manager, request, listKey, checkpoints, async (take) => {
      // The page as a range of the ascending order (a descending page counts from the far end).
      const start = descending ? checkpoints.total - request.offset - take : request.offset;
      const checkpoint = Math.floor(start / step);
      const query = new Parameters(params.values);
      const where = [...conditions, `${USER_LIST_REVISION} = ${query.bind(checkpoints.revision)}::bigint`];
      if (checkpoint > 0) {
        const from = checkpoints.keys[checkpoint];
        where.push(
          `(${keys.map(({ expression }) => expression).join(', ')}) >= (${keys
            .map(({ type }, i) => `${query.bind(from[i])}::${type}`)
            .join(', ')})`,
        );
      }
      const { docs } = await usersOf(manager, {
        rows: {
          sql: `SELECT ${USER_PAGE_COLUMNS}, ${keys.map(({ expression }, i) => `${expression} AS k${i}`).join(', ')}
            FROM ${model.from} WHERE ${where.join(' AND ')} ORDER BY ${ascending}
            LIMIT ${query.bind(take)} OFFSET ${query.bind(start - checkpoint * step)}`,
          order: keys.map((_, i) => `p.k${i} ${direction(descending)}`).join(', '),
        },
        params: query.values,
      });
      return docs;
    });
    if (page) return page;
  }
  return undefined;
}

/**
 * Users by group name: groups in name order (then id, so namesakes do not mix), each group's users by
 * name (then id), users without a group after the groups (before them going down, as PostgreSQL sorts
 * NULLs). Joining and sorting 100 000 users for one page is too slow, so the matching users are counted
 * per group (kept counts, or a count), which also gives the total, the page is cut into the slices of the
 * groups it covers, and each slice is a short walk of the (group, name) index.
 */
async function pageByGroupName<Doc>(
  manager: EntityManager,
  request: PageRequest,
  { conditions, params, kept }: Selection,
  rowsOf: RowReader<Doc>,
  descending: boolean,
): Promise<Page<Doc>> {
  // The matching users per group, the groups in page order (users without a group last, first going
  // down): one statement.
  const dir = direction(descending);
  const counts: { group_id: string | null; members: number }[] = await manager.query(
    `SELECT c.group_id, c.members
     FROM (${
       kept
         ? keptPerGroup(kept)
         : `SELECT u.group_id, count(*)::int AS members FROM identity.users u ${whereOf(conditions)}
            GROUP BY u.group_id`
     }) c
     LEFT JOIN identity.groups g ON g.id = c.group_id
     ORDER BY c.group_id IS NULL ${dir}, lower(g.name) ${dir}, g.id ${dir}`,
    kept ? [] : params.values,
  );
  const total = counts.reduce((sum, row) => sum + row.members, 0);
  const take = Math.min(request.limit, total - request.offset);
  if (take <= 0) return { docs: [], total };

  const slices: { group: string | null; skip: number; take: number }[] = [];
  let skip = request.offset;
  let remaining = take;
  for (const { group_id: group, members: size } of counts) {
    if (remaining === 0) break;
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const sliceTake = Math.min(size - skip, remaining);
    slices.push({ group, skip, take: sliceTake });
    remaining -= sliceTake;
    skip = 0;
  }

  // Each slice is read whole from the (group, name) index, which carries every column of the page.
  const query = new Parameters(params.values);
  const filters = conditions.map((condition) => ` AND ${condition}`).join('');
  const walk = (groupCondition: string, skipSql: string, takeSql: string) =>
    `SELECT ${USER_PAGE_COLUMNS}, lower(u.name) AS sort_name FROM identity.users u
     WHERE ${groupCondition}${filters}
     ORDER BY lower(u.name) ${dir}, u.id ${dir} OFFSET ${skipSql} LIMIT ${takeSql}`;
  const grouped = slices.filter((slice) => slice.group !== null);
  const parts = [
    `SELECT s.part, w.*
     FROM unnest(${query.bind(grouped.map((slice) => slice.group))}::uuid[],
                 ${query.bind(grouped.map((slice) => slice.skip))}::int[],
                 ${query.bind(grouped.map((slice) => slice.take))}::int[]) WITH ORDINALITY AS s(group_id, skip, take, part)
     CROSS JOIN LATERAL (${walk('u.group_id = s.group_id', 's.skip', 's.take')}) w`,
  ];
  const ungrouped = slices.find((slice) => slice.group === null);
  if (ungrouped) {
    // Numbered to come before the first group (0) or after the last.
    const part = descending ? 0 : grouped.length + 1;
    parts.push(
      `SELECT ${part}::bigint, n.*
       FROM (${walk('u.group_id IS NULL', query.bind(ungrouped.skip), query.bind(ungrouped.take))}) n`,
    );
  }
  const rows = { sql: parts.join(' UNION ALL '), order: `p.part, p.sort_name ${dir}, p.id ${dir}` };
  return { docs: (await rowsOf({ rows, params: query.values })).docs, total };
}

/** Runs a page request. The limits are for tests, to reach each way of reading a page with few rows. */
export async function pageForModel(
  manager: EntityManager,
  request: PageRequest,
  {
    concurrentWalkLimit = CONCURRENT_WALK_LIMIT,
    sortedMatchesLimit = SORTED_MATCHES_LIMIT,
    checkpointStep = CHECKPOINT_STEP,
    keepMatches = true,
    waitForKeptLists = false,
  }: Partial<Limits> = {},
): Promise<UsersPage | GroupsPage> {
  const selection = selectionOf(request);
  const limits = { concurrentWalkLimit, sortedMatchesLimit, checkpointStep, keepMatches, waitForKeptLists };
  if (checkpointStep > 0 && checkpointable(request, selection.model)) {
    const page = await pageFromCheckpoints(manager, request, selection, checkpointStep, waitForKeptLists);
    if (page) return page;
  }
  if (request.model === 'groups') {
    return pageInOrder(manager, request, selection, (source) => groupsOf(manager, source), limits);
  }
  const users = (source: RowSource) => usersOf(manager, source);
  const [first] = request.sort;
  if (request.sort.length > 1 || first.field !== 'groupName') {
    return pageInOrder(manager, request, selection, users, limits);
  }
  // By group name: slices of groups, unless a filter leaves few enough users to sort (same order).
  const bySlices = () => pageByGroupName(manager, request, selection, users, first.descending);
  const walkable = request.filters.every(({ field }) => MODELS.users.fields[field].kind === 'boolean');
  return walkable ? bySlices() : pageInOrder(manager, request, selection, users, limits, bySlices);
}
