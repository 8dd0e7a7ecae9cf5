import { createTestDatabase, type TestDatabase } from '@portal/db';
import { findSharedDataDir } from '../importers/shared-data';
import { importRiskLayers, riskLayersEmpty } from './import';
import { RISK_LAYERS } from './layers';

// The team's reference data (../shared/data) is not part of the repository: a machine without it skips.
const dir = findSharedDataDir();
const describeWithData = dir ? describe : describe.skip;
if (!dir) {
  console.warn(
    'risk layers import test skipped: no ../shared/data folder (or $GEO_SHARED_DATA_DIR) on this machine',
  );
}

const TABLES = [
  'police_stations',
  'police_precincts',
  'crime_series',
  'station_population',
  'elevation_grid',
  'elevation_grid_meta',
  'rivers',
  'lakes',
  'coastline',
  'fire_stations',
  'fire_coverage',
  'soil_sites',
  'import_runs',
];

describeWithData('risk layers import (../shared/data)', () => {
  let database: TestDatabase;
  const query = (sql: string, params?: unknown[]) => database.dataSource.query(sql, params);
  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES)
      out[table] = (await query(`SELECT count(*)::int AS n FROM risk.${table}`))[0].n;
    return out;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('loads every layer, and loading again replaces them (same counts, no copies)', async () => {
    expect(await riskLayersEmpty(database.dataSource)).toBe(true);
    const lines: string[] = [];
    const first = await importRiskLayers(database.dataSource, dir, { log: (line) => lines.push(line) });
    expect(first.skipped).toEqual([]);
    expect(lines).toHaveLength(RISK_LAYERS.length);
    expect(lines[0]).toMatch(
      /^risk: police_stations: 1\s132 rows from crime\/saps_stations_2014\.geojson in/,
    );
    // The data README's counts.
    expect(first.loaded).toEqual({
      police_stations: 1132,
      police_precincts: 151,
      crime_series: 17265, // 1 151 stations × 15 years
      station_population: 1167,
      elevation_grid: 2478, // 42 × 59
      rivers: 22, // 23 less the one without a geometry
      lakes: 5,
      coastline: 2,
      fire_stations: 32,
      soil_sites: 1042,
    });
    const before = await counts();
    expect(before).toMatchObject({
      crime_series: 17265,
      elevation_grid: 2478,
      elevation_grid_meta: 1,
      fire_coverage: 1,
      import_runs: RISK_LAYERS.length,
    });
    expect(before.rivers).toBeGreaterThan(22); // cut into pieces

    const second = await importRiskLayers(database.dataSource, dir);
    expect(second.loaded).toEqual(first.loaded);
    expect(await counts()).toEqual(before);
    expect(await riskLayersEmpty(database.dataSource)).toBe(false);
    // How long it takes is measured where it is timed (npm start's prepare logs it), not asserted here.
    expect(first.seconds).toBeGreaterThan(0);
  }, 60_000);

  it('stores the grid with its origin, step and size, and the runs name their dataset', async () => {
    const [meta] = await query('SELECT * FROM risk.elevation_grid_meta');
    expect(meta.cols).toBe(42);
    expect(meta.rows).toBe(59);
    expect(meta.origin_lon).toBeCloseTo(18.9, 9);
    expect(meta.origin_lat).toBeCloseTo(-34.1833333333333, 9);
    expect(meta.step_lon).toBeCloseTo(1 / 60, 9);
    expect(meta.step_lat).toBeCloseTo(1 / 60, 9);
    // The CSV's first line: 18.9, -33.2166666666667, 68 (the north-west corner: column 0, row 58).
    const [nw] = await query('SELECT elevation FROM risk.elevation_grid WHERE i = 0 AND j = 58');
    expect(nw.elevation).toBe(68);
    const [run] = await query(`SELECT * FROM risk.import_runs WHERE layer = 'crime_series'`);
    expect(run).toMatchObject({ dataset_date: '2008/09–2022/23', rows_loaded: 17265 });
    expect(run.source_file).toBe('crime/saps_crime_by_station_2008_2023.csv');
    // The Latin-1 station name of the SAPS file is read right.
    const [pella] = await query(`SELECT station FROM risk.crime_series WHERE station_key = 'pella' LIMIT 1`);
    expect(pella.station).toBe('Pella');
  });
});
