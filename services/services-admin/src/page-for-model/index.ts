import type { EntityManager } from 'typeorm';
import type { GroupsPage, UsersPage } from '@portal/contracts';
import { groupsOf, usersOf, type RowSource } from '../store/views';
import { checkpointable, pageFromCheckpoints } from './checkpoints';
import { selectionOf } from './conditions';
import { pageByGroupName } from './group-name-sort';
import { MODELS, type PageRequest } from './models';
import {
  CHECKPOINT_STEP,
  CONCURRENT_WALK_LIMIT,
  pageInOrder,
  SORTED_MATCHES_LIMIT,
  type Limits,
} from './ordered-page';

/**
 * GET /api/v1.0/services/page-for-model (spec 03 §7): one page of the users or groups grid, filtered and
 * sorted by the server. Field names never reach SQL: each known field maps to a fixed expression in the
 * tables of models.ts, and every value is a bound parameter (conditions.ts). A page is read one of these
 * ways: from kept checkpoints (checkpoints.ts), in the sort's order (ordered-page.ts: a walk, or the
 * matches sorted, or a filter's kept sorted matches), or by group name in slices of groups
 * (group-name-sort.ts).
 */

export { parsePageQuery } from './parse';
export { keptListCount, settleKeptLists } from './kept-lists';
export type { PageRequest } from './models';

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
