import { createDataSource } from '@portal/db';
import type { DataSource } from 'typeorm';
import { TRIGRAM_SETTINGS } from './avs/parse';

/**
 * How the locator's connections are set up: short, index-driven reads (search as you type, reverse
 * look-ups, tiles). Parallel workers and JIT cost more than they save on such statements, and a runaway
 * query must not hold a connection.
 */
export const DATABASE_SETTINGS = {
  max_parallel_workers_per_gather: 0,
  jit: 'off',
  statement_timeout: '10s',
  // The address service's fuzzy matching (avs/parse.ts).
  ...TRIGRAM_SETTINGS,
} as const;

export async function openDatabase(url: string): Promise<DataSource> {
  const ds = createDataSource(url, { settings: DATABASE_SETTINGS });
  await ds.initialize();
  return ds;
}
