import {
  type CrimeData,
  type CrimePoint,
  type DataSource,
  type ElevationData,
  type FireServicesData,
  type IrisReportData,
  type ProfileSample,
  type SoilData,
  type WaterBody,
  type WaterBodyData,
} from '@portal/contracts';
import {
  bilinearElevation,
  DRAINAGE_CLASSES,
  type ElevationGrid,
  gridCell,
  isSoilDangerous,
  offsetPoint,
  profileOffsets,
  ratePer100k,
  roundCoordinate,
  SOIL_METHOD,
  soilS11,
  soilS6,
  waterAltitudeClass,
  waterBodyClass,
  waterDistanceClass,
  worstClass,
} from '@portal/domain';

/**
 * The numbers of an IRiS risk report for a point (spec 03 §3 "IRiS report"), from the `risk` layers that
 * libs/geo's importRiskLayers loads. Six statements in parallel (each a GiST lookup or a KNN `<->` search),
 * then one for the elevation samples the point, its profiles and the water's nearest points need; the
 * interpolation and the classes are the pure rules of @portal/domain.
 *
 * Distances are great-circle distances on PostGIS's mean-radius sphere (geography with use_spheroid false),
 * the same as a haversine worked by hand.
 */

/** A TypeORM DataSource (answers rows) or a pg Pool (answers { rows }). */
export interface RiskQueryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeORM and pg type their answers as any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** Water within this distance of the point is "in range" (m). */
export const WATER_RANGE_M = 5000;
/** Fire stations: without the City's boundary, a station farther than this is not this point's (m). */
export const FIRE_MAX_DISTANCE_M = 15_000;
/** Soil profile sites farther than this say nothing about the point (m). The sites are ~30 km apart. */
export const SOIL_MAX_DISTANCE_M = 50_000;
/** KNN candidates re-ordered by true distance (`<->` orders by degrees, which stretch east–west). */
const KNN_CANDIDATES = 8;

export const CRIME_UNIT =
  'incidents per 100 000 residents per year (residents of the police station area, 2025 station list)';

/** The point as SQL, from $1 (longitude) and $2 (latitude): inline, so the planner sees a constant for KNN. */
const PT = 'ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326)';
const DIST = (geom: string) => `ST_Distance(${geom}::geography, ${PT}::geography, false)`;

const rowsOf = <T>(answer: unknown): T[] => (Array.isArray(answer) ? answer : (answer as { rows: T[] }).rows);
const round1 = (n: number) => Math.round(n * 10) / 10;

interface RunRow {
  layer: string;
  dataset: string;
  dataset_date: string;
  licence: string | null;
}
interface MetaRow {
  origin_lon: number;
  origin_lat: number;
  step_lon: number;
  step_lat: number;
  cols: number;
  rows: number;
}
interface CrimeRow {
  name: string;
  match: 'precinct' | 'nearest station';
  distance: number | null;
  population: number | null;
  series: { yearTo: number; res: number; nonres: number; damage: number }[] | null;
}
interface WaterRow {
  kind: 'lake' | 'river' | 'coast';
  name: string;
  distance: number;
  lon: number;
  lat: number;
}
interface FireRow {
  name: string;
  lat: number;
  lng: number;
  distance: number;
  covered: boolean | null;
}
interface SoilRow {
  id: string;
  wrb: string | null;
  usda: string | null;
  drainage: string | null;
  clay_mean: number | null;
  distance: number;
}

const CRIME_SQL = `
  WITH precinct AS (
    SELECT pr.name, pr.station_key FROM risk.police_precincts pr
    WHERE ST_Intersects(pr.geom, ${PT})
      AND EXISTS (SELECT 1 FROM risk.crime_series s WHERE s.station_key = pr.station_key)
    LIMIT 1
  ), nearest AS (
    SELECT station AS name, station_key, distance FROM (
      SELECT s.station, s.station_key, ${DIST('s.geom')} AS distance FROM risk.crime_series s
      WHERE s.geom IS NOT NULL ORDER BY s.geom <-> ${PT} LIMIT ${KNN_CANDIDATES * 15}
    ) c ORDER BY distance LIMIT 1
  ), chosen AS (
    SELECT name, station_key, 'precinct' AS match,
           (SELECT ${DIST('s.geom')} FROM risk.crime_series s
             WHERE s.station_key = precinct.station_key AND s.geom IS NOT NULL LIMIT 1) AS distance
      FROM precinct
    UNION ALL
    SELECT name, station_key, 'nearest station', distance FROM nearest WHERE NOT EXISTS (SELECT 1 FROM precinct)
  )
  SELECT c.name, c.match, c.distance,
    (SELECT sp.population FROM risk.station_population sp WHERE sp.station_key = c.station_key
      ORDER BY sp.population DESC NULLS LAST LIMIT 1) AS population,
    (SELECT json_agg(json_build_object('yearTo', s.year_to, 'res', s.burglary_res, 'nonres', s.burglary_nonres,
                                       'damage', s.malicious_damage) ORDER BY s.year_to)
       FROM risk.crime_series s WHERE s.station_key = c.station_key) AS series
  FROM chosen c`;

