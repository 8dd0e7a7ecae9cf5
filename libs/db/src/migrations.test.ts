import { createTestDatabase, type TestDatabase } from './testing';
import { MIGRATIONS } from './migrations';
import { requireExtensions } from './migrations/extensions';
import { type QueryRunner } from 'typeorm';

const IDENTITY_TABLES = [
  'audit_records',
  'group_services',
  'groups',
  'password_reset_tokens',
  'services',
  'user_list_revision',
  'user_services',
  'user_totals',
  'users',
];

describe('migrations', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  const identityTables = async () =>
    (
      await db.dataSource.query<{ table_name: string }[]>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'identity' ORDER BY table_name`,
      )
    ).map((row) => row.table_name);

  it('creates the identity and reportbuilder schemas and the extensions', async () => {
    expect(await identityTables()).toEqual(IDENTITY_TABLES);
    const reportbuilderTables = await db.dataSource.query<{ table_name: string }[]>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'reportbuilder' ORDER BY table_name`,
    );
    expect(reportbuilderTables.map((row) => row.table_name)).toEqual([
      'rates',
      'report_edits',
      'report_images',
      'report_versions',
      'reports',
    ]);
    const extensions = await db.dataSource.query<{ extname: string }[]>('SELECT extname FROM pg_extension');
    expect(extensions.map((row) => row.extname)).toEqual(expect.arrayContaining(['postgis', 'pg_trgm']));
  });

  it('matches the entities exactly (TypeORM would change nothing)', async () => {
    const pending = await db.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('goes down and up again', async () => {
    for (let undone = 0; undone < MIGRATIONS.length; undone++) {
      await db.dataSource.undoLastMigration({ transaction: 'all' });
    }
    expect(await identityTables()).toEqual([]);
    const schemas = await db.dataSource.query<{ nspname: string }[]>(
      `SELECT nspname FROM pg_namespace WHERE nspname IN ('identity', 'reportbuilder')`,
    );
    expect(schemas).toEqual([]);

    const applied = await db.dataSource.runMigrations({ transaction: 'all' });
    // Every migration ran again, in the order of the list (each class is named as its `name`).
    expect(applied.map((migration) => migration.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(await identityTables()).toEqual(IDENTITY_TABLES);
    expect(await db.dataSource.showMigrations()).toBe(false);
  });
});

describe('requireExtensions', () => {
  it('says how to install a missing PostGIS', async () => {
    const queryRunner = {
      query: async (sql: string) =>
        sql.startsWith('SHOW') ? [{ server_version_num: '150020' }] : [{ name: 'pg_trgm' }],
    } as unknown as QueryRunner;
    await expect(requireExtensions(queryRunner, ['postgis', 'pg_trgm'])).rejects.toThrow(
      'PostGIS is not installed: apt-get install postgresql-15-postgis-3',
    );
  });
});
