import type { EntityManager } from 'typeorm';
import { SqlParameters } from '@portal/db';
import { USER_PAGE_COLUMNS } from '../store/views';
import { direction, keptPerGroup, whereOf, type Selection } from './conditions';
import type { Page, PageRequest, RowReader } from './models';

/**
 * Users by group name: groups in name order (then id, so namesakes do not mix), each group's users by
 * name (then id), users without a group after the groups (before them going down, as PostgreSQL sorts
 * NULLs). Joining and sorting 100 000 users for one page is too slow, so the matching users are counted
 * per group (kept counts, or a count), which also gives the total, the page is cut into the slices of the
 * groups it covers, and each slice is a short walk of the (group, name) index.
 */
export async function pageByGroupName<Doc>(
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
  const query = new SqlParameters(params.values);
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
