import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { multiLineStringHex, pointHex, polygonHex } from '../generator/ewkb';
import { generateGeodata } from '../generator/generate';
import { exportGeneratedOsm, type OsmExportResult } from './export';
import { importOsm } from './import';
import { readEwkb } from './ewkb-read';
import { OsmPbfWriter } from './pbf-writer';

const run = promisify(execFile);
/** One small town: the world both the database generator and the export lay out. */
const WORLD = { scale: 1500, seed: 'osm-export', towns: ['Stellenbosch'] };

/** GDAL's command-line reader, installed by the prepare step (Debian gdal-bin); absent only off CI. */
const OGRINFO = ['/usr/bin/ogrinfo', '/usr/local/bin/ogrinfo'].find((path) => existsSync(path));
if (!OGRINFO && process.env.CI)
  throw new Error('ogrinfo is missing on CI: the prepare step installs gdal-bin.');
if (!OGRINFO)
  console.warn('osm-export.test.ts: ogrinfo (GDAL) is not installed here, so the GDAL reads are skipped');

jest.setTimeout(60_000);

describe('the generated world as an .osm.pbf', () => {
  let dir: string;
  let file: string;
  let database: TestDatabase;
  let exported: OsmExportResult;
  const one = async (sql: string, params?: unknown[]): Promise<number> =>
    Number(Object.values((await database.dataSource.query(sql, params))[0])[0]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'osm-export-'));
    file = join(dir, 'world.osm.pbf');
    database = await createTestDatabase();
    exported = await exportGeneratedOsm({ ...WORLD, file, blockSize: 500 });
    await generateGeodata(database.dataSource, WORLD);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('holds the rows generateGeodata writes for the same scale and seed', async () => {
    const { counts } = exported;
    expect(counts.towns).toBe(1);
    expect(counts.addresses).toBeGreaterThanOrEqual(WORLD.scale);
    expect(counts.blocks).toBeGreaterThan(3); // several blocks of 500: block boundaries are exercised
    const generated = (table: string, where = 'true') =>
      one(`SELECT count(*) FROM geo.${table} WHERE source = 'generator' AND ${where}`);
    expect(await generated('addresses')).toBe(counts.addresses);
    expect(await generated('streets')).toBe(counts.streets);
    expect(await generated('places', `kind = 'suburb'`)).toBe(counts.suburbs);
    expect(await generated('buildings', `demolished_on IS NULL AND kind <> 'pool'`)).toBe(counts.buildings);
    expect(await generated('buildings', `demolished_on IS NULL AND kind = 'pool'`)).toBe(counts.pools);
    expect(await generated('buildings', `demolished_on IS NOT NULL`)).toBe(counts.demolished);
  });

  it("is read back by the portal's importer: the same addresses, streets, places and buildings", async () => {
    const summary = await importOsm(database.dataSource, file, { source: 'osm-export', link: false });
    const { counts } = exported;
    expect(summary.rejected).toEqual({});
    expect(summary.loaded).toEqual({
      addresses: counts.addresses,
      streets: counts.streets,
      places: counts.towns + counts.suburbs,
      buildings: counts.buildings,
    });
    // Every generated address has an imported twin with the same parts, within 2 cm (the format's 1e-7°).
    const unmatched = await one(
      `SELECT count(*) FROM geo.addresses g WHERE g.source = 'generator' AND NOT EXISTS (
         SELECT 1 FROM geo.addresses o WHERE o.source = 'osm-export'
           AND o.house_number = g.house_number AND o.street_name = g.street_name
           AND o.unit IS NOT DISTINCT FROM g.unit AND o.suburb = g.suburb AND o.town = g.town
           AND o.postal_code = g.postal_code AND ST_DWithin(o.point::geography, g.point::geography, 0.02))`,
    );
    expect(unmatched).toBe(0);
    expect(
      await one(`SELECT count(*) FROM geo.addresses WHERE source = 'osm-export' AND unit IS NOT NULL`),
    ).toBe(await one(`SELECT count(*) FROM geo.addresses WHERE source = 'generator' AND unit IS NOT NULL`));
    // Buildings: the same footprints (area within 1 %: a 20 m² garage's corners rounded to 1e-7° move it by
    // about 0.1 %) and kinds, levels and dates.
    const buildingsDiffer = await one(
      `SELECT count(*) FROM geo.buildings g WHERE g.source = 'generator' AND g.demolished_on IS NULL
         AND g.kind <> 'pool' AND NOT EXISTS (
         SELECT 1 FROM geo.buildings o WHERE o.source = 'osm-export' AND o.kind = g.kind
           AND o.levels = g.levels AND o.built_on IS NOT DISTINCT FROM g.built_on
           AND ST_Intersects(o.geom, ST_PointOnSurface(g.geom))
           AND abs(ST_Area(o.geom) - ST_Area(g.geom)) <= 0.01 * ST_Area(g.geom))`,
    );
    expect(buildingsDiffer).toBe(0);
  });

  (OGRINFO ? it : it.skip)("is read by GDAL's OSM driver with the same counts", async () => {
    const count = async (sql: string) => {
      const { stdout } = await run(OGRINFO as string, ['-ro', '-q', file, '-sql', sql]);
      const match = / = (\d+)/.exec(stdout);
      if (!match) throw new Error(`ogrinfo answered no count for ${sql}:\n${stdout}`);
      return Number(match[1]);
    };
    const { counts } = exported;
    expect(await count(`SELECT COUNT(*) FROM points WHERE other_tags LIKE '%"addr:housenumber"%'`)).toBe(
      counts.addresses,
    );
    expect(await count(`SELECT COUNT(*) FROM points WHERE place = 'suburb'`)).toBe(counts.suburbs);
    expect(await count(`SELECT COUNT(*) FROM points WHERE place IN ('town', 'city')`)).toBe(counts.towns);
    expect(await count(`SELECT COUNT(*) FROM lines WHERE highway = 'residential'`)).toBe(counts.streetWays);
    expect(await count(`SELECT COUNT(*) FROM multipolygons WHERE building IS NOT NULL`)).toBe(
      counts.buildings,
    );
    expect(await count(`SELECT COUNT(*) FROM multipolygons WHERE leisure = 'swimming_pool'`)).toBe(
      counts.pools,
    );
  });
});

