import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { REQUEST_STATUSES, type RequestRow, type RequestSortField } from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { openDatabase } from './database';
import { NO_FILTERS, type ParsedRequestFilters } from './queue/filters';
import { keptListKinds, requestPage, settleKeptLists, type PagerInput, type SortKey } from './queue/pager';

// The request pager at scale (issue 11): the kept totals and the list revision stay exact across inserts,
// deletes, changes of the grouped columns and concurrent writers, and every page read from kept lists
// (sorted matches, checkpoints) equals the plain ORDER BY … OFFSET page, for random sorts, filters and
// pages. Small limits (a checkpoint every 7 rows, at most 40 kept matches) reach every way with few rows.

jest.setTimeout(120_000);

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase({ seed: false });
  ds = await openDatabase(db.url);
});

afterAll(async () => {
  if (ds) await settleKeptLists(ds);
  await ds?.destroy();
  await db?.drop();
});

const STREETS = ['Main', 'Church', 'Kloof', 'Long'];

/** `n` requests from `seed`: types, statuses, flags, NULLs and equal keys (created_at, names) spread. */
async function insertRequests(
  n: number,
  seed: number,
  target: DataSource | { query: DataSource['query'] } = ds,
) {
  await target.query(
    `INSERT INTO requests.requests
       (request_type, status, user_id, user_name, user_email, group_name, address, cant_locate, priority,
        created_at, delivered_at, report_invoice_number, number_of_buildings, unit_price, rve_total)
     SELECT (ARRAY['SAVI','AVS','IRIS'])[1 + (i * 7 + $2) % 3],
            (ARRAY['New','Ready for QS','In progress','Pending','Cancelled_rejected','QC check','Query',
                   'Dispatch','Delivered','Finalised'])[1 + (i * 13 + $2) % 10],
            md5('u' || (i % 5))::uuid, 'User ' || (i % 5), 'u' || (i % 5) || '@test',
            CASE WHEN i % 6 = 0 THEN NULL ELSE 'Insurer ' || (i % 4) END,
            (1 + i % 9) || ' ' || ($3::text[])[1 + i % 4] || ' Street',
            (i + $2) % 9 = 0, (i + $2) % 5 = 0,
            timestamptz '2026-01-01' + ((i * 31 + $2) % 40) * interval '1 hour',
            CASE WHEN $4 AND i % 11 = 0 THEN timestamptz '2026-03-01' END,
            CASE WHEN i % 3 = 0 THEN 'INV-' || (i % 7) END,
            CASE WHEN i % 4 <> 0 THEN 1 + i % 3 END, CASE WHEN i % 5 <> 0 THEN 1000 + (i % 4) * 250 END,
            CASE WHEN i % 2 = 0 THEN 100000 + (i % 6) * 5000 END
       FROM generate_series(1, $1::int) AS i`,
    [n, seed, STREETS, seed % 2 === 0],
  );
}

