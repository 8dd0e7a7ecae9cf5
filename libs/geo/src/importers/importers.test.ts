import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { importCoverage } from './coverage';
import { importFarms } from './farms';
import { importParcels } from './parcels';
import { importPlaces } from './places';
import { importPois } from './pois';
import { importPostalCodes } from './postal';

const square = (lon: number, lat: number, size = 0.001) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ],
  ],
});
const feature = (properties: Record<string, unknown>, geometry: unknown, id?: string | number) => ({
  type: 'Feature',
  ...(id === undefined ? {} : { id }),
  properties,
  geometry,
});
const collection = (features: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'FeatureCollection', ...extra, features }, null, 1);

describe('GeoJSON and CSV importers', () => {
  let database: TestDatabase;
  let dir: string;
  const query = (sql: string, params?: unknown[]) => database.dataSource.query(sql, params);
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'geo-import-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('imports parcels with field mapping, rejects bad rows with reasons, repairs invalid polygons, and is idempotent', async () => {
    const bowTie = {
      type: 'Polygon',
      coordinates: [
        [
          [18.9, -33.9],
          [18.902, -33.898],
          [18.902, -33.9],
          [18.9, -33.898],
          [18.9, -33.9],
        ],
      ],
    };
    const file = write(
      'erven.geojson',
      collection(
        [
          feature(
            { ERF_NO: '1234', PTN: 0, SG21: 'C06700010000123400000', TOWN: 'Stellenbosch' },
            square(18.86, -33.93),
          ),
          feature(
            { ERF_NO: '1235', PTN: '2', TOWN: 'Stellenbosch' },
            { type: 'MultiPolygon', coordinates: [square(18.87, -33.93).coordinates] },
          ),
          feature({ ERF_NO: '1236' }, bowTie),
          feature({ PTN: 1 }, square(18.86, -33.92)),
          feature({ ERF_NO: '1237' }, null),
          feature({ ERF_NO: '1238' }, square(2.35, 48.85)),
          feature({ ERF_NO: '1239', PTN: 'A' }, square(18.86, -33.91)),
          feature({ ERF_NO: '1240', SG21: 'NOT-A-KEY' }, square(18.86, -33.9)),
          feature({ ERF_NO: '1241' }, { type: 'Point', coordinates: [18.86, -33.9] }),
          feature(
            { ERF_NO: '1242' },
            {
              type: 'Polygon',
              coordinates: [
                [
                  [18.86, -33.9],
                  [18.87, -33.9],
                  [18.87, -33.89],
                ],
              ],
            },
          ),
          feature(
            { ERF_NO: '1243' },
            {
              type: 'Polygon',
              coordinates: [
                [
                  [18.86, -33.9],
                  [18.87, -33.9],
                  [18.87, -33.89],
                  [18.861, -33.89],
                ],
              ],
            },
          ),
          feature({ ERF_NO: '1234', PTN: 0, SG21: 'C06700010000123400000' }, square(18.86, -33.93)),
          'not a feature',
        ],
        { crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } } },
      ),
    );
    const options = { fields: { parcelNumber: 'ERF_NO', portion: 'PTN', sgKey: 'SG21' } };
    const summary = await importParcels(database.dataSource, file, options);
    expect(summary.read).toBe(13);
    expect(summary.loaded).toEqual({ parcels: 3 });
    expect(summary.rejected).toEqual({
      'missing parcel number': 1,
      'missing geometry': 1,
      'outside South Africa': 1,
      'portion is not a whole number ≥ 0': 1,
      'bad SG key (not a letter and 20 letters or digits)': 1,
      'geometry is a Point, not a Polygon or MultiPolygon': 1,
      'polygon ring with fewer than 4 positions': 1,
      'polygon ring not closed': 1,
      'duplicate id: an earlier row of this input had the same id': 1,
      'not a GeoJSON Feature': 1,
    });
    expect(summary.examples['missing parcel number']).toEqual(['feature 4']);
    expect(summary.repaired).toEqual({ 'Self-intersection, made valid with ST_MakeValid': 1 });

    const parcels = await query(
      `SELECT parcel_number, portion, sg_key, town, ST_IsValid(geom) AS valid, ST_NumGeometries(geom) AS parts
       FROM geo.parcels ORDER BY parcel_number`,
    );
    expect(parcels).toEqual([
      {
        parcel_number: '1234',
        portion: 0,
        sg_key: 'C06700010000123400000',
        town: 'Stellenbosch',
        valid: true,
        parts: 1,
      },
      { parcel_number: '1235', portion: 2, sg_key: null, town: 'Stellenbosch', valid: true, parts: 1 },
      { parcel_number: '1236', portion: 0, sg_key: null, town: '', valid: true, parts: 2 },
    ]);

    const again = await importParcels(database.dataSource, file, options);
    expect(again.loaded).toEqual({ parcels: 3 });
    const [{ count }] = await query(`SELECT count(*)::int AS count FROM geo.parcels`);
    expect(count).toBe(3);
    const [run] = await query(`SELECT loaded, rejected FROM geo.import_runs WHERE id = $1`, [again.runId]);
    expect(run.loaded).toEqual({
      parcels: 3,
      repaired: { 'Self-intersection, made valid with ST_MakeValid': 1 },
    });
    expect(run.rejected['missing parcel number']).toBe(1);
  });

  it('stops on a GeoJSON in another coordinate system, a broken file, or no file', async () => {
    const lo19 = write(
      'lo19.geojson',
      collection([feature({ ERF_NO: '1' }, square(18.86, -33.93))], {
        crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2048' } },
      }),
    );
    await expect(importParcels(database.dataSource, lo19)).rejects.toThrow(/EPSG::2048.*WGS 84/);
    const truncated = write(
      'truncated.geojson',
      collection([feature({ ERF_NO: '1' }, square(18.86, -33.93))]).slice(0, -20),
    );
    await expect(importParcels(database.dataSource, truncated)).rejects.toThrow(/ends in the middle/);
    await expect(importParcels(database.dataSource, join(dir, 'nope.geojson'))).rejects.toThrow(
      /does not exist/,
    );
  });

  it('imports farms, splitting "Name 123 XY" when there is no number field', async () => {
    const file = write(
      'farms.geojson',
      [
        feature({ name: 'Rietfontein 189 JR', portion: 3 }, square(28.1, -25.8, 0.01), 'f1'),
        feature(
          { FARMNAME: 'Blaauwklippen', FARM_NO: 510, division: 'Stellenbosch' },
          square(18.85, -33.97, 0.01),
          'f2',
        ),
        feature({ farm_no: 12 }, square(18.8, -33.9, 0.01), 'f3'),
      ]
        .map((f) => JSON.stringify(f))
        .join('\n'),
    );
    const summary = await importFarms(database.dataSource, file);
    expect(summary.loaded).toEqual({ farms: 2 });
    expect(summary.rejected).toEqual({ 'missing farm name': 1 });
    expect(
      await query(`SELECT name, farm_number, portion, division, source_id FROM geo.farms ORDER BY name`),
    ).toEqual([
      { name: 'Blaauwklippen', farm_number: 510, portion: 0, division: 'Stellenbosch', source_id: 'f2' },
      { name: 'Rietfontein', farm_number: 189, portion: 3, division: 'JR', source_id: 'f1' },
    ]);
  });

  it('imports imagery surveys with kind, capture date and provider from fields, the undated ones dated the import day', async () => {
    const file = write(
      'coverage.geojson',
      collection([
        feature(
          { type: 'High resolution', name: 'Cape Town 2024', date: '2024-03-18', vendor: 'Aerial Co' },
          square(18.4, -33.95, 0.2),
        ),
        feature({ type: 'orthophoto', name: 'Western Cape 2023', date: 'last year' }, square(18, -34, 1)),
        feature({ type: 'ortho', name: 'Boland' }, square(19, -34, 0.5)),
        feature({ type: 'lidar', name: 'Bad' }, square(18, -34, 1)),
      ]),
    );
    const before = new Date().toISOString().slice(0, 10);
    const summary = await importCoverage(database.dataSource, file);
    const after = new Date().toISOString().slice(0, 10);
    expect(summary.loaded).toEqual({ imagery_coverage: 3 });
    expect(summary.rejected).toEqual({ 'bad coverage kind (not high_resolution or ortho)': 1 });
    expect(summary.warnings).toEqual({
      'capture date not understood: the --captured-on day (default: the day of the import) taken': 1,
      'no capture date: the --captured-on day (default: the day of the import) taken': 1,
    });
    const rows = await query(
      `SELECT kind, name, captured_on::text AS captured, provider FROM geo.imagery_coverage ORDER BY name`,
    );
    const today = rows[0].captured;
    expect([before, after]).toContain(today);
    expect(rows).toEqual([
      { kind: 'ortho', name: 'Boland', captured: today, provider: 'Portal imagery' },
      { kind: 'high_resolution', name: 'Cape Town 2024', captured: '2024-03-18', provider: 'Aerial Co' },
      { kind: 'ortho', name: 'Western Cape 2023', captured: today, provider: 'Portal imagery' },
    ]);

    // The day and provider of the undated rows can be given; importing again meets the same rows.
    const again = await importCoverage(database.dataSource, file, {
      capturedOn: '2023-06-30',
      provider: 'Western Cape Government',
    });
    expect(again.loaded).toEqual({ imagery_coverage: 3 });
    expect(
      await query(
        `SELECT name, captured_on::text AS captured, provider FROM geo.imagery_coverage ORDER BY name`,
      ),
    ).toEqual([
      { name: 'Boland', captured: '2023-06-30', provider: 'Western Cape Government' },
      { name: 'Cape Town 2024', captured: '2024-03-18', provider: 'Aerial Co' },
      { name: 'Western Cape 2023', captured: '2023-06-30', provider: 'Western Cape Government' },
    ]);
    await expect(importCoverage(database.dataSource, file, { capturedOn: '30/06/2023' })).rejects.toThrow(
      'capturedOn is a day, YYYY-MM-DD, not "30/06/2023".',
    );
    expect(await query(`SELECT count(*)::int AS n FROM geo.imagery_coverage`)).toEqual([{ n: 3 }]);
  });

  it('imports places with codes, parents by code and by position, and rejects bad codes', async () => {
    const provinces = write(
      'provinces.geojson',
      collection([
        feature({ Code: 'WC', Name: 'Western Cape' }, square(18, -34.5, 2)),
        feature({ Code: 'XX', Name: 'Nowhere' }, square(18, -34.5, 2)),
      ]),
    );
    const districts = write(
      'districts.geojson',
      collection([
        feature({ Code: 'DC2', Name: 'Cape Winelands', Parent_cod: 'WC' }, square(18.5, -34.2, 1)),
        feature({ Code: 'CPT', Name: 'City of Cape Town', Parent_cod: 'WC' }, square(18.3, -34.2, 0.19)),
      ]),
    );
    const munis = write(
      'munis.geojson',
      collection([
        feature({ Code: 'WC024', Name: 'Stellenbosch', Parent_cod: 'DC2' }, square(18.7, -34.1, 0.3)),
        feature({ Code: 'CPT', Name: 'City of Cape Town', Parent_cod: 'CPT' }, square(18.3, -34.2, 0.19)),
        feature({ Code: 'WC099', Name: 'Lost', Parent_cod: 'DC99' }, square(19.2, -34.1, 0.1)),
      ]),
    );
    const towns = write(
      'towns.geojson',
      collection([
        feature(
          { name: 'Stellenbosch', population: 77476 },
          { type: 'Point', coordinates: [18.86, -33.93] },
          1,
        ),
        feature({ name: 'Kayamandi', kind: 'suburb' }, { type: 'Point', coordinates: [18.85, -33.92] }, 2),
        feature({ name: 'Pniel', population: 'many' }, { type: 'Point', coordinates: [18.96, -33.89] }, 3),
      ]),
    );
    const p = await importPlaces(database.dataSource, provinces, { kind: 'province' });
    expect(p.loaded).toEqual({ places: 1 });
    expect(p.rejected).toEqual({ 'bad province code': 1 });
    await importPlaces(database.dataSource, districts, { kind: 'district' });
    const m = await importPlaces(database.dataSource, munis, { kind: 'municipality' });
    expect(m.warnings).toEqual({ 'parent code matches no place (linked by position instead)': 1 });
    expect(m.examples['parent code matches no place (linked by position instead)']).toEqual(['DC99']);
    const t = await importPlaces(database.dataSource, towns, { fields: { kind: () => undefined } });
    expect(t.rejected).toEqual({ 'missing place kind': 3 });
    const t2 = await importPlaces(database.dataSource, towns, {
      fields: { kind: (props) => props.kind ?? 'town' },
    });
    expect(t2.loaded).toEqual({ places: 2 });
    expect(t2.rejected).toEqual({ 'population is not a whole number ≥ 0': 1 });

    const rows = await query(
      `SELECT c.kind, c.name, c.code, p.kind AS parent_kind, p.code AS parent_code, c.geom IS NOT NULL AS has_area,
              ST_Intersects(coalesce(c.geom, c.point), c.point) AS point_inside
       FROM geo.places c LEFT JOIN geo.places p ON p.id = c.parent_id ORDER BY c.id`,
    );
    expect(rows).toEqual([
      {
        kind: 'province',
        name: 'Western Cape',
        code: 'WC',
        parent_kind: null,
        parent_code: null,
        has_area: true,
        point_inside: true,
      },
      {
        kind: 'district',
        name: 'Cape Winelands',
        code: 'DC2',
        parent_kind: 'province',
        parent_code: 'WC',
        has_area: true,
        point_inside: true,
      },
      {
        kind: 'district',
        name: 'City of Cape Town',
        code: 'CPT',
        parent_kind: 'province',
        parent_code: 'WC',
        has_area: true,
        point_inside: true,
      },
      {
        kind: 'municipality',
        name: 'Stellenbosch',
        code: 'WC024',
        parent_kind: 'district',
        parent_code: 'DC2',
        has_area: true,
        point_inside: true,
      },
      {
        kind: 'municipality',
        name: 'City of Cape Town',
        code: 'CPT',
        parent_kind: 'district',
        parent_code: 'CPT',
        has_area: true,
        point_inside: true,
      },
      {
        kind: 'municipality',
        name: 'Lost',
        code: 'WC099',
        parent_kind: null,
        parent_code: null,
        has_area: true,
        point_inside: true,
      },
      {
        kind: 'town',
        name: 'Stellenbosch',
        code: null,
        parent_kind: 'municipality',
        parent_code: 'WC024',
        has_area: false,
        point_inside: true,
      },
      {
        kind: 'suburb',
        name: 'Kayamandi',
        code: null,
        parent_kind: 'town',
        parent_code: null,
        has_area: false,
        point_inside: true,
      },
    ]);
  });

  it('imports postal codes from CSV, padded to 4 digits, with bad rows rejected', async () => {
    const file = write(
      'postal.csv',
      [
        'province;area;suburb;street_code;box_code;lat;lon',
        'Gauteng;PRETORIA;Arcadia;83;7;-25.74;28.21',
        'Western Cape;Stellenbosch;Die Boord;7613;;-33.95;18.85',
        'Western Cape;Stellenbosch;Nowhere;;;;',
        'Western Cape;Stellenbosch;Bad;76O0;;;',
        'Western Cape;Stellenbosch;;7600;;;',
        'Western Cape;Stellenbosch;Paris;7600;;48.85;2.35',
        'Western Cape;Stellenbosch;Stellenbosch Central;7600;7599;;',
        'Western Cape;Stellenbosch;Die Boord;7613;;-33.95;18.85',
      ].join('\n'),
    );
    const summary = await importPostalCodes(database.dataSource, file);
    expect(summary.loaded).toEqual({ postal_codes: 3 });
    expect(summary.rejected).toEqual({
      'missing postal code (no street code, no box code)': 1,
      'bad postal code (not 1 to 4 digits)': 1,
      'missing suburb': 1,
      'outside South Africa': 1,
      'duplicate id: an earlier row of this input had the same id': 1,
    });
    expect(summary.examples['missing suburb']).toEqual(['line 6']);
    expect(summary.warnings).toEqual({ 'no coordinates: postal code loaded without a point': 1 });
    const rows = await query(
      `SELECT street_code, box_code, suburb, town, province, point IS NOT NULL AS has_point FROM geo.postal_codes ORDER BY suburb`,
    );
    expect(rows).toEqual([
      {
        street_code: '0083',
        box_code: '0007',
        suburb: 'Arcadia',
        town: 'PRETORIA',
        province: 'Gauteng',
        has_point: true,
      },
      {
        street_code: '7613',
        box_code: null,
        suburb: 'Die Boord',
        town: 'Stellenbosch',
        province: 'Western Cape',
        has_point: true,
      },
      {
        street_code: '7600',
        box_code: '7599',
        suburb: 'Stellenbosch Central',
        town: 'Stellenbosch',
        province: 'Western Cape',
        has_point: false,
      },
    ]);
  });

  it('imports POIs from points and areas, linked to the parcel they stand on', async () => {
    const file = write(
      'pois.geojson',
      collection([
        feature(
          { NAME: 'Stellenbosch Fire Station', TYPE: 'fire_station' },
          { type: 'Point', coordinates: [18.8605, -33.9295] },
          7,
        ),
        feature({ name: 'Neelsie', category: 'mall' }, square(18.865, -33.93, 0.0005), 8),
        feature({ name: 'Unnamed' }, { type: 'Point', coordinates: [18.86, -33.93] }, 9),
        feature({ category: 'school' }, { type: 'Point', coordinates: [18.86, -33.93] }, 10),
        feature({ name: 'Estate', poi_type: 12345 }, { type: 'Point', coordinates: [18.86, -33.93] }, 11),
        feature({ name: 'Far away' }, { type: 'Point', coordinates: ['18.86', -33.93] }, 12),
      ]),
    );
    const summary = await importPois(database.dataSource, file, { category: 'landmark' });
    expect(summary.loaded).toEqual({ pois: 3 });
    expect(summary.rejected).toEqual({
      'missing name': 1,
      'bad POI type (not 10000, 10500 or 11000)': 1,
      'malformed coordinates': 1,
    });
    const rows = await query(
      `SELECT o.name, o.category, o.poi_type, p.parcel_number FROM geo.pois o
       LEFT JOIN geo.parcels p ON p.id = o.parcel_id ORDER BY o.name`,
    );
    expect(rows).toEqual([
      { name: 'Neelsie', category: 'mall', poi_type: 10000, parcel_number: null },
      { name: 'Stellenbosch Fire Station', category: 'fire_station', poi_type: 10000, parcel_number: '1234' },
      { name: 'Unnamed', category: 'landmark', poi_type: 10000, parcel_number: '1234' },
    ]);
  });
});
