import type { Queryable } from '../load/upsert';
import type { ExtraConnection } from './bulk';
import type { CopyCapableClient } from './copy';

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

/** Another connection to the database `client` is connected to (same parameters), or undefined. */
export async function openExtraConnection(client: CopyCapableClient): Promise<ExtraConnection | undefined> {
  const parameters = (client as unknown as { connectionParameters?: Record<string, unknown> })
    .connectionParameters;
  if (!parameters) return undefined;
  const { user, password, host, port, database } = parameters;
  const ClientClass = client.constructor as new (config: object) => ExtraConnection & {
    connect(): Promise<void>;
  };
  const extra = new ClientClass({ user, password, host, port, database });
  try {
    await extra.connect();
  } catch {
    return undefined;
  }
  return answeringEnd(extra);
}

/** A pg client answering rows (answeringRows), with its end(). */
function answeringEnd(client: ExtraConnection): ExtraConnection {
  const rows = answeringRows(client);
  return { query: (sql, params) => rows.query(sql, params), end: () => client.end() };
}