const WATER_SQL = `
  SELECT kind, name, distance, ST_X(nearest) AS lon, ST_Y(nearest) AS lat FROM (
    SELECT DISTINCT ON (kind, feature) kind, feature, name, ${DIST('geom')} AS distance,
           ST_ClosestPoint(geom, ${PT}) AS nearest
    FROM (
      SELECT 'lake' AS kind, feature, name, geom FROM risk.lakes WHERE ST_DWithin(geom, ${PT}, $3)
      UNION ALL
      SELECT 'river', feature, name, geom FROM risk.rivers WHERE ST_DWithin(geom, ${PT}, $3)
      UNION ALL
      SELECT 'coast', feature, name, geom FROM risk.coastline WHERE ST_DWithin(geom, ${PT}, $3)
    ) w
    ORDER BY kind, feature, distance
  ) x
  WHERE distance <= $4
  ORDER BY distance`;

const FIRE_SQL = `
  SELECT name, lat, lng, distance,
         (SELECT bool_or(ST_Intersects(c.geom, ${PT})) FROM risk.fire_coverage c) AS covered
  FROM (
    SELECT f.name, ST_Y(f.geom) AS lat, ST_X(f.geom) AS lng, ${DIST('f.geom')} AS distance
    FROM risk.fire_stations f ORDER BY f.geom <-> ${PT} LIMIT ${KNN_CANDIDATES}
  ) c ORDER BY distance LIMIT 1`;

const SOIL_SQL = `
  SELECT * FROM (
    SELECT s.id, s.wrb, s.usda, s.drainage, s.clay_mean, ${DIST('s.geom')} AS distance
    FROM risk.soil_sites s
    WHERE s.drainage IS NOT NULL AND s.clay_mean IS NOT NULL
    ORDER BY s.geom <-> ${PT} LIMIT ${KNN_CANDIDATES}
  ) c ORDER BY distance LIMIT 1`;

/** WRB 2006 reference soil groups, as the Africa Soil Profiles database codes them (TAXGWRB). */
const WRB_GROUPS: Record<string, string> = {
  AC: 'Acrisols',
  AB: 'Albeluvisols',
  AL: 'Alisols',
  AN: 'Andosols',
  AT: 'Anthrosols',
  AR: 'Arenosols',
  CL: 'Calcisols',
  CM: 'Cambisols',
  CH: 'Chernozems',
  CR: 'Cryosols',
  DU: 'Durisols',
  FR: 'Ferralsols',
  FL: 'Fluvisols',
  GL: 'Gleysols',
  GY: 'Gypsisols',
  HS: 'Histosols',
  KS: 'Kastanozems',
  LP: 'Leptosols',
  LX: 'Lixisols',
  LV: 'Luvisols',
  NT: 'Nitisols',
  PH: 'Phaeozems',
  PL: 'Planosols',
  PT: 'Plinthosols',
  PZ: 'Podzols',
  RG: 'Regosols',
  SC: 'Solonchaks',
  SN: 'Solonetz',
  ST: 'Stagnosols',
  TC: 'Technosols',
  UM: 'Umbrisols',
  VR: 'Vertisols',
};

function soilClassification(wrb: string | null, usda: string | null): string | null {
  const parts: string[] = [];
  if (wrb)
    parts.push(`WRB ${WRB_GROUPS[wrb.toUpperCase()] ? `${WRB_GROUPS[wrb.toUpperCase()]} (${wrb})` : wrb}`);
  if (usda) parts.push(`USDA ${usda}`);
  return parts.length ? parts.join('; ') : null;
}

function sourceOf(runs: Map<string, RunRow>, layer: string, name?: (dataset: string) => string): DataSource {
  const run = runs.get(layer);
  if (!run) return { name: `${layer.replace(/_/g, ' ')}: not loaded`, date: '' };
  return {
    name: name ? name(run.dataset) : run.dataset,
    date: run.dataset_date,
    ...(run.licence ? { licence: run.licence } : {}),
  };
}

const fmtDeg = (value: number, pos: string, neg: string) =>
  `${Math.abs(value).toFixed(2)}°${value < 0 ? neg : pos}`;

