import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import type * as Db from '@portal/db';
import type * as Geo from '@portal/geo';
import { ROOT } from '../../scripts/lib/processes.mjs';

/** What the global setup started, for the tests: written to HARNESS_FILE, read with `harness()`. */
export interface Harness {
  /** The gateway of this run, e.g. http://localhost:40123 (also the tests' baseURL). */
  baseURL: string;
  /** Where identity writes this run's mails (one JSON file per message). */
  mailDir: string;
  /** This run's runtime folder (var/e2e-<run>): mails, and the services' logs in logs/. */
  runDir: string;
  /** The throwaway, migrated and seeded database of this run. */
  databaseUrl: string;
  /** Each process's port by its name in config/services.json (and `gateway-metrics`): what Prometheus scrapes. */
  ports: Record<string, number>;
  /** The processes to stop at the end. */
  pids: number[];
  demoAccounts: ReadonlyArray<{ email: string; role: string }>;
  demoPassword: string;
}

export const HARNESS_FILE = join(ROOT, 'var', 'e2e-harness.json');

/** Set by the global setup; Playwright hands it to the workers, where the config reads it as baseURL. */
export const BASE_URL_ENV = 'PORTAL_E2E_BASE_URL';

let loaded: Harness | undefined;

export function harness(): Harness {
  loaded ??= JSON.parse(readFileSync(HARNESS_FILE, 'utf8')) as Harness;
  return loaded;
}

/** Runs one statement on this run's database (a connection of its own) and answers its rows. */
export async function queryRun<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: harness().databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** libs/db as built: its TypeORM entities need SWC's decorator metadata, which Playwright's transform lacks. */
export const loadDb = () => createRequire(import.meta.url)(join(ROOT, 'libs/db/dist/index.js')) as typeof Db;

/** libs/geo as built (the generator), for the run's geodata. */
export const loadGeo = () =>
  createRequire(import.meta.url)(join(ROOT, 'libs/geo/dist/index.js')) as typeof Geo;

/** The towns and size of the run's generated geodata: small, quick to make, every coverage state. */
export const E2E_GEODATA = { scale: 3000, seed: 'e2e', towns: ['Stellenbosch', 'Pretoria'] } as const;
