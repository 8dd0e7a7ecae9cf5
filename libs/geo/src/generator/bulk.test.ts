/**
 * The bulk path (COPY, indexes set aside, a checkpoint per town) writes the rows the upsert path writes,
 * leaves the schema as it found it, and goes on where it stopped after its connections are killed; its
 * worker threads (the default) write the rows it writes in one thread.
 */
import { Worker } from 'node:worker_threads';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { Client } from 'pg';
import { generateGeodata, type GenerateResult } from './generate';
import { WORKER_APPLICATION_NAME } from './threads';

const TOWNS = ['Stellenbosch', 'Pretoria', 'Durban'];
const OPTIONS = { scale: 2000, seed: 'bulk', towns: TOWNS };

/** Columns that hold ids of other rows: compared by the referenced row's source_id (ids may differ). */
const REFERENCES: Record<string, Record<string, string>> = {
  places: { parent_id: 'places' },
  postal_codes: { place_id: 'places' },
  streets: { suburb_id: 'places', town_id: 'places' },
  parcels: { town_id: 'places', suburb_id: 'places' },
  addresses: { street_id: 'streets', parcel_id: 'parcels' },
  pois: { address_id: 'addresses', parcel_id: 'parcels', parent_id: 'pois' },
  buildings: { parcel_id: 'parcels' },
  farms: { parcel_id: 'parcels' },
  imagery_coverage: {},
};

jest.setTimeout(120_000);

