import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { deferSchema } from '../generator/bulk';
import { importOsm } from './import';
import { NodeCoordinates } from './node-coordinates';
import { type OsmNode, type OsmWay, writeOsmPbf } from './pbf-writer';

// Around Stellenbosch: 1e-4 degrees is about 10 m.
const LON = 18.86;
const LAT = -33.935;

/** A closed square way of four new nodes, nodes ids from `firstNode`. */
function square(
  firstNode: number,
  lon: number,
  lat: number,
  size = 2e-4,
): { nodes: OsmNode[]; refs: number[] } {
  const nodes = [
    { id: firstNode, lon, lat },
    { id: firstNode + 1, lon: lon + size, lat },
    { id: firstNode + 2, lon: lon + size, lat: lat + size },
    { id: firstNode + 3, lon, lat: lat + size },
  ];
  return { nodes, refs: [firstNode, firstNode + 1, firstNode + 2, firstNode + 3, firstNode] };
}

const church = {
  'addr:street': 'Church Street',
  'addr:suburb': 'Stellenbosch Central',
  'addr:city': 'Stellenbosch',
};

function extract(): { nodes: OsmNode[]; ways: OsmWay[] } {
  const house = square(100, LON + 0.001, LAT);
  const office = square(110, LON + 0.002, LAT);
  const open = square(120, LON + 0.003, LAT);
  const farm = square(130, LON - 0.05, LAT - 0.05, 0.01);
  const hospital = square(140, LON + 0.004, LAT);
  // A bow tie: its edges cross, ST_MakeValid splits it in two triangles.
  const bowTie: OsmNode[] = [
    { id: 150, lon: LON + 0.005, lat: LAT },
    { id: 151, lon: LON + 0.0054, lat: LAT + 0.0004 },
    { id: 152, lon: LON + 0.0054, lat: LAT },
    { id: 153, lon: LON + 0.005, lat: LAT + 0.0002 },
  ];
  const nodes: OsmNode[] = [
    { id: 1, lon: LON, lat: LAT, tags: { 'addr:housenumber': '12', ...church, 'addr:postcode': '7600' } },
    {
      id: 2,
      lon: LON + 0.0001,
      lat: LAT,
      tags: { 'addr:housenumber': '14A', ...church, 'addr:postcode': '760' },
    },
    {
      id: 3,
      lon: LON + 0.0002,
      lat: LAT,
      tags: { 'addr:housenumber': '16', ...church, 'addr:postcode': 'SW1A' },
    },
    { id: 4, lon: LON, lat: LAT + 0.001, tags: { 'addr:housenumber': '3', 'addr:city': 'Stellenbosch' } },
    { id: 5, lon: 2.35, lat: 48.85, tags: { 'addr:housenumber': '1', 'addr:street': 'Rue de Rivoli' } },
    { id: 6, lon: LON + 0.0003, lat: LAT + 0.0003, tags: { amenity: 'school', name: 'Paul Roos Gymnasium' } },
    {
      id: 7,
      lon: LON + 0.0004,
      lat: LAT,
      tags: { shop: 'supermarket', name: 'Spar Die Boord', 'addr:housenumber': '20', ...church },
    },
    { id: 8, lon: LON, lat: LAT, tags: { place: 'town', name: 'Stellenbosch', population: '77 476' } },
    { id: 9, lon: LON + 0.01, lat: LAT - 0.01, tags: { place: 'suburb', name: 'Die Boord' } },
    { id: 10, lon: LON, lat: LAT, tags: { place: 'village' } },
    { id: 11, lon: LON - 0.1, lat: LAT, tags: { place: 'farm', name: 'Blaauwklippen' } },
    { id: 12, lon: LON, lat: LAT, tags: { highway: 'traffic_signals' } },
    ...house.nodes,
    ...office.nodes,
    ...open.nodes,
    ...farm.nodes,
    ...hospital.nodes,
    ...bowTie,
  ];
  const ways: OsmWay[] = [
    {
      id: 1,
      refs: house.refs,
      tags: {
        building: 'house',
        'building:levels': '2',
        'addr:housenumber': '5',
        'addr:street': 'Dorp Street',
        'addr:city': 'Stellenbosch',
      },
    },
    { id: 2, refs: office.refs, tags: { building: 'office', height: '12 m', 'roof:shape': 'flat' } },
    { id: 3, refs: open.refs.slice(0, 4), tags: { building: 'yes' } },
    { id: 4, refs: farm.refs, tags: { landuse: 'farmland', name: 'Rietfontein 189 JR' } },
    { id: 5, refs: hospital.refs, tags: { amenity: 'hospital', name: 'Stellenbosch Hospital' } },
    { id: 6, refs: [100, 101, 999, 100], tags: { building: 'yes' } },
    { id: 7, refs: [150, 151, 152, 153, 150], tags: { building: 'yes' } },
    { id: 8, refs: farm.refs, tags: { landuse: 'farmland' } },
  ];
  return { nodes, ways };
}

