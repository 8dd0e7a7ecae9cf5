// One file on purpose (over 500 lines): each risk layer's reader is a short function over the same CSV and
// transaction helpers, and the layers are imported in one order (stations before the series that name them).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { financialYearTo, meanClayPercent, stationKey, type SoilHorizon } from '@portal/domain';
import { type Queryable } from '../load/upsert';
import { findSharedDataDir } from '../importers/shared-data';
import { POPULATION_KEY_ALIASES, RISK_LAYER_SOURCES, RISK_LAYERS, type RiskLayer } from './layers';

/**
 * The IRiS risk layers from the shared data folder into schema `risk`. Each layer is replaced whole in one
 * transaction (delete, batched insert through unnest arrays, its `risk.import_runs` row), so re-running
 * gives the same rows, never copies. A whole import takes a second or two.
 */

/**
 * Where the layers go: a TypeORM DataSource (each layer in a transaction of its own query runner), or one
 * connection (a pg Client wrapped to answer rows) on which BEGIN/COMMIT are sent.
 */
export type RiskDatabase = Queryable & {
  createQueryRunner?: () => {
    connect(): Promise<unknown>;
    startTransaction(): Promise<void>;
    commitTransaction(): Promise<void>;
    rollbackTransaction(): Promise<void>;
    release(): Promise<void>;
    query: Queryable['query'];
  };
};

export interface RiskImportOptions {
  /** Only these layers (default all). */
  layers?: readonly RiskLayer[];
  /** A line per layer ("risk: crime_series 17 265 rows from … in 0.4 s"); default none. */
  log?: (line: string) => void;
}

export interface RiskImportSummary {
  dir: string;
  /** Rows loaded per layer (elevation_grid: the samples; fire_stations: the stations). */
  loaded: Partial<Record<RiskLayer, number>>;
  /** Layers left out because their file is missing. */
  skipped: RiskLayer[];
  seconds: number;
}

export class RiskImportError extends Error {}

async function inTransaction<T>(db: RiskDatabase, work: (tx: Queryable) => Promise<T>): Promise<T> {
  if (db.createQueryRunner) {
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const result = await work(runner);
      await runner.commitTransaction();
      return result;
    } catch (err) {
      await runner.rollbackTransaction();
      throw err;
    } finally {
      await runner.release();
    }
  }
  await db.query('BEGIN');
  try {
    const result = await work(db);
    await db.query('COMMIT');
    return result;
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
}

