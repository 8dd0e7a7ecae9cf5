import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { GEOMETRY, upsertRows, type UpsertColumn } from './upsert';

const PLACE_COLUMNS: UpsertColumn[] = [
  { name: 'kind', type: 'text' },
  { name: 'name', type: 'text' },
  { name: 'population', type: 'int4' },
  { name: 'point', type: 'text', expression: GEOMETRY.point },
  { name: 'source', type: 'text' },
  { name: 'source_id', type: 'text' },
];

const point = (lng: number, lat: number) => JSON.stringify({ type: 'Point', coordinates: [lng, lat] });

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('upsertRows', () => {
  it('inserts, then updates the same rows by (source, source_id), keeping their ids', async () => {
    const first = await upsertRows(db.dataSource, 'geo.places', PLACE_COLUMNS, [
      ['town', 'Stellenbosch', 77_000, point(18.86, -33.93), 'test', 'stb'],
      ['town', 'Paarl', 112_000, point(18.97, -33.73), 'test', 'paarl'],
    ]);
    expect(first).toHaveLength(2);

    // Through a plain pg client this time, in small batches.
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const batches: number[] = [];
    try {
      const second = await upsertRows(
        client,
        'geo.places',
        PLACE_COLUMNS,
        [
          ['town', 'Stellenbosch', 80_000, point(18.86, -33.93), 'test', 'stb'],
          ['town', 'Paarl', 115_000, point(18.97, -33.73), 'test', 'paarl'],
          ['town', 'Franschhoek', 20_000, point(19.12, -33.91), 'test', 'fhk'],
        ],
        { batchSize: 2, onBatch: (written) => batches.push(written) },
      );
      expect(second.slice(0, 2)).toEqual(first);
      expect(second).toHaveLength(3);
      expect(batches).toEqual([2, 3]);
    } finally {
      await client.end();
    }
    const rows = await db.dataSource.query(
      `SELECT name, population, ST_X(point) AS lng FROM geo.places WHERE source = 'test' ORDER BY name`,
    );
    expect(rows).toEqual([
      { name: 'Franschhoek', population: 20_000, lng: 19.12 },
      { name: 'Paarl', population: 115_000, lng: 18.97 },
      { name: 'Stellenbosch', population: 80_000, lng: 18.86 },
    ]);
  });

  it('sends undefined as NULL and refuses rows the table refuses', async () => {
    const columns: UpsertColumn[] = [
      { name: 'street_code', type: 'text' },
      { name: 'box_code', type: 'text' },
      { name: 'suburb', type: 'text' },
      { name: 'source', type: 'text' },
      { name: 'source_id', type: 'text' },
    ];
    await upsertRows(db.dataSource, 'geo.postal_codes', columns, [
      ['7600', undefined, 'Stellenbosch', 'test', '1'],
    ]);
    const [row] = await db.dataSource.query(`SELECT street_code, box_code FROM geo.postal_codes`);
    expect(row).toEqual({ street_code: '7600', box_code: null });
    await expect(
      upsertRows(db.dataSource, 'geo.postal_codes', columns, [['76', '7599', 'Stellenbosch', 'test', '2']]),
    ).rejects.toThrow(/postal_codes_street_code_digits/);
  });
});