describe('OpenStreetMap PBF import', () => {
  let database: TestDatabase;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'geo-osm-'));
    file = join(dir, 'stellenbosch.osm.pbf');
    await writeOsmPbf(file, extract(), 7);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  const query = (sql: string, params?: unknown[]) => database.dataSource.query(sql, params);

  it('loads addresses, streets, POIs, places, farms and buildings, and says what it rejected', async () => {
    const summary = await importOsm(database.dataSource, file);

    expect(summary.loaded).toEqual({ streets: 2, addresses: 5, pois: 3, places: 2, farms: 1, buildings: 3 });
    expect(summary.rejected).toEqual({
      'missing street': 1,
      'outside South Africa': 1,
      'place without a name': 1,
      'farm mapped as a point (geo.farms needs its area)': 1,
      'unclosed way': 1,
      'no coordinates (the way refers to nodes missing from the extract)': 1,
    });
    expect(summary.examples['outside South Africa']).toEqual(['node/5']);
    expect(summary.repaired).toEqual({ 'Self-intersection, made valid with ST_MakeValid': 1 });
    expect(summary.warnings).toEqual({ 'addr:postcode is not a South African postal code, left empty': 1 });

    const addresses = await query(
      `SELECT a.source_id, a.house_number, a.number_value, a.street_name, a.suburb, a.town, a.postal_code,
              s.name AS street, s.search_text, ST_X(a.point) AS lon, ST_Y(a.point) AS lat
       FROM geo.addresses a LEFT JOIN geo.streets s ON s.id = a.street_id ORDER BY a.source_id`,
    );
    const byId = Object.fromEntries(addresses.map((row: { source_id: string }) => [row.source_id, row]));
    expect(byId['node/1']).toMatchObject({
      house_number: '12',
      number_value: 12,
      street: 'Church Street',
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      postal_code: '7600',
      search_text: 'church street stellenbosch central stellenbosch',
    });
    expect(byId['node/2']).toMatchObject({ house_number: '14A', number_value: 14, postal_code: '0760' });
    expect(byId['node/3'].postal_code).toBeNull();
    // The building's address sits at its centroid.
    expect(byId['way/1']).toMatchObject({ house_number: '5', street: 'Dorp Street', town: 'Stellenbosch' });
    expect(byId['way/1'].lon).toBeCloseTo(LON + 0.001 + 1e-4, 6);
    expect(byId['way/1'].lat).toBeCloseTo(LAT + 1e-4, 6);

    const [{ streets }] = await query(`SELECT count(DISTINCT street_id)::int AS streets FROM geo.addresses`);
    expect(streets).toBe(2);

    const pois = await query(
      `SELECT p.source_id, p.name, p.poi_type, p.category, p.town, a.house_number
       FROM geo.pois p LEFT JOIN geo.addresses a ON a.id = p.address_id ORDER BY p.source_id`,
    );
    expect(pois).toEqual([
      {
        source_id: 'node/6',
        name: 'Paul Roos Gymnasium',
        poi_type: 10000,
        category: 'school',
        town: '',
        house_number: null,
      },
      {
        source_id: 'node/7',
        name: 'Spar Die Boord',
        poi_type: 10000,
        category: 'supermarket',
        town: 'Stellenbosch',
        house_number: '20',
      },
      {
        source_id: 'way/5',
        name: 'Stellenbosch Hospital',
        poi_type: 10000,
        category: 'hospital',
        town: '',
        house_number: null,
      },
    ]);

    const places = await query(
      `SELECT c.kind, c.name, c.population, c.importance, p.name AS parent FROM geo.places c
       LEFT JOIN geo.places p ON p.id = c.parent_id ORDER BY c.kind DESC`,
    );
    expect(places).toMatchObject([
      { kind: 'town', name: 'Stellenbosch', population: 77476, parent: null },
      { kind: 'suburb', name: 'Die Boord', population: 0, parent: 'Stellenbosch' },
    ]);
    expect(places[0].importance).toBeGreaterThan(places[1].importance);
    const [street] = await query(
      `SELECT t.name AS town FROM geo.streets s JOIN geo.places t ON t.id = s.town_id WHERE s.name = 'Church Street'`,
    );
    expect(street.town).toBe('Stellenbosch');

    expect(
      await query(
        `SELECT name, farm_number, division, portion, ST_GeometryType(geom) AS type FROM geo.farms`,
      ),
    ).toEqual([
      { name: 'Rietfontein', farm_number: 189, division: 'JR', portion: 0, type: 'ST_MultiPolygon' },
    ]);

    const buildings = await query(
      `SELECT source_id, kind, levels, height_m, roof, ST_IsValid(geom) AS valid FROM geo.buildings ORDER BY source_id`,
    );
    expect(buildings).toEqual([
      { source_id: 'way/1', kind: 'house', levels: 2, height_m: 6.5, roof: 'pitched', valid: true },
      { source_id: 'way/2', kind: 'office', levels: 1, height_m: 12, roof: 'flat', valid: true },
      { source_id: 'way/7', kind: 'building', levels: 1, height_m: 3.5, roof: 'pitched', valid: true },
    ]);

    const [run] = await query(
      `SELECT source, loaded, rejected, finished_at FROM geo.import_runs WHERE id = $1`,
      [summary.runId],
    );
    expect(run.source).toBe('osm');
    expect(run.finished_at).not.toBeNull();
    expect(run.loaded).toMatchObject({ addresses: 5, buildings: 3 });
    expect(run.rejected).toEqual(summary.rejected);
  });

  it('is idempotent: a second import updates the same rows', async () => {
    const count = async () =>
      (
        await query(
          `SELECT (SELECT count(*) FROM geo.addresses)::int AS addresses, (SELECT count(*) FROM geo.streets)::int AS streets,
                  (SELECT count(*) FROM geo.pois)::int AS pois, (SELECT count(*) FROM geo.places)::int AS places,
                  (SELECT count(*) FROM geo.farms)::int AS farms, (SELECT count(*) FROM geo.buildings)::int AS buildings,
                  (SELECT array_agg(id ORDER BY id) FROM geo.addresses)::text AS ids`,
        )
      )[0];
    const before = await count();
    const summary = await importOsm(database.dataSource, file);
    expect(summary.loaded.addresses).toBe(5);
    expect(await count()).toEqual(before);
  });

  it('dates buildings from start_date and end_date, and loads a demolished one with its end_date', async () => {
    const shapes = [0, 1, 2, 3, 4, 5].map((i) => square(500 + i * 10, LON + 0.01 + i * 0.0005, LAT));
    const dated = join(dir, 'dated.osm.pbf');
    await writeOsmPbf(dated, {
      nodes: shapes.flatMap((shape) => shape.nodes),
      ways: [
        { id: 21, refs: shapes[0].refs, tags: { building: 'house', start_date: '2019-05' } },
        // Gone since 2021: a lifecycle-prefixed building with its end date (and a start date before it).
        {
          id: 22,
          refs: shapes[1].refs,
          tags: { 'demolished:building': 'garage', start_date: '1980', end_date: '2021-03-15' },
        },
        { id: 23, refs: shapes[2].refs, tags: { building: 'yes', start_date: '~1950' } },
        { id: 24, refs: shapes[3].refs, tags: { building: 'shed', start_date: '2020', end_date: '2018' } },
        // Gone, but since when? Not a building of any survey's date.
        { id: 25, refs: shapes[4].refs, tags: { 'was:building': 'house' } },
        { id: 26, refs: shapes[5].refs, tags: { building: 'pool', start_date: '2016-02-30' } },
      ],
    });
    const summary = await importOsm(database.dataSource, dated, { source: 'osm-dated' });
    expect(summary.loaded).toEqual({ buildings: 5 });
    expect(summary.warnings).toEqual({
      'start_date not a date (YYYY, YYYY-MM or YYYY-MM-DD), left out': 2,
      'end_date not after start_date, dates left out': 1,
    });
    expect(
      await query(
        `SELECT source_id, kind, built_on::text, demolished_on::text, extended_on, geom_before_extension
           FROM geo.buildings WHERE source = 'osm-dated' ORDER BY source_id`,
      ),
    ).toEqual([
      {
        source_id: 'way/21',
        kind: 'house',
        built_on: '2019-05-01',
        demolished_on: null,
        extended_on: null,
        geom_before_extension: null,
      },
      {
        source_id: 'way/22',
        kind: 'garage',
        built_on: '1980-01-01',
        demolished_on: '2021-03-15',
        extended_on: null,
        geom_before_extension: null,
      },
      {
        source_id: 'way/23',
        kind: 'building',
        built_on: null,
        demolished_on: null,
        extended_on: null,
        geom_before_extension: null,
      },
      {
        source_id: 'way/24',
        kind: 'shed',
        built_on: null,
        demolished_on: null,
        extended_on: null,
        geom_before_extension: null,
      },
      {
        source_id: 'way/26',
        kind: 'pool',
        built_on: null,
        demolished_on: null,
        extended_on: null,
        geom_before_extension: null,
      },
    ]);
  });

  it('stops with a clear error on a file that is not an OSM PBF', async () => {
    const bad = join(dir, 'not.osm.pbf');
    writeFileSync(bad, '{"type":"FeatureCollection","features":[]}');
    await expect(importOsm(database.dataSource, bad)).rejects.toThrow(/not a readable OSM PBF file/);
    writeFileSync(bad, '');
    await expect(importOsm(database.dataSource, bad)).rejects.toThrow(/empty/);
    await expect(importOsm(database.dataSource, join(dir, 'missing.osm.pbf'))).rejects.toThrow(
      /does not exist/,
    );
  });
});

