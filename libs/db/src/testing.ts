import { randomBytes } from 'node:crypto';
import { type DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { dropDatabase, withDatabase, withMaintenanceClient } from './database';
import { seed } from './seed';

export const DEFAULT_TEST_DATABASE_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const TEST_DATABASE_PREFIX = 'portal_test_';
/** Test databases older than this were left behind by a crashed run and are dropped by the next one. */
const STALE_TEST_DATABASE_MS = 6 * 60 * 60 * 1000;

export interface TestDatabase {
  /** Connection URL of the throwaway database, e.g. for a service under test. */
  url: string;
  /** An initialised DataSource on it, migrated (and seeded when asked). */
  dataSource: DataSource;
  /** Closes the DataSource and drops the database (safe to call more than once). */
  drop(): Promise<void>;
}

/**
 * Creates a throwaway, migrated database `portal_test_<timestamp>_<random>` on the server of
 * TEST_DATABASE_ADMIN_URL, for integration tests. Call `drop()` in `afterAll`.
 */
export async function createTestDatabase(opts: { seed?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || DEFAULT_TEST_DATABASE_ADMIN_URL;
  const name = `${TEST_DATABASE_PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;

  await withMaintenanceClient(adminUrl, async (client) => {
    await dropStaleTestDatabases(client);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  });

  const url = withDatabase(adminUrl, name);
  const dataSource = createDataSource(url);
  let dropped: Promise<void> | undefined;
  const drop = () =>
    (dropped ??= (async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropDatabase(adminUrl, name);
    })());

  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'all' });
    if (opts.seed) await seed(dataSource);
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
  return { url, dataSource, drop };
}

/** Best effort: several test workers may try to drop the same database at once. */
async function dropStaleTestDatabases(client: {
  query: (sql: string, values?: unknown[]) => Promise<{ rows: { datname: string }[] }>;
  escapeIdentifier: (name: string) => string;
}): Promise<void> {
  const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
    `${TEST_DATABASE_PREFIX}%`,
  ]);
  for (const { datname } of rows) {
    const createdAt = Number(/^portal_test_(\d+)_[0-9a-f]+$/.exec(datname)?.[1]);
    if (!createdAt || Date.now() - createdAt < STALE_TEST_DATABASE_MS) continue;
    await client
      .query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`)
      .catch(() => undefined);
  }
}