/** The report data of one point. */
export async function computeRiskReport(
  db: RiskQueryable,
  point: { lat: number; lng: number },
): Promise<IrisReportData> {
  const lat = roundCoordinate(point.lat);
  const lng = roundCoordinate(point.lng);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw new RangeError(`Not a point: ${point.lat}, ${point.lng}`);
  }
  const params = [lng, lat];
  // Degrees that surely cover WATER_RANGE_M east–west (and so north–south) at this latitude.
  const rangeDegrees =
    (WATER_RANGE_M / (111_000 * Math.cos((Math.min(Math.abs(lat), 85) * Math.PI) / 180))) * 1.05;
  const q = async <T>(sql: string, extra: unknown[] = []) =>
    rowsOf<T>(await db.query(sql, [...params, ...extra]));

  const [runRows, metaRows, crimeRows, waterRows, fireRows, soilRows] = await Promise.all([
    rowsOf<RunRow>(await db.query('SELECT layer, dataset, dataset_date, licence FROM risk.import_runs')),
    rowsOf<MetaRow>(
      await db.query(
        'SELECT origin_lon, origin_lat, step_lon, step_lat, cols, rows FROM risk.elevation_grid_meta',
      ),
    ),
    q<CrimeRow>(CRIME_SQL),
    q<WaterRow>(WATER_SQL, [rangeDegrees, WATER_RANGE_M]),
    q<FireRow>(FIRE_SQL),
    q<SoilRow>(SOIL_SQL),
  ]);
  const runs = new Map(runRows.map((r) => [r.layer, r]));

  // ---- elevation: the samples every lookup needs, in one statement ----
  const meta = metaRows[0];
  const grid: ElevationGrid | null = meta
    ? {
        originLon: Number(meta.origin_lon),
        originLat: Number(meta.origin_lat),
        stepLon: Number(meta.step_lon),
        stepLat: Number(meta.step_lat),
        cols: Number(meta.cols),
        rows: Number(meta.rows),
      }
    : null;
  const offsets = profileOffsets();
  const nsPoints = offsets.map((o) => offsetPoint(lat, lng, o, 0));
  const ewPoints = offsets.map((o) => offsetPoint(lat, lng, 0, o));
  const lookups = [
    { lat, lng },
    ...nsPoints,
    ...ewPoints,
    ...waterRows.map((w) => ({ lat: w.lat, lng: w.lon })),
  ];
  const samples = new Map<string, number>();
  if (grid) {
    const is: number[] = [];
    const js: number[] = [];
    const wanted = new Set<string>();
    for (const p of lookups) {
      const cell = gridCell(grid, p.lng, p.lat);
      if (!cell) continue;
      for (const [di, dj] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]) {
        const key = `${cell.i + di},${cell.j + dj}`;
        if (wanted.has(key)) continue;
        wanted.add(key);
        is.push(cell.i + di);
        js.push(cell.j + dj);
      }
    }
    if (is.length) {
      const cells = rowsOf<{ i: number; j: number; elevation: number }>(
        await db.query(
          `SELECT g.i, g.j, g.elevation FROM risk.elevation_grid g
           JOIN unnest($1::int4[], $2::int4[]) AS w(i, j) ON g.i = w.i AND g.j = w.j`,
          [is, js],
        ),
      );
      for (const c of cells) samples.set(`${c.i},${c.j}`, Number(c.elevation));
    }
  }
  const eleAt = (p: { lat: number; lng: number }) => {
    if (!grid) return null;
    const z = bilinearElevation(grid, p.lng, p.lat, (i, j) => samples.get(`${i},${j}`));
    return z === null ? null : round1(z);
  };

  const ele = eleAt({ lat, lng });
  const profile = (points: { lat: number; lng: number }[]): ProfileSample[] =>
    ele === null ? [] : points.map((p, k) => ({ offset: offsets[k], ele: eleAt(p) }));
  const elevation: ElevationData = {
    ele,
    elevation_ns: profile(nsPoints),
    elevation_ew: profile(ewPoints),
    unavailable:
      ele !== null
        ? null
        : grid
          ? `The elevation model covers only the Boland (Stellenbosch–Paarl–Worcester, ` +
            `${fmtDeg(grid.originLon, 'E', 'W')}–${fmtDeg(grid.originLon + grid.stepLon * (grid.cols - 1), 'E', 'W')}, ` +
            `${fmtDeg(grid.originLat + grid.stepLat * (grid.rows - 1), 'N', 'S')}–${fmtDeg(grid.originLat, 'N', 'S')}); ` +
            `this point is outside it.`
          : 'No elevation model is loaded.',
    source: sourceOf(runs, 'elevation_grid'),
  };

  // ---- crime ----
  const crimeRow = crimeRows[0];
  const population =
    crimeRow?.population === null || crimeRow?.population === undefined ? null : Number(crimeRow.population);
  const seriesOf = (pick: (s: NonNullable<CrimeRow['series']>[number]) => number): CrimePoint[] =>
    (crimeRow?.series ?? []).map((s) => ({
      yearTo: s.yearTo,
      count: pick(s),
      rate: ratePer100k(pick(s), population),
    }));
  const crimeData: CrimeData = {
    precinctName: crimeRow?.name ?? null,
    match: crimeRow?.match ?? null,
    stationDistance:
      crimeRow?.distance === null || crimeRow?.distance === undefined
        ? null
        : round1(Number(crimeRow.distance)),
    population,
    burglaryBusiness: seriesOf((s) => s.nonres),
    burglaryResidential: seriesOf((s) => s.res),
    maliciousDamage: seriesOf((s) => s.damage),
    unit: population
      ? CRIME_UNIT
      : `${CRIME_UNIT}; this station's population is not known, so only counts are given`,
    unavailable: crimeRow ? null : 'No crime data is loaded.',
    source: sourceOf(runs, 'crime_series', (dataset) => {
      const pop = runs.get('station_population');
      return pop ? `${dataset}; population: ${pop.dataset} (${pop.dataset_date})` : dataset;
    }),
  };

  // ---- water ----
  const bodies: WaterBody[] = waterRows.map((w) => {
    const altitude = eleAt({ lat: w.lat, lng: w.lon });
    const distance = round1(Number(w.distance));
    return {
      name: w.name,
      kind: w.kind,
      distance,
      altitude,
      altitudeClass: altitude !== null && ele !== null ? waterAltitudeClass(altitude, ele) : null,
      distanceClass: waterDistanceClass(distance),
    };
  });
  const waterRuns = ['lakes', 'rivers', 'coastline'].map((l) => runs.get(l)).filter((r): r is RunRow => !!r);
  const waterBodyData: WaterBodyData = {
    range: WATER_RANGE_M,
    waterBodiesInRange: bodies.filter((b) => b.kind === 'lake'),
    riversInRange: bodies.filter((b) => b.kind === 'river'),
    coastInRange: bodies.filter((b) => b.kind === 'coast'),
    overallClass: worstClass(bodies.map((b) => waterBodyClass(b.altitudeClass, b.distanceClass))),
    // Without the layers, "none in range" would be a made-up answer.
    unavailable: waterRuns.length ? null : 'No water-body data is loaded.',
    source: waterRuns.length
      ? {
          name: `${waterRuns.map((r) => r.dataset).join('; ')}; altitudes: ${runs.get('elevation_grid')?.dataset ?? 'no elevation model'}`,
          date: waterRuns[0].dataset_date,
          ...(waterRuns[0].licence ? { licence: waterRuns[0].licence } : {}),
        }
      : { name: 'water bodies: not loaded', date: '' },
  };

  // ---- fire services ----
  const fire = fireRows[0];
  let fireUnavailable: string | null = null;
  if (!fire) fireUnavailable = 'No fire-station data is loaded.';
  else if (fire.covered === false)
    fireUnavailable =
      'Fire-station data covers the City of Cape Town only, and this point is outside the City: its nearest fire service is not known.';
  else if (fire.covered === null && Number(fire.distance) > FIRE_MAX_DISTANCE_M)
    fireUnavailable = `Fire-station data covers the City of Cape Town only, and no station in it is within ${FIRE_MAX_DISTANCE_M / 1000} km of this point: its nearest fire service is not known.`;
  const fireServicesData: FireServicesData = {
    closestFire:
      fire && !fireUnavailable
        ? {
            name: fire.name,
            distance: round1(Number(fire.distance)),
            lat: Number(fire.lat),
            lng: Number(fire.lng),
          }
        : null,
    unavailable: fireUnavailable,
    source: sourceOf(runs, 'fire_stations'),
  };

  // ---- soil ----
  const soil = soilRows[0] && Number(soilRows[0].distance) <= SOIL_MAX_DISTANCE_M ? soilRows[0] : undefined;
  const s6 = soil ? soilS6(soil.clay_mean === null ? null : Number(soil.clay_mean), soil.wrb) : null;
  const s11 = soil ? soilS11(soil.drainage) : null;
  const soilData: SoilData = {
    s6Value: s6,
    s11Value: s11,
    dangerous: isSoilDangerous(s6, s11),
    site: soil
      ? {
          id: soil.id,
          classification: soilClassification(soil.wrb, soil.usda),
          drainage: soil.drainage ? (DRAINAGE_CLASSES[soil.drainage] ?? soil.drainage) : null,
          distance: round1(Number(soil.distance)),
        }
      : null,
    method: SOIL_METHOD,
    unavailable: soil
      ? null
      : runs.has('soil_sites')
        ? `No soil profile with clay and drainage data lies within ${SOIL_MAX_DISTANCE_M / 1000} km of this point.`
        : 'No soil data is loaded.',
    source: sourceOf(runs, 'soil_sites'),
  };

  return {
    coordinates: { lat, lng },
    crimeData,
    elevation,
    waterBodyData,
    fireServicesData,
    soilData,
    computedAt: new Date().toISOString(),
  };
}