describe('generateGeodata, bulk path', () => {
  let upserted: TestDatabase;
  let bulk: TestDatabase;
  let single: TestDatabase;
  let killed: Error | undefined;
  let resumed: GenerateResult;

  const one = async (database: TestDatabase, sql: string) =>
    Object.values((await database.dataSource.query(sql))[0])[0];

  /** Every generator row of every table, without ids, references as the referenced rows' source ids. */
  const content = async (database: TestDatabase) => {
    const digests: Record<string, unknown> = {};
    for (const [table, refs] of Object.entries(REFERENCES)) {
      const columns = Object.keys(refs);
      const referenced = columns
        .map(
          (column) => `'${column}', (SELECT r.source_id FROM geo.${refs[column]} r WHERE r.id = t.${column})`,
        )
        .join(', ');
      digests[table] = await one(
        database,
        `SELECT count(*)::text || ' ' || md5(string_agg(
                  ((to_jsonb(t) - ${['id', ...columns].map((c) => `'${c}'`).join(' - ')})
                   || jsonb_build_object(${referenced}))::text, '|' ORDER BY t.source_id))
           FROM geo.${table} t WHERE source = 'generator'`,
      );
    }
    return digests;
  };

  /** The geo schema's indexes, constraints and enabled triggers. */
  const schema = async (database: TestDatabase) =>
    database.dataSource.query(
      `SELECT 'index' AS kind, indexdef AS def FROM pg_indexes WHERE schemaname = 'geo'
       UNION ALL
       SELECT 'constraint', conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) || ' ' || convalidated
         FROM pg_constraint WHERE connamespace = 'geo'::regnamespace
       UNION ALL
       SELECT 'trigger', tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text
         FROM pg_trigger WHERE NOT tgisinternal AND tgrelid::regclass::text LIKE 'geo.%'
       ORDER BY 1, 2`,
    );

  beforeAll(async () => {
    [upserted, bulk, single] = await Promise.all([
      createTestDatabase(),
      createTestDatabase(),
      createTestDatabase(),
    ]);
    await generateGeodata(upserted.dataSource, { ...OPTIONS, bulk: 'never' });
    const one = new Client({ connectionString: single.url });
    await one.connect();
    try {
      await generateGeodata(one, { ...OPTIONS, bulk: 'always', threads: 1 });
    } finally {
      await one.end();
    }

    // A bulk run whose connections (its own and its workers') are killed once its first town is committed.
    const first = new Client({ connectionString: bulk.url });
    await first.connect();
    first.on('error', () => undefined); // the termination, reported as the run's failure
    const [{ pid }] = await bulk.dataSource.query('SELECT pg_backend_pid() AS pid');
    const backend = (await first.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    expect(backend).not.toBe(pid);
    let killing = false;
    killed = await generateGeodata(first, {
      ...OPTIONS,
      bulk: 'always',
      // Two workers: when the first town commits, the third is still being laid out (not committed).
      threads: 2,
      onProgress: (progress) => {
        if (progress.towns < 1 || killing) return;
        killing = true;
        // Killed before this thread orders the next commit: the kill waits for nothing (a kill sent
        // asynchronously raced the next towns' commits, and lost now and then once towns were fast).
        terminateNow(bulk.url, backend);
      },
    }).then(
      () => undefined,
      (err: Error) => err,
    );
    await first.end().catch(() => undefined);

    const second = new Client({ connectionString: bulk.url });
    await second.connect();
    try {
      resumed = await generateGeodata(second, OPTIONS);
    } finally {
      await second.end();
    }
  });
  afterAll(async () => {
    await upserted?.drop();
    await bulk?.drop();
    await single?.drop();
  });

  it('was stopped by the kill and went on from its checkpoint', () => {
    expect(killed).toBeInstanceOf(Error);
    expect(resumed.path).toBe('bulk');
    expect(resumed.resumedAddresses).toBeGreaterThan(0);
    expect(resumed.resumedAddresses).toBeLessThan(resumed.counts.addresses);
  });

  it('writes the rows the upsert path writes (references, address counts and all)', async () => {
    expect(await content(bulk)).toEqual(await content(upserted));
  });

  it('writes the same rows in worker threads as in one thread', async () => {
    expect(await content(bulk)).toEqual(await content(single));
  });

  it('puts back every index, constraint (validated) and trigger it set aside', async () => {
    expect(await schema(bulk)).toEqual(await schema(upserted));
  });

  it('records one finished run and leaves the id sequences past its ids', async () => {
    expect(
      await bulk.dataSource.query(
        `SELECT input, finished_at IS NOT NULL AS finished, loaded ? 'bulk' AS checkpoint FROM geo.import_runs`,
      ),
    ).toEqual([
      {
        input: 'generator --scale 2000 --seed bulk --towns Stellenbosch,Pretoria,Durban',
        finished: true,
        checkpoint: false,
      },
    ]);
    const [{ id }] = await bulk.dataSource.query(
      `INSERT INTO geo.addresses (point, source, source_id) VALUES (ST_Point(18.86, -33.93, 4326), 'test', 'one')
       RETURNING id::float8 AS id`,
    );
    expect(id).toBeGreaterThan(
      Number(await one(bulk, `SELECT max(id) FROM geo.addresses WHERE source = 'generator'`)),
    );
  });

  it('runs again over its own rows through the upsert path, changing nothing', async () => {
    const before = await content(bulk);
    const again = await generateGeodata(bulk.dataSource, OPTIONS);
    expect(again.path).toBe('upsert');
    expect(await content(bulk)).toEqual(before);
  });
});

/**
 * Terminates the run's backend and its workers' backends, blocking this thread until it is done: the
 * statement runs in a worker thread of its own while this one waits on a shared flag.
 */
function terminateNow(url: string, backend: number): void {
  const done = new Int32Array(new SharedArrayBuffer(4));
  new Worker(
    `const { workerData } = require('node:worker_threads');
     const { Client } = require(${JSON.stringify(require.resolve('pg'))});
     const { url, backend, application, done } = workerData;
     const client = new Client({ connectionString: url });
     client
       .connect()
       .then(() =>
         client.query(
           'SELECT pg_terminate_backend(pid) FROM pg_stat_activity ' +
             'WHERE pid = $1 OR (datname = current_database() AND application_name = $2)',
           [backend, application],
         ),
       )
       .finally(() => client.end())
       .finally(() => {
         Atomics.store(done, 0, 1);
         Atomics.notify(done, 0);
       });`,
    { eval: true, workerData: { url, backend, application: WORKER_APPLICATION_NAME, done } },
  );
  if (Atomics.wait(done, 0, 0, 30_000) === 'timed-out') throw new Error('The kill did not finish in 30 s');
}
