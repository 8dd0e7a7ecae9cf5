import type { DataSource, EntityManager } from 'typeorm';
import { KeptLists, type KeptList } from '@portal/db';
import type { Page, PageRequest } from './models';

/**
 * What pages of a revisioned model (users) keep between requests, per database (KeptLists, @portal/db):
 * read at a revision of the users list (identity.user_list_revision) and good while it stays. A page's
 * statement checks the revision itself, so a page never mixes a kept list with rows that have moved since.
 *
 * A request never waits for a list to be read: when there is none, or the one kept is out of date (every
 * edit in the grid makes it so, and the grid reads its page again right after an edit), the page is read
 * the plain way and the list is read in the background for the requests after it. Reading checkpoints
 * walks every row of a sort, which costs more than most plain pages.
 */

/** Every `step`-th key of a sort, from the first (pageFromCheckpoints). */
export interface Checkpoints extends KeptList {
  keys: string[][];
}

/** Every id a filter selects, in sort order (pageKeepingMatches). */
export interface SortedMatches extends KeptList {
  /** The ids joined by commas (joinedUuidSlice). */
  ids: string;
}

/**
 * How many lists each database keeps, and how many keys and ids in all (about 40 bytes each): the
 * checkpoints of a sort are about 100 keys per 100 000 users, a filter's sorted matches up to
 * SORTED_MATCHES_LIMIT ids.
 */
const keptLists = new KeptLists<Checkpoints | SortedMatches>({
  owner: 'page-for-model',
  maxLists: 64,
  maxSize: 400_000,
});

/** The list kept under `key`, if any (now the most recently used). */
export const peekKeptList = <List extends Checkpoints | SortedMatches>(manager: EntityManager, key: string) =>
  keptLists.peek(manager.connection, key) as List | undefined;

/**
 * The list kept under `key`, if any. Without one, `read` is started (unless it is already running) and,
 * as requests do, not waited for; tests wait, to reach the kept-list ways deterministically.
 */
export async function keptList<List extends Checkpoints | SortedMatches>(
  manager: EntityManager,
  key: string,
  read: (manager: EntityManager) => Promise<List | undefined>,
  wait: boolean,
): Promise<List | undefined> {
  const kept = peekKeptList<List>(manager, key);
  if (kept) return kept;
  // The pool's own manager: the request's may be a transaction's, gone before the read ends.
  const reading = keptLists.read(manager.connection, key, () => read(manager.connection.manager));
  if (!wait) return undefined;
  await reading;
  return peekKeptList<List>(manager, key);
}

/** How many lists a database keeps (tests). */
export const keptListCount = (dataSource: DataSource) => keptLists.count(dataSource);

/** Waits for the lists being read (before the database closes). */
export const settleKeptLists = (dataSource: DataSource): Promise<void> => keptLists.settle(dataSource);

export const USER_LIST_REVISION = '(SELECT revision FROM identity.user_list_revision)';

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
export async function pageOfKeptList<Doc>(
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
  keptLists.forget(manager.connection, key);
  return undefined;
}