describe('OpenStreetMap PBF import, bulk', () => {
  let upserted: TestDatabase;
  let bulk: TestDatabase;
  let client: Client;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    [upserted, bulk] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    client = new Client({ connectionString: bulk.url });
    await client.connect();
    dir = mkdtempSync(join(tmpdir(), 'geo-osm-bulk-'));
    file = join(dir, 'stellenbosch.osm.pbf');
    await writeOsmPbf(file, extract(), 7);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await client?.end();
    await Promise.all([upserted?.drop(), bulk?.drop()]);
  });

  /**
   * Every row the import writes, ids replaced by the source ids they stand for; coordinates to 9 decimals
   * (the upsert path's repaired polygons come back through ST_AsGeoJSON, which keeps 9).
   */
  const contents = async (database: TestDatabase) => {
    const query = (sql: string) => database.dataSource.query(sql);
    return {
      streets: await query(
        `SELECT s.source_id, s.name, s.suburb, s.search_text, t.name AS town FROM geo.streets s
           LEFT JOIN geo.places t ON t.id = s.town_id ORDER BY s.source_id`,
      ),
      addresses: await query(
        `SELECT a.source_id, a.house_number, a.number_value, a.unit, a.suburb, a.town, a.postal_code,
                s.source_id AS street, ST_AsText(a.point, 9) AS point, a.parcel_id
           FROM geo.addresses a LEFT JOIN geo.streets s ON s.id = a.street_id ORDER BY a.source_id`,
      ),
      pois: await query(
        `SELECT p.source_id, p.name, p.category, p.town, p.importance, a.source_id AS address,
                ST_AsText(p.point, 9) AS point FROM geo.pois p
           LEFT JOIN geo.addresses a ON a.id = p.address_id ORDER BY p.source_id`,
      ),
      places: await query(
        `SELECT c.source_id, c.kind, c.name, c.population, c.importance, p.name AS parent,
                ST_AsText(c.point, 9) AS point FROM geo.places c
           LEFT JOIN geo.places p ON p.id = c.parent_id WHERE c.source = 'osm' ORDER BY c.source_id`,
      ),
      farms: await query(
        `SELECT source_id, name, farm_number, division, ST_AsText(geom, 9) AS geom FROM geo.farms ORDER BY 1`,
      ),
      buildings: await query(
        `SELECT source_id, kind, levels, height_m, roof, built_on, demolished_on, ST_AsText(geom, 9) AS geom
           FROM geo.buildings ORDER BY source_id`,
      ),
    };
  };
  const geoIndexes = async () =>
    (
      await client.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'geo' ORDER BY indexname`)
    ).rows.map((row: { indexdef: string }) => row.indexdef);

  it('writes the rows and the summary of the upsert path, and puts back the indexes it set aside', async () => {
    const indexesBefore = await geoIndexes();
    const expected = await importOsm(upserted.dataSource, file);
    const summary = await importOsm(client, file, { bulk: true });

    for (const key of ['loaded', 'rejected', 'repaired', 'warnings', 'examples'] as const)
      expect(summary[key]).toEqual(expected[key]);
    expect(await contents(bulk)).toEqual(await contents(upserted));
    expect(await geoIndexes()).toEqual(indexesBefore);
    const [run] = (
      await client.query(`SELECT finished_at, loaded FROM geo.import_runs WHERE id = $1`, [summary.runId])
    ).rows;
    expect(run.finished_at).not.toBeNull();
    expect(run.loaded).not.toHaveProperty('deferred');
    // The staging tables were the session's and are gone.
    const stages = await client.query(
      `SELECT relname FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r'`,
    );
    expect(stages.rows).toEqual([]);
  });

  it('meets the rows of an earlier import of the same source again (indexes in place)', async () => {
    const ids = async () =>
      (await client.query(`SELECT array_agg(id ORDER BY id)::text AS ids FROM geo.addresses`)).rows[0].ids;
    const before = await ids();
    const summary = await importOsm(client, file, { bulk: true });
    expect(summary.loaded).toEqual({ streets: 2, addresses: 5, pois: 3, places: 2, farms: 1, buildings: 3 });
    expect(await ids()).toBe(before);
    expect(await contents(bulk)).toEqual(await contents(upserted));
  });

  it('builds the indexes an import stopped while indexing left aside, before it starts', async () => {
    const indexesBefore = await geoIndexes();
    const answering = {
      query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows,
    };
    const deferred = await deferSchema(answering, ['streets', 'addresses', 'buildings']);
    const [stopped] = (
      await client.query(
        `INSERT INTO geo.import_runs (source, input, loaded) VALUES ('osm', 'osm: killed',
           jsonb_build_object('deferred', $1::jsonb)) RETURNING id::text AS id`,
        [JSON.stringify(deferred)],
      )
    ).rows;
    expect((await geoIndexes()).length).toBeLessThan(indexesBefore.length);

    await importOsm(client, file, { bulk: true, source: 'osm-again' });
    expect(await geoIndexes()).toEqual(indexesBefore);
    const [run] = (
      await client.query(`SELECT finished_at, loaded FROM geo.import_runs WHERE id = $1`, [stopped.id])
    ).rows;
    expect(run.finished_at).not.toBeNull();
    expect(run.loaded).toEqual({
      warnings: { 'stopped while building indexes; they were built by a later import': 1 },
    });
  });

  it('says that a bulk import needs a node-postgres client', async () => {
    await expect(importOsm(bulk.dataSource, file, { bulk: true })).rejects.toThrow(
      /needs a node-postgres Client/,
    );
  });
});

describe('NodeCoordinates', () => {
  it('finds nodes added in id order and out of order', () => {
    const sorted = new NodeCoordinates();
    for (let id = 1; id <= 3000; id += 3) sorted.add(id * 1_000_003, -33 - id / 1e5, 18 + id / 1e5);
    expect(sorted.get(1_000_003)).toEqual([18.00001, -33.00001]);
    expect(sorted.get(2998 * 1_000_003)).toEqual([18.02998, -33.02998]);
    expect(sorted.get(2 * 1_000_003)).toBeUndefined();
    expect(sorted.get(0)).toBeUndefined();

    const shuffled = new NodeCoordinates();
    const ids = [50, 3, 9_000_000_000, 7, 1];
    ids.forEach((id, i) => shuffled.add(id, -30 - i, 20 + i));
    expect(shuffled.get(9_000_000_000)).toEqual([22, -32]);
    expect(shuffled.get(1)).toEqual([24, -34]);
    expect(shuffled.get(4)).toBeUndefined();
    expect(shuffled.size).toBe(5);
  });
});
