import { createDataSource } from '@portal/db';
import type { DataSource } from 'typeorm';

/**
 * How services-admin's connections are set up. Its statements are short reads and small transactions:
 * starting parallel workers or JIT-compiling costs more than it saves (a parallel count of 100 000 users
 * takes twice as long as a plain one on two cores), and nothing may run away with a connection.
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
