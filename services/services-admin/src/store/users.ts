import type { EntityManager } from 'typeorm';
import type { AdminListQuery } from '@portal/contracts';
import { idWindow } from './id-window';
import { PEOPLE } from './lookups';
import { adminUsers } from './views';

const USERS_DEFAULT_LIMIT = 100;

/**
 * Users by name (then id), optionally of one group and matching `search` in name or e-mail. Always a
 * window: a list of every user would not scale (100 000 in the benchmark), the grid pages instead. People
 * only: an API key's account row is listed with the group's keys, never among its users.
 */
export async function listUsers(
  manager: EntityManager,
  { search, limit = USERS_DEFAULT_LIMIT, offset = 0 }: AdminListQuery,
  groupId?: string,
) {
  const { ids, total } = await idWindow(manager, {
    from: 'identity.users u',
    alias: 'u',
    equals: groupId ? { 'u.group_id': groupId } : {},
    only: PEOPLE,
    search: { text: search, columns: ['u.name', 'u.email'] },
    orderBy: 'lower(u.name), u.id',
    limit,
    offset,
  });
  return { users: await adminUsers(manager, ids), total };
}
