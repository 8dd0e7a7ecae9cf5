import type { EntityManager } from 'typeorm';
import type { AdminUser } from '@portal/contracts';
import { SqlParameters } from '@portal/db';
import { USER_PAGE_COLUMNS, usersOf } from '../store/views';
import { conditionOf, direction, whereOf, type Selection } from './conditions';
import { keptList, pageOfKeptList, USER_LIST_REVISION, type Checkpoints } from './kept-lists';
import type { Model, Page, PageRequest } from './models';

/** Whether a page can come from checkpoints: one indexed sort, flag filters only. */
export function checkpointable(request: PageRequest, model: Model): boolean {
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
export async function pageFromCheckpoints(
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
  const keyParams = new SqlParameters([], (n) => `($1)[${n}]`);
  const keyConditions = [
    ...(model.only ? [model.only] : []),
    ...request.filters.flatMap((filter) => conditionOf(filter, model, keyParams) ?? []),
  ];
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
      const query = new SqlParameters(params.values);
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