/** The kept totals and what they should be (a count over the rows). */
async function totalsAgree(): Promise<void> {
  const kept = await ds.query(
    `SELECT request_type, cant_locate, status, priority, delivered, requests::int AS n
       FROM requests.request_totals WHERE requests > 0 ORDER BY 1, 2, 3, 4, 5`,
  );
  const counted = await ds.query(
    `SELECT request_type, cant_locate, status, priority, delivered_at IS NOT NULL AS delivered, count(*)::int AS n
       FROM requests.requests GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
  );
  expect(kept).toEqual(counted);
}

const revision = async () =>
  Number((await ds.query('SELECT revision FROM requests.request_list_revision'))[0].revision);

describe('the kept totals and the list revision', () => {
  afterAll(() => ds.query('DELETE FROM requests.requests'));

  it('stay exact across inserts, deletes and changes of the grouped columns', async () => {
    const before = await revision();
    await insertRequests(300, 1);
    await totalsAgree();
    expect(await revision()).toBe(before + 1);
    await ds.query(`UPDATE requests.requests SET status = 'Dispatch' WHERE status = 'QC check'`);
    await ds.query(`UPDATE requests.requests SET request_type = 'AVS', priority = NOT priority
                    WHERE created_at < timestamptz '2026-01-01 10:00'`);
    await ds.query(`UPDATE requests.requests SET cant_locate = NOT cant_locate, delivered_at = now()
                    WHERE address LIKE '%Kloof%'`);
    await totalsAgree();
    await ds.query(`DELETE FROM requests.requests WHERE status IN ('New', 'Query')`);
    await totalsAgree();
    const moved = await revision();
    // A column no sort or filter reads: the kept lists stay good.
    await ds.query(`UPDATE requests.requests SET additional = 'note', updated_at = now()`);
    expect(await revision()).toBe(moved);
    await ds.query(`UPDATE requests.requests SET address = address || ' ' WHERE status = 'Pending'`);
    expect(await revision()).toBe(moved + 1);
    await ds.query('TRUNCATE requests.requests CASCADE');
    await totalsAgree();
    expect(
      (await ds.query('SELECT count(*)::int AS n FROM requests.request_totals WHERE requests > 0'))[0].n,
    ).toBe(0);
  });

  it('stay exact with concurrent writers (inserts, moves and deletes in overlapping transactions)', async () => {
    await insertRequests(200, 2);
    const writer = async (seed: number) => {
      const runner = ds.createQueryRunner();
      await runner.connect();
      try {
        for (let round = 0; round < 4; round++) {
          await runner.startTransaction();
          await insertRequests(20, seed * 10 + round, runner);
          await runner.query(
            `UPDATE requests.requests SET status = $1 WHERE id IN (
               SELECT id FROM requests.requests ORDER BY md5(id::text || $2) LIMIT 15)`,
            [REQUEST_STATUSES[(seed + round) % REQUEST_STATUSES.length], `${seed}-${round}`],
          );
          await runner.query(
            `DELETE FROM requests.requests WHERE id IN (
               SELECT id FROM requests.requests ORDER BY md5(id::text || $1) LIMIT 5)`,
            [`d${seed}-${round}`],
          );
          if (round === 2) await runner.rollbackTransaction();
          else await runner.commitTransaction();
        }
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    };
    await Promise.all([1, 2, 3, 4].map(writer));
    await totalsAgree();
  });
});

const SORT_FIELDS: RequestSortField[] = [
  'created',
  'priority',
  'status',
  'type',
  'gripReference',
  'user',
  'address',
  'client',
  'timeInQueue',
  'firstQS',
  'invoice',
  'rve',
  'reportFee',
  'numberOfBuildings',
  'unitPrice',
];

const FILTERS: Partial<ParsedRequestFilters>[] = [
  {},
  { requestTypes: ['SAVI'], cantLocate: false },
  { statuses: ['QC check'] },
  { statuses: ['New', 'Pending', 'Dispatch'], priority: false },
  { address: 'kloof' },
  { from: new Date('2026-01-01T05:00:00Z'), to: new Date('2026-01-02T03:00:00Z') },
  { client: 'insurer 1', requestTypes: ['AVS', 'IRIS'] },
];

const sortArbitrary: fc.Arbitrary<SortKey[]> = fc.oneof(
  fc.constant([
    { field: 'priority', descending: true },
    { field: 'created', descending: true },
  ] as SortKey[]),
  fc.record({ field: fc.constantFrom(...SORT_FIELDS), descending: fc.boolean() }).map((key) => [key]),
  fc
    .tuple(fc.constantFrom(...SORT_FIELDS), fc.constantFrom(...SORT_FIELDS), fc.boolean(), fc.boolean())
    .map(([a, b, da, db]) => [
      { field: a, descending: da },
      { field: b, descending: db },
    ]),
);

const LIMITS = { checkpointStep: 7, keptMatchesLimit: 40 };
const ids = (page: { docs: { requestID: string }[] }) => page.docs.map((row) => row.requestID);

describe('pages from kept lists', () => {
  beforeAll(async () => {
    await ds.query('TRUNCATE requests.requests CASCADE');
    await insertRequests(260, 3);
    await insertRequests(90, 4);
  });

  it('equal the plain OFFSET pages for random sorts, filters and pages, across writes', async () => {
    let writes = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILTERS),
        sortArbitrary,
        fc.constantFrom(1, 3, 10, 25),
        fc.nat({ max: 1000 }),
        fc.boolean(),
        async (filter, sort, limit, where, write) => {
          if (write) {
            // A write between pages: the kept lists of the previous revision must not be used.
            await ds.query(
              `UPDATE requests.requests SET status = 'Query', address = address || 'x', priority = NOT priority
                WHERE id = (SELECT id FROM requests.requests ORDER BY md5(id::text || $1) LIMIT 1)`,
              [String(writes++)],
            );
          }
          const base: Omit<PagerInput, 'page'> = {
            filters: { ...NO_FILTERS, ...filter },
            ownerId: null,
            sort,
            limit,
          };
          const plain = await requestPage(ds, { ...base, page: 1 }, { plain: true });
          const last = Math.max(1, Math.ceil(plain.total / limit));
          const page = 1 + Math.floor((where / 1000) * (last + 1));
          const expected = await requestPage(ds, { ...base, page }, { plain: true });
          const kept = await requestPage(ds, { ...base, page }, { ...LIMITS, wait: true });
          expect(kept.total).toBe(expected.total);
          expect(ids(kept)).toEqual(ids(expected));
          // Again: now certainly from the kept list.
          const again = await requestPage(ds, { ...base, page }, { ...LIMITS, wait: true });
          expect(ids(again)).toEqual(ids(expected));
        },
      ),
      { numRuns: 150 },
    );
    await totalsAgree();
    // Both kinds of kept list served pages.
    const kinds = keptListKinds(ds);
    expect(kinds.checkpoints).toBeGreaterThan(0);
    expect(kinds.matches).toBeGreaterThan(0);
  });

  it('read a deep page from checkpoints and a filter with few matches from its sorted ids', async () => {
    const base: Omit<PagerInput, 'page'> = {
      filters: NO_FILTERS,
      ownerId: null,
      sort: [{ field: 'client', descending: false }],
      limit: 5,
    };
    for (const page of [1, 2, 30, 55, 69, 70, 71]) {
      const expected = await requestPage(ds, { ...base, page }, { plain: true });
      const kept = await requestPage(ds, { ...base, page }, { ...LIMITS, wait: true });
      expect(kept.total).toBe(expected.total);
      expect(ids(kept)).toEqual(ids(expected));
    }
    const kloof = {
      ...base,
      filters: { ...NO_FILTERS, address: 'kloof' },
      sort: [{ field: 'address', descending: true }],
    } as Omit<PagerInput, 'page'>;
    const all = await requestPage(ds, { ...kloof, page: 1, limit: 1000 }, { plain: true });
    const paged = [];
    for (let page = 1; page <= Math.ceil(all.total / 5); page++)
      paged.push(
        ...ids(
          await requestPage(
            ds,
            { ...kloof, page },
            { checkpointStep: 7, keptMatchesLimit: 1000, wait: true },
          ),
        ),
      );
    expect(paged).toEqual(ids(all));
  });

  it('read a page that starts at a checkpoint straight from the walk: the plain page, row for row', async () => {
    // Creation times with microseconds: the row's `created` (written by PostgreSQL) is the driver's Date
    // written by toISOString, milliseconds truncated the same way.
    await ds.query(
      `UPDATE requests.requests SET created_at = created_at + (abs(hashtext(id::text)) % 1000000) * interval '1 microsecond'`,
    );
    const createdAt = new Map(
      (
        (await ds.query('SELECT id, created_at FROM requests.requests')) as { id: string; created_at: Date }[]
      ).map((row) => [row.id, row.created_at.toISOString()]),
    );
    // Time in queue moves with the clock between two reads: compared apart.
    const whole = (page: { docs: RequestRow[] }) => page.docs.map(({ timeInQueue: _, ...row }) => row);
    const sorts: SortKey[][] = [
      [
        { field: 'priority', descending: true },
        { field: 'created', descending: true },
      ],
      [{ field: 'address', descending: false }],
      [{ field: 'rve', descending: true }],
    ];
    // The statements sent, to see that the pages came straight from the walk.
    const sent: string[] = [];
    const traced = new Proxy(ds, {
      get: (target, property) =>
        property === 'query'
          ? (sql: string, params?: unknown[]) => (sent.push(sql), target.query(sql, params))
          : Reflect.get(target, property),
    });
    const defaultView: ParsedRequestFilters = { ...NO_FILTERS, requestTypes: ['SAVI'], cantLocate: false };
    for (const filters of [NO_FILTERS, defaultView])
      for (const sort of sorts)
        // Pages of the checkpoints' step all start at one (the service's 1 000-row pages and step of 1 000).
        for (const limit of [7, 14]) {
          const base: Omit<PagerInput, 'page'> = { filters, ownerId: null, sort, limit };
          const first = await requestPage(ds, { ...base, page: 1 }, { plain: true });
          const last = Math.ceil(first.total / limit);
          for (const page of [1, 2, Math.ceil(last / 2), last]) {
            const expected = await requestPage(ds, { ...base, page }, { plain: true });
            const kept = await requestPage(traced, { ...base, page }, { ...LIMITS, wait: true });
            expect(kept.total).toBe(expected.total);
            expect(whole(kept)).toEqual(whole(expected));
            for (const [i, row] of kept.docs.entries()) {
              expect(Math.abs(row.timeInQueue - expected.docs[i].timeInQueue)).toBeLessThanOrEqual(1);
              expect(row.created).toBe(createdAt.get(row.requestID));
            }
          }
        }
    await settleKeptLists(ds);
    const rowReads = sent.filter((sql) => sql.includes('reference_list'));
    const twoStep = rowReads.filter((sql) => /\) page\s+JOIN/.test(sql)).length;
    // Every page of the two sorts without a key that can be NULL read its rows straight from the walk (32),
    // and rve's first pages; its pages from a checkpoint with NULLs to come (the values and the NULLs, two
    // ranges merged) the two-step way.
    expect(rowReads.length).toBe(48);
    expect(rowReads.length - twoStep).toBeGreaterThan(32);
    expect(twoStep).toBeGreaterThan(0);
  });
});
