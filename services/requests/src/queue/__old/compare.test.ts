import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { openDatabase } from '../../database';
import { NO_FILTERS, parseRequestFilters, type ParsedRequestFilters } from '../filters';
import { requestPage, settleKeptLists, type SortKey } from '../pager';
import * as old from './pager';
import * as oldFilters from './filters';

jest.setTimeout(600_000);
let db: TestDatabase;
let ds: DataSource;
beforeAll(async () => {
  db = await createTestDatabase({ seed: false });
  ds = await openDatabase(db.url);
});
afterAll(async () => {
  await settleKeptLists(ds);
  await old.settleKeptLists(ds);
  await ds?.destroy();
  await db?.drop();
});
const STREETS = ['Main', 'Church', 'Kloof', 'Long'];
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


it('reads every page with the same statements as before', async () => {
  await insertRequests(400, 3);
  let log: string[] = [];
  const query = ds.query.bind(ds);
  ds.query = ((sql: string, params?: unknown[]) => {
    log.push(JSON.stringify([sql, params]));
    return query(sql, params);
  }) as DataSource['query'];
  const filterQueries: Record<string, string>[] = [
    {},
    { status: 'New,Query' },
    { request_type: 'SAVI' },
    { client: 'Insurer_1%' },
    { client_reference: 'x' },
    { cantlocate: 'Yes', priority: 'No' },
    { start_date: '2026-01-01', end_date: '2026-01-02' },
    { user_id: '0cc175b9-c0f1-b6a8-31c3-99e269772661' },
  ];
  const sorts: SortKey[][] = [
    [{ field: 'created', descending: true }],
    [
      { field: 'priority', descending: true },
      { field: 'created', descending: true },
    ],
    [{ field: 'client', descending: false }],
    [{ field: 'client', descending: true }],
    [{ field: 'timeInQueue', descending: true }],
    [{ field: 'rve', descending: false }],
    [
      { field: 'status', descending: false },
      { field: 'user', descending: true },
    ],
  ];
  let compared = 0;
  for (const options of [{}, { wait: true, checkpointStep: 7, keptMatchesLimit: 40 }, { plain: true }])
    for (const raw of filterQueries)
      for (const sort of sorts)
        for (const ownerId of [null, '0cc175b9-c0f1-b6a8-31c3-99e269772661'])
          for (const page of [1, 4, 30]) {
            const filters: ParsedRequestFilters = { ...NO_FILTERS, ...parseRequestFilters(raw) };
            expect(oldFilters.parseRequestFilters(raw)).toEqual(filters);
            const input = { filters, ownerId, sort, page, limit: 10 };
            const before: string[] = (log = []);
            const a = await old.requestPage(ds, input, options);
            await old.settleKeptLists(ds);
            const after: string[] = (log = []);
            const b = await requestPage(ds, input, options);
            await settleKeptLists(ds);
            expect([raw, sort, options, page, after.sort()]).toEqual([raw, sort, options, page, before.sort()]);
            expect(b.total).toBe(a.total);
            expect(b.docs.map((d) => d.id)).toEqual(a.docs.map((d) => d.id));
            compared++;
          }
  // The cursor and the status counts.
  for (const raw of filterQueries) {
    const filters = parseRequestFilters(raw);
    const before: string[] = (log = []);
    for await (const rows of old.requestRowsCursor(ds, { filters, ownerId: null, sort: sorts[0], ids: undefined }))
      void rows;
    const after: string[] = (log = []);
    const { requestRowsCursor } = await import('../pager');
    for await (const rows of requestRowsCursor(ds, { filters, ownerId: null, sort: sorts[0] })) void rows;
    expect(after).toEqual(before);
    compared++;
  }
  console.log('compared', compared);
});
