import { createDataSource } from '@portal/db';
import type { DataSource } from 'typeorm';

/**
 * How the requests service's connections are set up: one-row writes and index-driven reads. Parallel
 * workers and JIT cost more than they save on such statements, and a runaway query must not hold a
 * connection.
 */
export const DATABASE_SETTINGS = {
  max_parallel_workers_per_gather: 0,
  jit: 'off',
  statement_timeout: '10s',
} as const;

export async function openDatabase(url: string): Promise<DataSource> {
  const ds = createDataSource(url, { settings: DATABASE_SETTINGS });
  await ds.initialize();
  return ds;
}
