import { Client, escapeIdentifier } from 'pg';

/** The workspace-wide default (docs/conventions.md). */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/portal';

/** The name of the database a connection URL points at. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`The database URL names no database: ${redactUrl(url)}`);
  return name;
}

/** The same server, user and options, another database. */
export function withDatabase(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${encodeURIComponent(name)}`;
  return target.toString();
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

/** Runs `work` with a short-lived client on the server's maintenance database (`postgres`). */
export async function withMaintenanceClient<T>(
  url: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database the URL points at when it does not exist yet. Returns true when it created it. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  return withMaintenanceClient(url, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
      return true;
    } catch (err) {
      // Someone else (a parallel start script) created it in between: fine.
      if ((err as { code?: string }).code === '42P04') return false;
      throw err;
    }
  });
}

/** Drops a database, disconnecting whoever is still connected to it. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  await withMaintenanceClient(url, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`),
  );
}
