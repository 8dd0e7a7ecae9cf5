import { Value } from '@sinclair/typebox/value';
import { IrisReportData } from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { findSharedDataDir, importRiskLayers } from '@portal/geo';
import { computeRiskReport, CRIME_UNIT, SOIL_MAX_DISTANCE_M, WATER_RANGE_M } from './compute';

/**
 * computeRiskReport on a throwaway database loaded from the team's shared data (../shared/data). Every
 * expected number below was worked out by hand from the shared files (python/jq over the CSV and GeoJSON,
 * not through this code), the arithmetic in the comments. Distances: haversine on the sphere of radius
 * 6 371 008.8 m.
 */
const dir = findSharedDataDir();
const describeWithData = dir ? describe : describe.skip;
if (!dir) {
  console.warn('IRiS risk computation test skipped: no ../shared/data folder (or $GEO_SHARED_DATA_DIR) here');
}

describeWithData('computeRiskReport (risk layers from ../shared/data)', () => {
  let database: TestDatabase;
  const compute = (lat: number, lng: number) => computeRiskReport(database.dataSource, { lat, lng });

  beforeAll(async () => {
    database = await createTestDatabase();
    await importRiskLayers(database.dataSource, dir);
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  });

  it('Stellenbosch (-33.9346, 18.8610): its precinct, rates per 100 000 residents; west of the DEM', async () => {
    const report = await compute(-33.9346, 18.861);
    expect(Value.Check(IrisReportData, report)).toBe(true);
    expect(report.coordinates).toEqual({ lat: -33.9346, lng: 18.861 });

    const crime = report.crimeData;
    // western_cape_precincts.geojson: the point is inside the polygon COMPNT_NM 'STELLENBOSCH'.
    expect(crime).toMatchObject({ precinctName: 'Stellenbosch', match: 'precinct', population: 50336 });
    // The CSV's stellenbosch station point -33.93575, 18.85592: haversine 485.79 m.
    expect(crime.stationDistance).toBeCloseTo(485.8, 1);
    expect(crime.unit).toBe(CRIME_UNIT);
    expect(crime.burglaryResidential.map((p) => p.yearTo)).toEqual(
      Array.from({ length: 15 }, (_, k) => 2009 + k),
    );
    // 2022/2023: burglary_res 440, burglary_nonres 220, malicious_damage 369; police_stations_2025_codes.csv:
    // Stellenbosch PD102003, population 50 336.
    // 440 / 50 336 × 100 000 = 874.13 → 874.1; 220 → 437.06 → 437.1; 369 → 733.07 → 733.1
    expect(crime.burglaryResidential.at(-1)).toEqual({ yearTo: 2023, count: 440, rate: 874.1 });
    expect(crime.burglaryBusiness.at(-1)).toEqual({ yearTo: 2023, count: 220, rate: 437.1 });
    expect(crime.maliciousDamage.at(-1)).toEqual({ yearTo: 2023, count: 369, rate: 733.1 });
    // 2008/2009 burglary_res 894: 894 / 50 336 × 100 000 = 1 776.06
    expect(crime.burglaryResidential[0]).toEqual({ yearTo: 2009, count: 894, rate: 1776.1 });
    expect(crime.source).toMatchObject({ date: '2008/09–2022/23', licence: 'CC-BY' });
    expect(crime.source.name).toMatch(/SAPS.*DataFirst.*population/);

    // The DEM's grid starts at 18.9°E: 18.861 is west of it.
    expect(report.elevation).toMatchObject({ ele: null, elevation_ns: [], elevation_ew: [] });
    expect(report.elevation.unavailable).toBe(
      'The elevation model covers only the Boland (Stellenbosch–Paarl–Worcester, 18.90°E–19.58°E, ' +
        '33.22°S–34.18°S); this point is outside it.',
    );
    expect(report.elevation.source).toMatchObject({ name: expect.stringMatching(/ETOPO1/), date: '2009' });

    // Stellenbosch is not in the City of Cape Town (its wards): no made-up fire station.
    expect(report.fireServicesData.closestFire).toBeNull();
    expect(report.fireServicesData.unavailable).toMatch(/City of Cape Town only.*outside/);
    // No Natural Earth river, lake or coast within 5 km.
    expect(report.waterBodyData).toMatchObject({ range: WATER_RANGE_M, overallClass: null });
  });

  it('Paarl (-33.73, 18.97): the DEM interpolated by hand, the profiles, the nearest soil profile', async () => {
    const report = await compute(-33.73, 18.97);
    expect(Value.Check(IrisReportData, report)).toBe(true);
    // Grid step 1/60°: 18.97 lies 0.2 of a cell east of 18.966667, -33.73 0.2 north of -33.733333.
    // Samples: SW (18.966667, -33.733333) 116, SE 121, NW (18.966667, -33.716667) 117, NE 110.
    // 116·0.8·0.8 + 121·0.2·0.8 + 117·0.8·0.2 + 110·0.2·0.2 = 74.24 + 19.36 + 18.72 + 4.40 = 116.72
    expect(report.elevation.ele).toBe(116.7);
    expect(report.elevation.unavailable).toBeNull();
    expect(report.elevation.elevation_ns).toHaveLength(41);
    expect(report.elevation.elevation_ew).toHaveLength(41);
    expect(report.elevation.elevation_ns[20]).toEqual({ offset: 0, ele: 116.7 });
    expect(report.elevation.elevation_ew[0].offset).toBe(-1000);
    expect(report.elevation.elevation_ew[40].offset).toBe(1000);
    expect(report.elevation.elevation_ns.every((s) => s.ele !== null)).toBe(true);

    // Paarl precinct; 2022/23 burglary_res 305 / population 49 859 × 100 000 = 611.73
    expect(report.crimeData).toMatchObject({ precinctName: 'Paarl', match: 'precinct', population: 49859 });
    expect(report.crimeData.burglaryResidential.at(-1)).toEqual({ yearTo: 2023, count: 305, rate: 611.7 });

    // Nearest site with clay and drainage: ZA SOTER_2633 (-33.62389, 18.75972), haversine 22 755.9 m,
    // WRB PL, drainage P. Horizons 0–60 cm 4 %, 60–95 cm 4 %, 95–115 cm 46 % clay (5 cm of it above 100 cm):
    // (60·4 + 35·4 + 5·46) / 100 = 6.1 % → s6 = round(6.1 / 6) = 1; poorly drained → s11 = 8; 1 + 8 = 9 < 12.
    const soil = report.soilData;
    expect(soil).toMatchObject({ s6Value: 1, s11Value: 8, dangerous: false, unavailable: null });
    expect(soil.site).toEqual({
      id: 'ZA SOTER_2633',
      classification: 'WRB Planosols (PL)',
      drainage: 'poorly drained',
      distance: 22755.9,
    });
    expect(soil.method).toMatch(/clay.*drainage/s);
    expect(soil.source).toMatchObject({ name: expect.stringMatching(/Africa Soil Profiles Database v1\.2/) });
  });

  it('Epping, Cape Town (-33.93, 18.55): the nearest City fire station, by haversine', async () => {
    const report = await compute(-33.93, 18.55);
    // cct_Fire_Stations.geojson: EPPING at 18.542861, -33.927541 → 713.16 m (the next, GOODWOOD, 4 062 m).
    expect(report.fireServicesData.closestFire).toEqual({
      name: 'Epping Fire Station',
      distance: 713.2,
      lat: -33.927541,
      lng: 18.542861,
    });
    expect(report.fireServicesData.unavailable).toBeNull();
    expect(report.fireServicesData.source.name).toMatch(/City of Cape Town/);
    // Elsies River precinct; its station -33.92441, 18.56443 is 1 469.3 m away; 2022/23 malicious damage
    // 654 / 66 484 × 100 000 = 983.70.
    expect(report.crimeData).toMatchObject({ precinctName: 'Elsies River', match: 'precinct' });
    expect(report.crimeData.stationDistance).toBeCloseTo(1469.3, 1);
    expect(report.crimeData.maliciousDamage.at(-1)).toEqual({ yearTo: 2023, count: 654, rate: 983.7 });
  });

  it('Johannesburg (-26.2041, 28.0473): no precinct polygons, the nearest station; no elevation', async () => {
    const report = await compute(-26.2041, 28.0473);
    expect(Value.Check(IrisReportData, report)).toBe(true);
    // Haversine to every station point of the CSV: jeppe (-26.20225, 28.06046) is nearest, 1 328.96 m.
    // Its 2022/23 burglary_nonres 185 / population 52 870 × 100 000 = 349.91.
    expect(report.crimeData).toMatchObject({
      precinctName: 'Jeppe',
      match: 'nearest station',
      population: 52870,
    });
    expect(report.crimeData.stationDistance).toBeCloseTo(1329.0, 1);
    expect(report.crimeData.burglaryBusiness.at(-1)).toEqual({ yearTo: 2023, count: 185, rate: 349.9 });
    expect(report.elevation.ele).toBeNull();
    expect(report.elevation.unavailable).toMatch(/^The elevation model covers only/);
    expect(report.fireServicesData.closestFire).toBeNull();
  });

  it('Gordon’s Bay (-34.15, 18.91): the coast in range, its altitude outside the DEM stays unknown', async () => {
    const report = await compute(-34.15, 18.91);
    const [coast] = report.waterBodyData.coastInRange;
    expect(coast).toMatchObject({
      kind: 'coast',
      altitude: null,
      altitudeClass: null,
      distanceClass: 'safe',
    });
    expect(coast.distance).toBeGreaterThan(4000);
    expect(coast.distance).toBeLessThanOrEqual(WATER_RANGE_M);
    expect(report.waterBodyData.overallClass).toBe('safe');
    // The nearest soil site with data is farther than the stated distance.
    expect(report.soilData).toMatchObject({ s6Value: null, s11Value: null, dangerous: null, site: null });
    expect(report.soilData.unavailable).toBe(
      `No soil profile with clay and drainage data lies within ${SOIL_MAX_DISTANCE_M / 1000} km of this point.`,
    );
  });

  describe('water inside the DEM (two test rivers added for this test, then removed)', () => {
    beforeAll(async () => {
      // Natural Earth has no river inside the Boland DEM: two north–south lines, at 19.0°E and 19.005°E.
      await database.dataSource.query(`
        INSERT INTO risk.rivers (feature, name, geom) VALUES
          (9001, 'Test River A', ST_GeomFromText('LINESTRING(19 -33.8, 19 -33.7)', 4326)),
          (9002, 'Test River B', ST_GeomFromText('LINESTRING(19.005 -33.8, 19.005 -33.7)', 4326))`);
    });
    afterAll(async () => {
      await database.dataSource.query('DELETE FROM risk.rivers WHERE feature IN (9001, 9002)');
    });

    it('altitude at the nearest point, classes against the point elevation, the worst overall', async () => {
      const report = await compute(-33.75, 19.003);
      // -33.75 is a grid row; 19.003 is 0.18 of a cell east of 19.0: 148·0.82 + 190·0.18 = 121.36 + 34.2 = 155.56
      expect(report.elevation.ele).toBe(155.6);
      const [b, a] = report.waterBodyData.riversInRange;
      // A: nearest point (19.0, -33.75), a grid sample: 148 m, below 155.6 − 5 = 150.6 → safe.
      // Distance: 2R·asin(cos 33.75° · sin(0.0015°)) = 277.37 m → not safe (150–<300). Milder of the two: safe.
      expect(a).toEqual({
        name: 'Test River A',
        kind: 'river',
        distance: 277.4,
        altitude: 148,
        altitudeClass: 'safe',
        distanceClass: 'not safe',
      });
      // B: nearest point (19.005, -33.75), 0.3 of the cell: 148·0.7 + 190·0.3 = 103.6 + 57 = 160.6 ≥ 155.6
      // → dangerous; 2R·asin(cos 33.75° · sin(0.001°)) = 184.91 m → not safe. Milder: not safe.
      expect(b).toEqual({
        name: 'Test River B',
        kind: 'river',
        distance: 184.9,
        altitude: 160.6,
        altitudeClass: 'dangerous',
        distanceClass: 'not safe',
      });
      // Worst over the bodies: not safe.
      expect(report.waterBodyData.overallClass).toBe('not safe');
    });
  });

  // Its speed is bench/iris.mjs's (p95 ≤ 300 ms), not a timed assertion here.
  it('computes a report anywhere in the country with no number made up (no NaN or infinity)', async () => {
    const unfinite = (value: unknown, path: string): string[] =>
      typeof value === 'number'
        ? Number.isFinite(value)
          ? []
          : [path]
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([key, inner]) => unfinite(inner, `${path}.${key}`))
          : [];
    for (let k = 0; k < 60; k++) {
      // Spread over the Western Cape and the rest of the country.
      const lat = -34 + ((k * 7) % 60) * 0.12;
      const lng = 18.4 + ((k * 11) % 60) * 0.15;
      expect(unfinite(await compute(lat, lng), `(${lat}, ${lng})`)).toEqual([]);
    }
  });
});
