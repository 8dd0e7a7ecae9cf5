import { createTestDatabase, type TestDatabase } from './testing';

/**
 * Migration AvsEditor1764600000000: the parcels' address counts the editor's queues stand on stay exact
 * whatever writes geo.addresses (single rows, batches, upserts, moves, deletes, truncation), and the
 * audit and hold tables exist.
 */

let db: TestDatabase;
const q = <T = unknown>(sql: string, params: unknown[] = []) =>
  db.dataSource.query(sql, params) as Promise<T>;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

const square = (x: number) => `ST_Multi(ST_MakeEnvelope(${x}, -34, ${x + 0.001}, -33.999, 4326))`;

async function parcel(key: string, x: number): Promise<string> {
  const [row] = await q<{ id: string }[]>(
    `INSERT INTO geo.parcels (parcel_number, geom, source, source_id) VALUES ($1, ${square(x)}, 'test', $1)
     RETURNING id::text`,
    [key],
  );
  return row.id;
}

async function counts(): Promise<Record<string, number>> {
  const rows = await q<{ source_id: string; address_count: number }[]>(
    `SELECT source_id, address_count FROM geo.parcels WHERE source = 'test' ORDER BY source_id`,
  );
  return Object.fromEntries(rows.map((row) => [row.source_id, row.address_count]));
}

const addresses = (rows: [string, string | null][]) =>
  q(
    `INSERT INTO geo.addresses (house_number, point, parcel_id, source, source_id)
     SELECT '1', ST_SetSRID(ST_MakePoint(18.0005, -33.9995), 4326), r.parcel_id, 'test', r.key
     FROM unnest($1::text[], $2::bigint[]) AS r(key, parcel_id)
     ON CONFLICT (source, source_id) DO UPDATE SET parcel_id = EXCLUDED.parcel_id`,
    [rows.map(([key]) => key), rows.map(([, parcelId]) => parcelId)],
  );

it('keeps each parcel’s address count through inserts, upserts, moves, deletes and truncation', async () => {
  const a = await parcel('a', 18);
  const b = await parcel('b', 18.01);
  await parcel('c', 18.02);
  expect(await counts()).toEqual({ a: 0, b: 0, c: 0 });

  await addresses([
    ['1', a],
    ['2', a],
    ['3', a],
    ['4', b],
    ['5', null],
  ]);
  expect(await counts()).toEqual({ a: 3, b: 1, c: 0 });

  // The generator's re-run: the same rows upserted in place, one of them moved to another parcel.
  await addresses([
    ['1', a],
    ['2', a],
    ['3', b],
    ['4', b],
    ['5', null],
  ]);
  expect(await counts()).toEqual({ a: 2, b: 2, c: 0 });

  await q(`UPDATE geo.addresses SET parcel_id = NULL WHERE source_id = '1'`);
  await q(`UPDATE geo.addresses SET quality = 25`);
  expect(await counts()).toEqual({ a: 1, b: 2, c: 0 });

  await q(`DELETE FROM geo.addresses WHERE source_id IN ('2', '4')`);
  expect(await counts()).toEqual({ a: 0, b: 1, c: 0 });

  // A deleted parcel lets go of its addresses (ON DELETE SET NULL): the others are untouched.
  await q(`DELETE FROM geo.parcels WHERE id = $1`, [b]);
  expect(await counts()).toEqual({ a: 0, c: 0 });

  await addresses([['6', a]]);
  await q('TRUNCATE geo.addresses CASCADE');
  expect(await counts()).toEqual({ a: 0, c: 0 });
});

it('puts a parcel in the queue indexes by its count, review and codes', async () => {
  const plans = async (where: string) =>
    JSON.stringify(
      await q(`EXPLAIN (FORMAT JSON) SELECT id FROM geo.parcels WHERE ${where} ORDER BY id LIMIT 1`),
    );
  await q('SET enable_seqscan = off');
  expect(
    await plans(
      'address_count > 1 AND reviewed_at IS NULL AND parcel_type_id NOT IN (90, 100) AND data_quality_id NOT IN (-10, -90)',
    ),
  ).toContain('parcels_multi_address_queue_idx');
  expect(
    await plans(
      'address_count = 0 AND parcel_type_id NOT IN (90, 100) AND data_quality_id NOT IN (-10, -90)',
    ),
  ).toContain('parcels_no_address_queue_idx');
  expect(await plans('(parcel_type_id = 90 OR data_quality_id = -10)')).toContain(
    'parcels_validate_queue_idx',
  );
  await q('RESET enable_seqscan');
});

it('has the audit trail and the request holds', async () => {
  const tables = await q<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'avs_editor' ORDER BY table_name`,
  );
  expect(tables.map((row) => row.table_name)).toEqual(['edits', 'request_holds']);
  await expect(
    q(`INSERT INTO avs_editor.edits (user_id, user_email, user_name, action, entity, entity_id)
       VALUES (gen_random_uuid(), 'a@b', 'A', 'x', 'street', '1')`),
  ).rejects.toThrow(/edits_entity_check/);
});
