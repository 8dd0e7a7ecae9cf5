import type { EntityManager } from 'typeorm';
import { joinedUuidSlice, SqlParameters } from '@portal/db';
import { direction, whereOf, type Selection } from './conditions';
import { keptList, pageOfKeptList, peekKeptList, USER_LIST_REVISION, type SortedMatches } from './kept-lists';
import type { Page, PageRequest, RowReader } from './models';

/**
 * How deep a page may start for its rows to be read alongside the total: walking this many index entries
 * costs about what counting does, so running both at once (two connections) saves the count's time on
 * most pages. Deeper pages wait for the total, to know which end to walk from.
 */
export const CONCURRENT_WALK_LIMIT = 50_000;

/**
 * Up to this many matches, a filtered page is cut from all of them, read through the filter's own index
 * (trigram, group) and sorted, which also counts them: an index walk in sort order would pass every row
 * that does not match, which for a rare match is most of the table. More matches than this are dense
 * enough to walk.
 */
export const SORTED_MATCHES_LIMIT = 20_000;

/** Positions between two checkpoints of a sort (pageFromCheckpoints): a page skips fewer than this. */
export const CHECKPOINT_STEP = 1000;

export interface Limits {
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
export async function pageInOrder<Doc>(
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
    const query = new SqlParameters(params.values);
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
  const matchesOf = (columns: string, query: SqlParameters) => `matches AS MATERIALIZED (
      SELECT ${columns}, ${order.map(({ expression }, i) => `${expression} AS k${i}`).join(', ')}
      FROM ${model.from} ${join} ${where}
      LIMIT ${query.bind(sortedMatchesLimit + 1)})`;
  /** The page cut from all the matches, with their number; undefined when there are too many. */
  const sortMatches = async (): Promise<Page<Doc> | undefined> => {
    const query = new SqlParameters(params.values);
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
    const query = new SqlParameters(params.values);
    const read = `WITH ${matchesOf(`${model.alias}.id`, query)}
      SELECT ${USER_LIST_REVISION}::text AS revision, (SELECT count(*)::int FROM matches) AS total,
             array_to_string(ARRAY(SELECT id FROM matches ORDER BY ${keyOrder('')}), ',') AS ids`;
    const listKey = JSON.stringify(['matches', read, query.values]);
    const matches = peekKeptList<SortedMatches>(manager, listKey);
    if (matches) {
      const page = await pageOfKeptList(manager, request, listKey, matches, async (take) => {
        const ids = joinedUuidSlice(matches.ids, request.offset, take);
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
