import { createDataSource } from './data-source';

/** Runs the pending migrations (all in one transaction) and returns their names, oldest first. */
export async function runMigrations(url: string, opts: { logging?: boolean } = {}): Promise<string[]> {
  const dataSource = createDataSource(url, opts);
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'all' });
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