/** Text of a file: UTF-8, or Latin-1 when it is not valid UTF-8 (the SAPS series has "khâi-ma" in Latin-1). */
async function readText(path: string): Promise<string> {
  const bytes = await readFile(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

type Row = Record<string, string>;
async function readCsv(path: string): Promise<Row[]> {
  return parse(await readText(path), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
    // The SAPS file ends its header with CRLF and its rows with LF.
    record_delimiter: ['\r\n', '\n'],
  }) as Row[];
}

interface Feature {
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates: unknown } | null;
}
async function readFeatures(path: string): Promise<Feature[]> {
  const json = JSON.parse(await readText(path)) as { features?: Feature[] };
  if (!Array.isArray(json.features)) throw new RiskImportError(`${path} is not a GeoJSON FeatureCollection.`);
  return json.features;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null;
const num = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '' || value === 'NA') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
/** "STELLENBOSCH" / "king william's town" → "Stellenbosch" / "King William's Town". */
export function titleCase(name: string): string {
  return name
    .toLowerCase()
    .replace(/(^|[\s\-(/])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** Replaces one layer: deletes its rows, runs its inserts, records the run; all in one transaction. */
async function replaceLayer(
  db: RiskDatabase,
  layer: RiskLayer,
  tables: string[],
  insert: (tx: Queryable) => Promise<number>,
): Promise<number> {
  const source = RISK_LAYER_SOURCES[layer];
  return inTransaction(db, async (tx) => {
    for (const table of tables) await tx.query(`DELETE FROM risk.${table}`);
    const rows = await insert(tx);
    await tx.query(
      `INSERT INTO risk.import_runs (layer, dataset, dataset_date, licence, source_file, rows_loaded, loaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (layer) DO UPDATE SET dataset = EXCLUDED.dataset, dataset_date = EXCLUDED.dataset_date,
         licence = EXCLUDED.licence, source_file = EXCLUDED.source_file, rows_loaded = EXCLUDED.rows_loaded,
         loaded_at = EXCLUDED.loaded_at`,
      [
        layer,
        source.dataset,
        source.date,
        source.licence,
        [source.file, ...(source.extraFiles ?? [])].join(', '),
        rows,
      ],
    );
    return rows;
  });
}

/** GeoJSON of a feature's geometry, or null (one Natural Earth river has none). */
const geometryJson = (f: Feature) =>
  f.geometry && f.geometry.coordinates ? JSON.stringify(f.geometry) : null;

type Loader = (tx: Queryable, path: (file: string) => string) => Promise<number>;

const LOADERS: Record<RiskLayer, { tables: string[]; load: Loader }> = {
  police_stations: {
    tables: ['police_stations'],
    load: async (tx, path) => {
      const features = (await readFeatures(path(RISK_LAYER_SOURCES.police_stations.file))).filter(
        (f) => text(f.properties?.NAME) && geometryJson(f),
      );
      await tx.query(
        `INSERT INTO risk.police_stations (name, station_key, province, source, geom)
         SELECT n, k, p, 'saps-2014', ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(n, k, p, g)`,
        [
          features.map((f) => text(f.properties!.NAME)),
          features.map((f) => stationKey(text(f.properties!.NAME)!)),
          features.map((f) => text(f.properties!.PROV)),
          features.map(geometryJson),
        ],
      );
      return features.length;
    },
  },
  police_precincts: {
    tables: ['police_precincts'],
    load: async (tx, path) => {
      const features = (await readFeatures(path(RISK_LAYER_SOURCES.police_precincts.file))).filter(
        (f) => text(f.properties?.COMPNT_NM) && geometryJson(f),
      );
      await tx.query(
        `INSERT INTO risk.police_precincts (name, station_key, geom)
         SELECT n, k, ST_Multi(ST_CollectionExtract(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)), 3))
         FROM unnest($1::text[], $2::text[], $3::text[]) AS t(n, k, g)`,
        [
          features.map((f) => text(f.properties!.PolicePrec) ?? titleCase(text(f.properties!.COMPNT_NM)!)),
          features.map((f) => stationKey(text(f.properties!.COMPNT_NM)!)),
          features.map(geometryJson),
        ],
      );
      return features.length;
    },
  },
  crime_series: {
    tables: ['crime_series'],
    load: async (tx, path) => {
      const rows = await readCsv(path(RISK_LAYER_SOURCES.crime_series.file));
      const seen = new Map<string, number>();
      const cols = {
        station: [] as string[],
        key: [] as string[],
        year: [] as number[],
        res: [] as number[],
        nonres: [] as number[],
        damage: [] as number[],
        lon: [] as (number | null)[],
        lat: [] as (number | null)[],
      };
      for (const row of rows) {
        const year = financialYearTo(row.year ?? '');
        const name = text(row.station);
        if (!year || !name) continue;
        const key = stationKey(name);
        // One row per station and year: a repeated pair keeps its last figures.
        const at = seen.get(`${key}|${year}`);
        const index = at ?? cols.key.length;
        seen.set(`${key}|${year}`, index);
        const lon = num(row.longitude);
        const lat = num(row.latitude);
        const valid = lon !== null && lat !== null && Math.abs(lon) <= 180 && Math.abs(lat) <= 90;
        cols.station[index] = titleCase(name);
        cols.key[index] = key;
        cols.year[index] = year;
        cols.res[index] = num(row.burglary_res) ?? 0;
        cols.nonres[index] = num(row.burglary_nonres) ?? 0;
        cols.damage[index] = num(row.malicious_damage) ?? 0;
        cols.lon[index] = valid ? lon : null;
        cols.lat[index] = valid ? lat : null;
      }
      await tx.query(
        `INSERT INTO risk.crime_series
           (station, station_key, year_to, burglary_res, burglary_nonres, malicious_damage, lon, lat, geom)
         SELECT s, k, y, r, n, d, x, yy,
                CASE WHEN x IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(x, yy), 4326) END
         FROM unnest($1::text[], $2::text[], $3::int4[], $4::int4[], $5::int4[], $6::int4[], $7::float8[], $8::float8[])
           AS t(s, k, y, r, n, d, x, yy)`,
        [cols.station, cols.key, cols.year, cols.res, cols.nonres, cols.damage, cols.lon, cols.lat],
      );
      return cols.key.length;
    },
  },
  station_population: {
    tables: ['station_population'],
    load: async (tx, path) => {
      const rows = (await readCsv(path(RISK_LAYER_SOURCES.station_population.file))).filter(
        (r) => text(r.code) && text(r.name),
      );
      const key = (name: string) => {
        const k = stationKey(name);
        return POPULATION_KEY_ALIASES[k] ?? k;
      };
      await tx.query(
        `INSERT INTO risk.station_population (code, name, station_key, province, population, area_km2)
         SELECT c, n, k, p, pop, a FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int4[], $6::float8[])
           AS t(c, n, k, p, pop, a)
         ON CONFLICT (code) DO NOTHING`,
        [
          rows.map((r) => r.code),
          rows.map((r) => r.name),
          rows.map((r) => key(r.name)),
          rows.map((r) => text(r.prov_code)),
          rows.map((r) => {
            const p = num(r.population);
            return p === null ? null : Math.round(p);
          }),
          rows.map((r) => num(r.area_km2)),
        ],
      );
      return rows.length;
    },
  },
  elevation_grid: {
    tables: ['elevation_grid', 'elevation_grid_meta'],
    load: async (tx, path) => {
      const file = path(RISK_LAYER_SOURCES.elevation_grid.file);
      const samples = (await readCsv(file))
        .map((r) => ({ lon: num(r.lon), lat: num(r.lat), ele: num(r.elevation_m) }))
        .filter(
          (s): s is { lon: number; lat: number; ele: number } =>
            s.lon !== null && s.lat !== null && s.ele !== null,
        );
      const lons = [...new Set(samples.map((s) => s.lon))].sort((a, b) => a - b);
      const lats = [...new Set(samples.map((s) => s.lat))].sort((a, b) => a - b);
      const cols = lons.length;
      const rowsCount = lats.length;
      if (cols < 2 || rowsCount < 2 || cols * rowsCount !== samples.length) {
        throw new RiskImportError(
          `${file}: not a full grid (${samples.length} samples on ${cols} longitudes × ${rowsCount} latitudes).`,
        );
      }
      const origin = { lon: lons[0], lat: lats[0] };
      const step = {
        lon: (lons[cols - 1] - lons[0]) / (cols - 1),
        lat: (lats[rowsCount - 1] - lats[0]) / (rowsCount - 1),
      };
      const index = (value: number, start: number, size: number, what: string) => {
        const k = (value - start) / size;
        if (Math.abs(k - Math.round(k)) > 1e-6)
          throw new RiskImportError(`${file}: ${what} ${value} is off the grid.`);
        return Math.round(k);
      };
      const is = samples.map((s) => index(s.lon, origin.lon, step.lon, 'longitude'));
      const js = samples.map((s) => index(s.lat, origin.lat, step.lat, 'latitude'));
      await tx.query(
        `INSERT INTO risk.elevation_grid (i, j, lon, lat, elevation, geom)
         SELECT i, j, x, y, e, ST_SetSRID(ST_MakePoint(x, y), 4326)
         FROM unnest($1::int4[], $2::int4[], $3::float8[], $4::float8[], $5::float4[]) AS t(i, j, x, y, e)`,
        [is, js, samples.map((s) => s.lon), samples.map((s) => s.lat), samples.map((s) => s.ele)],
      );
      await tx.query(
        `INSERT INTO risk.elevation_grid_meta (origin_lon, origin_lat, step_lon, step_lat, cols, rows, extent)
         SELECT x0, y0, dx, dy, c, r, ST_MakeEnvelope(x0, y0, x0 + dx * (c - 1), y0 + dy * (r - 1), 4326)
         FROM (VALUES ($1::float8, $2::float8, $3::float8, $4::float8, $5::int4, $6::int4)) AS v(x0, y0, dx, dy, c, r)`,
        [origin.lon, origin.lat, step.lon, step.lat, cols, rowsCount],
      );
      return samples.length;
    },
  },
  rivers: {
    tables: ['rivers'],
    load: (tx, path) =>
      loadWater(tx, path(RISK_LAYER_SOURCES.rivers.file), 'rivers', (p) => {
        const name = text(p.name_en) ?? text(p.name) ?? 'River';
        // Natural Earth draws a river through its dams as a "Lake Centerline" of the same name.
        return p.featurecla === 'Lake Centerline' ? `${name} (through its dams)` : name;
      }),
  },
  lakes: {
    tables: ['lakes'],
    load: (tx, path) =>
      loadWater(
        tx,
        path(RISK_LAYER_SOURCES.lakes.file),
        'lakes',
        (p) => text(p.name) ?? text(p.dam_name) ?? 'Unnamed lake',
      ),
  },
  coastline: {
    tables: ['coastline'],
    load: (tx, path) =>
      loadWater(tx, path(RISK_LAYER_SOURCES.coastline.file), 'coastline', () => 'Coastline'),
  },
  fire_stations: {
    tables: ['fire_stations', 'fire_coverage'],
    load: async (tx, path) => {
      const features = (await readFeatures(path(RISK_LAYER_SOURCES.fire_stations.file))).filter(
        (f) => text(f.properties?.FIRE_STN_N) && geometryJson(f),
      );
      await tx.query(
        `INSERT INTO risk.fire_stations (name, code, class, geom)
         SELECT n, c, k, ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(n, c, k, g)`,
        [
          features.map((f) => `${titleCase(text(f.properties!.FIRE_STN_N)!)} Fire Station`),
          features.map((f) => text(f.properties!.FIRE_STN_C)),
          features.map((f) => {
            const c = text(f.properties!.FIRE_STN_1);
            return c ? c.toLowerCase() : null;
          }),
          features.map(geometryJson),
        ],
      );
      const wardsFile = path(RISK_LAYER_SOURCES.fire_stations.extraFiles![0]);
      if (existsSync(wardsFile)) {
        const wards = (await readFeatures(wardsFile))
          .map(geometryJson)
          .filter((g): g is string => g !== null);
        await tx.query(
          `INSERT INTO risk.fire_coverage (name, geom)
           SELECT 'City of Cape Town',
                  ST_Multi(ST_CollectionExtract(ST_MakeValid(ST_UnaryUnion(ST_Collect(
                    ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326))))), 3))
           FROM unnest($1::text[]) AS t(g)`,
          [wards],
        );
      }
      return features.length;
    },
  },
  soil_sites: {
    tables: ['soil_sites'],
    load: async (tx, path) => {
      const features = (await readFeatures(path(RISK_LAYER_SOURCES.soil_sites.file))).filter(
        (f) => text(f.properties?.SOURCEID) && geometryJson(f),
      );
      const horizonsFile = path(RISK_LAYER_SOURCES.soil_sites.extraFiles![0]);
      const horizons = new Map<string, (SoilHorizon & { oc: number | null; ph: number | null })[]>();
      if (existsSync(horizonsFile)) {
        for (const r of await readCsv(horizonsFile)) {
          const top = num(r.UHDICM);
          const bottom = num(r.LHDICM);
          if (top === null || bottom === null) continue;
          const list = horizons.get(r.SOURCEID) ?? [];
          list.push({ top, bottom, clay: num(r.CLYPPT), oc: num(r.ORCDRC), ph: num(r.PHIHOX) });
          horizons.set(r.SOURCEID, list);
        }
      }
      const aggregates = features.map((f) => {
        const list = (horizons.get(text(f.properties!.SOURCEID)!) ?? []).sort((a, b) => a.top - b.top);
        const clays = list.map((h) => h.clay).filter((c): c is number => c !== null);
        const top = list[0];
        return {
          horizons: list.length,
          clayMean: meanClayPercent(list),
          clayMax: clays.length ? Math.max(...clays) : null,
          depth: list.length ? Math.max(...list.map((h) => h.bottom)) : null,
          oc: top?.oc ?? null,
          ph: top?.ph ?? null,
        };
      });
      const p = (name: string) => features.map((f) => text(f.properties![name]));
      await tx.query(
        `INSERT INTO risk.soil_sites (id, source_db, sampled, wrb, usda, drainage, horizons, clay_mean, clay_max,
                                      depth_cm, organic_carbon_top, ph_top, geom)
         SELECT id, db, sampled, wrb, usda, drainage, h, cm, cx, d, oc, ph, ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[],
                     $8::float8[], $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::text[])
           AS t(id, db, sampled, wrb, usda, drainage, h, cm, cx, d, oc, ph, g)
         ON CONFLICT (id) DO NOTHING`,
        [
          p('SOURCEID'),
          p('SOURCEDB'),
          p('TIMESTRR'),
          p('TAXGWRB'),
          p('TAXNUSDA'),
          features.map((f) => text(f.properties!.DRAINFAO)?.toUpperCase() ?? null),
          aggregates.map((a) => a.horizons),
          aggregates.map((a) => a.clayMean),
          aggregates.map((a) => a.clayMax),
          aggregates.map((a) => a.depth),
          aggregates.map((a) => a.oc),
          aggregates.map((a) => a.ph),
          features.map(geometryJson),
        ],
      );
      return features.length;
    },
  },
};

/** Lines and polygons as short pieces (ST_Subdivide, 64 vertices) tagged with their feature's number. */
async function loadWater(
  tx: Queryable,
  file: string,
  table: 'rivers' | 'lakes' | 'coastline',
  name: (p: Record<string, unknown>) => string,
): Promise<number> {
  const features = (await readFeatures(file)).filter((f) => geometryJson(f));
  const dimension = table === 'lakes' ? 3 : 2;
  await tx.query(
    `INSERT INTO risk.${table} (feature, name, geom)
     SELECT f, n, (ST_Dump(ST_Subdivide(ST_CollectionExtract(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)), ${dimension}), 64))).geom
     FROM unnest($1::int4[], $2::text[], $3::text[]) AS t(f, n, g)`,
    [
      features.map((_, k) => k + 1),
      features.map((f) => name(f.properties ?? {})),
      features.map(geometryJson),
    ],
  );
  return features.length;
}

/**
 * Loads the risk layers from the shared data folder (default: findSharedDataDir()). A layer whose file is
 * missing is skipped (listed in `skipped`); a folder that is not there is an error.
 */
export async function importRiskLayers(
  db: RiskDatabase,
  dir: string | undefined = findSharedDataDir(),
  options: RiskImportOptions = {},
): Promise<RiskImportSummary> {
  if (!dir || !existsSync(dir)) {
    throw new RiskImportError(
      `No shared data folder${dir ? ` at ${dir}` : ''}: pass its path (npm run geo:import -- risk ../shared/data).`,
    );
  }
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const path = (file: string) => join(dir, file);
  const summary: RiskImportSummary = { dir, loaded: {}, skipped: [], seconds: 0 };
  for (const layer of options.layers ?? RISK_LAYERS) {
    const file = RISK_LAYER_SOURCES[layer].file;
    if (!existsSync(path(file))) {
      summary.skipped.push(layer);
      log(`risk: ${layer} skipped, ${file} not found`);
      continue;
    }
    const t0 = performance.now();
    const { tables, load } = LOADERS[layer];
    const rows = await replaceLayer(db, layer, tables, (tx) => load(tx, path));
    summary.loaded[layer] = rows;
    log(
      `risk: ${layer}: ${rows.toLocaleString('en-ZA')} rows from ${file} in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
    );
  }
  summary.seconds = Math.round((performance.now() - started) / 10) / 100;
  return summary;
}

/** True when the risk schema exists and has no rows in any layer (what `npm start`'s prepare checks). */
export async function riskLayersEmpty(db: Queryable): Promise<boolean> {
  const [schema] = (await db.query(`SELECT to_regclass('risk.import_runs') IS NOT NULL AS present`)) as {
    present: boolean;
  }[];
  if (!schema.present) return false;
  const [runs] = (await db.query('SELECT count(*)::int AS n FROM risk.import_runs')) as { n: number }[];
  return runs.n === 0;
}
