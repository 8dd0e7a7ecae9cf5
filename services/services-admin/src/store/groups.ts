import type { EntityManager } from 'typeorm';
import type { AdminListQuery } from '@portal/contracts';
import { GroupEntity } from '@portal/db';
import { idWindow } from './id-window';
import { PEOPLE } from './lookups';
import { adminGroups } from './views';

const GROUPS_DEFAULT_LIMIT = 500;

/** Groups by name (then id), optionally matching `search` in name or code. */
export async function listGroups(
  manager: EntityManager,
  { search, limit = GROUPS_DEFAULT_LIMIT, offset = 0 }: AdminListQuery,
) {
  const { ids, total } = await idWindow(manager, {
    from: 'identity.groups g',
    alias: 'g',
    search: { text: search, columns: ['g.name', 'g.code'] },
    orderBy: 'lower(g.name), g.id',
    limit,
    offset,
  });
  return { groups: await adminGroups(manager, ids), total };
}

/** The ids of the groups named `name` (case-insensitively): two at most, enough to tell several. */
export async function groupIdsNamed(manager: EntityManager, name: string): Promise<string[]> {
  const groups = await manager
    .getRepository(GroupEntity)
    .createQueryBuilder('g')
    .select('g.id')
    .where('lower(g.name) = lower(:name)', { name })
    .limit(2)
    .getMany();
  return groups.map((group) => group.id);
}

/** Whether a group other than `groupId` has the code `code` (case-insensitively). */
export async function groupCodeTaken(
  manager: EntityManager,
  code: string,
  groupId?: string,
): Promise<boolean> {
  return manager
    .getRepository(GroupEntity)
    .createQueryBuilder('g')
    .where('lower(g.code) = lower(:code)', { code })
    .andWhere(groupId ? 'g.id <> :groupId' : 'true', { groupId })
    .getExists();
}

/** How many people are in the group (an API key's account row is the key's, not a member). */
export async function groupPeopleCount(manager: EntityManager, groupId: string): Promise<number> {
  const [{ count }]: { count: number }[] = await manager.query(
    `SELECT count(*)::int AS count FROM identity.users u WHERE u.group_id = $1 AND ${PEOPLE}`,
    [groupId],
  );
  return count;
}