describe('OsmPbfWriter', () => {
  it('refuses ids out of order when it claims a sorted file, and leaves no spool behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'osm-writer-'));
    try {
      const writer = new OsmPbfWriter(join(dir, 'out.osm.pbf'), { sorted: true });
      await writer.node({ id: 2, lon: 18.86, lat: -33.93 });
      await expect(writer.node({ id: 2, lon: 18.86, lat: -33.93 })).rejects.toThrow('node 2 after node 2');
      await writer.way({ id: 5, refs: [2, 2] });
      await expect(writer.way({ id: 4, refs: [2] })).rejects.toThrow('way 4 after way 5');
      await writer.close();
      expect(existsSync(join(dir, `out.osm.pbf.ways-${process.pid}.tmp`))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readEwkb', () => {
  it("reads the generator's points, polygons and multilinestrings, and big-endian WKB", () => {
    expect(Array.from(readEwkb(pointHex(18.86, -33.93)).parts[0])).toEqual([18.86, -33.93]);
    const polygon = readEwkb(polygonHex([[0, 0, 1, 0, 1, 1]]));
    expect(polygon.type).toBe('Polygon');
    expect(Array.from(polygon.parts[0])).toEqual([0, 0, 1, 0, 1, 1, 0, 0]); // closed
    const lines = readEwkb(
      multiLineStringHex([
        [0, 0, 1, 1],
        [2, 2, 3, 3],
      ]),
    );
    expect(lines.type).toBe('MultiLineString');
    expect(lines.parts.map((part) => Array.from(part))).toEqual([
      [0, 0, 1, 1],
      [2, 2, 3, 3],
    ]);
    // POINT(18.86 -33.93) as big-endian WKB without SRID.
    const big = Buffer.alloc(21);
    big.writeUInt8(0, 0);
    big.writeUInt32BE(1, 1);
    big.writeDoubleBE(18.86, 5);
    big.writeDoubleBE(-33.93, 13);
    expect(Array.from(readEwkb(big).parts[0])).toEqual([18.86, -33.93]);
  });
});
