import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  /**
   * Log every SQL statement. Off by default: failed queries reach the caller as errors anyway, and an
   * expected one (a duplicate e-mail at registration) is not worth a log line.
   */
  logging?: boolean;
  /**
   * PostgreSQL settings for every connection of the pool (sent at connect, like `SET`), e.g.
   * `{ max_parallel_workers_per_gather: 0 }` for a service of short reads.
   */
  settings?: Record<string, string | number>;
}

/** The libpq `options` string that applies `settings` to a connection ('-c name=value ...'). */
function connectionOptions(settings: Record<string, string | number>): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!/^[a-z_.]+$/.test(name) || !/^[\w.-]+$/.test(String(value))) {
        throw new Error(`Not a PostgreSQL setting: ${name}=${value}`);
      }
      return `-c ${name}=${value}`;
    })
    .join(' ');
}

/**
 * A TypeORM DataSource on the portal database; call `initialize()` before use. The schema is owned by the
 * migrations: `synchronize` is always off and TypeORM never installs extensions on its own.
 */
export function createDataSource(url: string, opts: DataSourceOptions = {}): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    // Entities' uuid defaults read as gen_random_uuid() (built into PostgreSQL 13+), like the migrations.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: opts.logging ?? false,
    ...(opts.settings ? { extra: { options: connectionOptions(opts.settings) } } : {}),
  });
}

/**
 * The connection settings of a service of short statements (reads by index, small transactions): on
 * two cores, starting parallel workers or JIT-compiling costs more than it saves, and a runaway query must
 * not hold a connection for long.
 */
export const SHORT_STATEMENT_SETTINGS = {
  max_parallel_workers_per_gather: 0,
  jit: 'off',
  statement_timeout: '10s',
} as const;

/** An initialised pool for a service: SHORT_STATEMENT_SETTINGS plus the service's own settings. */
export async function openServiceDatabase(
  url: string,
  settings: Record<string, string | number> = {},
): Promise<DataSource> {
  const ds = createDataSource(url, { settings: { ...SHORT_STATEMENT_SETTINGS, ...settings } });
  await ds.initialize();
  return ds;
}
