import { createDataSource } from './data-source';
import { createTestDatabase, type TestDatabase } from './testing';

describe('createDataSource', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('applies the given PostgreSQL settings to its connections', async () => {
    const dataSource = createDataSource(db.url, {
      settings: { max_parallel_workers_per_gather: 0, statement_timeout: '5s' },
    });
    await dataSource.initialize();
    try {
      const [{ max_parallel_workers_per_gather }] = await dataSource.query(
        'SHOW max_parallel_workers_per_gather',
      );
      const [{ statement_timeout }] = await dataSource.query('SHOW statement_timeout');
      expect([max_parallel_workers_per_gather, statement_timeout]).toEqual(['0', '5s']);
    } finally {
      await dataSource.destroy();
    }
  });

  it('refuses what is not a setting', () => {
    expect(() => createDataSource(db.url, { settings: { "work_mem = '1GB'; --": 1 } })).toThrow(
      'Not a PostgreSQL setting',
    );
    expect(() => createDataSource(db.url, { settings: { work_mem: '1GB -c x=y' } })).toThrow(
      'Not a PostgreSQL setting',
    );
  });
});
