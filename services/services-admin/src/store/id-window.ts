import type { EntityManager } from 'typeorm';
import { containsPattern, SqlParameters } from '@portal/db';

/** A window of a plain list (users, groups, a group's members): which rows, in which order. */
export interface WindowQuery {
  /** The table and its alias (`identity.users u`, alias `u`). */
  from: string;
  alias: string;
  /** Columns that must equal a value (one group's members). */
  equals?: Record<string, string>;
  /** A fixed SQL condition every row meets (people only: PEOPLE of lookups.ts). */
  only?: string;
  /** Text to find anywhere in any of `columns`, case-insensitively; blank or absent: every row. */
  search?: { text: string | undefined; columns: string[] };
  orderBy: string;
  limit: number;
  offset: number;
}

/**
 * The ids of the rows `query` selects, in its order from its offset on, with how many it selects in all:
 * what the plain lists answer.
 */
export async function idWindow(
  manager: EntityManager,
  { from, alias, equals = {}, only, search, orderBy, limit, offset }: WindowQuery,
): Promise<{ ids: string[]; total: number }> {
  const params = new SqlParameters();
  const conditions = Object.entries(equals).map(([column, value]) => `${column} = ${params.bind(value)}`);
  if (only) conditions.push(only);
  const text = search?.text?.trim();
  if (search && text) {
    const pattern = params.bind(containsPattern(text));
    conditions.push(`(${search.columns.map((column) => `${column} ILIKE ${pattern}`).join(' OR ')})`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [{ total }]: { total: number }[] = await manager.query(
    `SELECT count(*)::int AS total FROM ${from} ${where}`,
    params.values,
  );
  const window = new SqlParameters(params.values);
  const rows: { id: string }[] = await manager.query(
    `SELECT ${alias}.id FROM ${from} ${where} ORDER BY ${orderBy}
     LIMIT ${window.bind(limit)} OFFSET ${window.bind(offset)}`,
    window.values,
  );
  return { ids: rows.map((row) => row.id), total };
}
