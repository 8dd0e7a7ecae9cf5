import { createTestDatabase, type TestDatabase } from './testing';
import { MIGRATIONS } from './migrations';
import { requireExtensions } from './migrations/extensions';
import { type QueryRunner } from 'typeorm';

const IDENTITY_TABLES = [
  'api_keys',
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

describe('ImagerySurveys1764700000000 (issue 21: dated surveys, building life, measurements)', () => {
  let db: TestDatabase;
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    db.dataSource.query(sql, params) as Promise<T[]>;
  const columns = async (schema: string, table: string) =>
    (
      await q<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY column_name`,
        [schema, table],
      )
    ).map((row) => row.column_name);
  const applied = async () =>
    (await q<{ name: string }>('SELECT name FROM public.migrations')).map((row) => row.name);

  beforeAll(async () => {
    db = await createTestDatabase();
    // Back to just before it (undoing the migrations that came after it too).
    while ((await applied()).includes('ImagerySurveys1764700000000'))
      await db.dataSource.undoLastMigration({ transaction: 'all' });
  });
  afterAll(() => db?.drop());

  it('dates the coverage rows that had no date, names their provider, and goes down and up again', async () => {
    expect(await columns('geo', 'buildings')).not.toContain('built_on');
    expect(await columns('requests', 'measurements')).toEqual([]);
    await q(
      `INSERT INTO geo.imagery_coverage (kind, name, captured_on, geom, source, source_id) VALUES
         ('ortho', 'undated', NULL, ST_Multi(ST_MakeEnvelope(18, -34, 18.1, -33.9, 4326)), 'test', 'a'),
         ('high_resolution', 'dated', '2019-04-02', ST_Multi(ST_MakeEnvelope(18, -34, 18.1, -33.9, 4326)), 'test', 'b')`,
    );

    await db.dataSource.runMigrations({ transaction: 'all' });
    const [today] = await q<{ day: string }>(`SELECT current_date::text AS day`);
    expect(
      await q(`SELECT name, captured_on::text AS captured, provider FROM geo.imagery_coverage ORDER BY name`),
    ).toEqual([
      { name: 'dated', captured: '2019-04-02', provider: 'Portal imagery' },
      { name: 'undated', captured: today.day, provider: 'Portal imagery' },
    ]);
    expect(await columns('geo', 'buildings')).toEqual(
      expect.arrayContaining(['built_on', 'demolished_on', 'extended_on', 'geom_before_extension']),
    );
    expect(await columns('requests', 'measurements')).toEqual([
      'captured_on',
      'created_at',
      'created_by',
      'created_by_email',
      'geom',
      'id',
      'kind',
      'label',
      'oblique',
      'perimeter_m',
      'request_id',
      'survey_id',
      'value',
    ]);
    // A survey has a date from now on.
    await expect(
      q(
        `INSERT INTO geo.imagery_coverage (kind, geom, source, source_id)
         VALUES ('ortho', ST_Multi(ST_MakeEnvelope(18, -34, 18.1, -33.9, 4326)), 'test', 'c')`,
      ),
    ).rejects.toThrow(/captured_on/);

    while ((await applied()).includes('ImagerySurveys1764700000000'))
      await db.dataSource.undoLastMigration({ transaction: 'all' });
    expect(await columns('geo', 'imagery_coverage')).not.toContain('provider');
    expect(await columns('geo', 'buildings')).not.toContain('geom_before_extension');
    expect(await columns('requests', 'measurements')).toEqual([]);
    // The dates stay: they are the survey's, whatever the migration gave the undated one.
    expect(await q(`SELECT count(*)::int AS n FROM geo.imagery_coverage WHERE captured_on IS NULL`)).toEqual([
      { n: 0 },
    ]);
    await db.dataSource.runMigrations({ transaction: 'all' });
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
