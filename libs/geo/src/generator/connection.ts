import type { Queryable } from '../load/upsert';

/**
 * The same connection, answering rows: TypeORM's query() answers the rows, pg's a result object with
 * them in `rows` (upsertRows and the generator read rows).
 */
export function answeringRows(db: Queryable): Queryable {
  return {
    async query(sql: string, params?: unknown[]) {
      const result = await db.query(sql, params);
      return result && !Array.isArray(result) && Array.isArray(result.rows) ? result.rows : result;
    },
  };
}
