import { parseArgs } from 'node:util';
import { Client, Pool } from 'pg';
import { DEFAULT_DATABASE_URL, redactUrl } from '@portal/db';
import {
  COVERAGE_FIELDS,
  coverageKind,
  isoDay,
  FARM_FIELDS,
  formatSummary,
  IMPORT_KINDS,
  type ImportKind,
  type ImportSummary,
  importCoverage,
  importFarms,
  importParcels,
  importPlaces,
  importPois,
  importPostalCodes,
  importSharedData,
  PARCEL_FIELDS,
  PLACE_FIELDS,
  PLACE_KINDS,
  type PlaceKind,
  POI_FIELDS,
  POSTAL_FIELDS,
  type ProgressMode,
} from './importers';
import { type Queryable } from './load/upsert';
import { importOsm } from './osm';
import { importRiskLayers, RiskImportError, riskLayersEmpty } from './risk';

/**
 * npm run geo:import -- <kind> <file> [options]: loads a real dataset into the geo schema and prints what
 * was loaded and rejected. Exit code 0 when the import ran (rejected rows included, they are in the
 * summary), 1 when it could not (no file, no database, not the format), 2 for a usage mistake.
 */
const USAGE = `Usage: npm run geo:import -- <kind> <file> [options]
       npm run geo:import -- risk [dir] [--if-empty]

Kinds:
  osm          OpenStreetMap extract (.osm.pbf): addresses, streets, POIs, places, farms, buildings
  parcels      GeoJSON polygons: parcel number, portion, SG key, parcel type, data quality, town, suburb
  farms        GeoJSON polygons: farm name, number, portion, registration division, town, province
  coverage     GeoJSON polygons: imagery surveys, kind high_resolution or ortho, name, capture date, provider
  places       GeoJSON: province/district/municipality boundaries (codes, parent codes), town/suburb points
  postal       CSV: suburb, town (area), province, street code, box code, lat, lon
  pois         GeoJSON points (or areas): name, category, POI type
  shared-data  the team's reference data folder (default ../shared/data)
  risk         the IRiS risk layers (crime, elevation, water, fire stations, soil) from the shared data
               folder (default ../shared/data) into schema risk; each layer is replaced whole

Options:
  --source NAME            the rows' source; re-importing under the same source updates them
                           (default: the file name without extension; osm: "osm")
  --database URL           PostgreSQL (default: $DATABASE_URL or ${DEFAULT_DATABASE_URL})
  --field FIELD=PROPERTY   which property holds a field, e.g. --field parcelNumber=ERF_NO (repeatable)
  --kind KIND              places: the kind of every feature (province, district, municipality, town, suburb)
  --coverage-kind KIND     coverage: the kind of every polygon (high_resolution or ortho)
  --captured-on DAY        coverage: the capture date (YYYY-MM-DD) of polygons without one
                           (default: the day of the import; the summary counts them)
  --provider NAME          coverage: the provider of polygons without a provider field
                           (default: Portal imagery, the portal's own renderer)
  --category TEXT          pois: the category of every POI without a category field
  --poi-type N             pois: 10000 (default), 10500 (estate) or 11000 (unit)
  --skip-near-duplicates M places: leave out places another source has (same name within M metres)
  --batch-size N           rows per statement (default 2000; osm 5000)
  --progress MODE          auto (default: a bar on a terminal, lines in CI), bar, lines, none
  --no-link                do not link rows to parcels, parents and places after loading
  --bulk                   osm: a national extract; rows are staged with COPY and written by one
                           statement per table, indexes set aside and built once when the load is
                           the bulk of what the tables will hold (like osm2pgsql --create); for a
                           database that is not serving users yet
  --json                   print the summary as JSON
  --if-empty               risk: only when no risk layer is loaded yet (npm start's prepare)
  -h, --help               this text`;

const FIELDS: Partial<Record<ImportKind, Record<string, unknown>>> = {
  parcels: PARCEL_FIELDS,
  farms: FARM_FIELDS,
  coverage: COVERAGE_FIELDS,
  places: PLACE_FIELDS,
  postal: POSTAL_FIELDS,
  pois: POI_FIELDS,
};

class UsageError extends Error {}

const print = (text: string) => process.stdout.write(`${text}\n`);

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} takes a whole number ≥ 1, not "${value}".`);
  return Number(value);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        source: { type: 'string' },
        database: { type: 'string' },
        field: { type: 'string', multiple: true },
        kind: { type: 'string' },
        'coverage-kind': { type: 'string' },
        'captured-on': { type: 'string' },
        provider: { type: 'string' },
        category: { type: 'string' },
        'poi-type': { type: 'string' },
        'skip-near-duplicates': { type: 'string' },
        'batch-size': { type: 'string' },
        progress: { type: 'string', default: 'auto' },
        'no-link': { type: 'boolean', default: false },
        bulk: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'if-empty': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print(USAGE);
    return 0;
  }

  if (positionals[0] === 'risk') {
    if (positionals.length > 2) {
      console.error(`One folder at a time (extra: ${positionals.slice(2).join(' ')}).\n\n${USAGE}`);
      return 2;
    }
    return importRisk(positionals[1], values.database, values['if-empty'], values.json);
  }
  if (values['if-empty']) {
    console.error(`--if-empty applies to risk only.\n\n${USAGE}`);
    return 2;
  }

  let run: (db: Queryable) => Promise<ImportSummary>;
  let bulk: Parameters<typeof importOsm>[2] | undefined;
  try {
    const [kindText, file, ...extra] = positionals;
    if (!kindText) throw new UsageError('Say what to import.');
    if (!(IMPORT_KINDS as readonly string[]).includes(kindText)) {
      throw new UsageError(`Unknown kind "${kindText}": one of ${IMPORT_KINDS.join(', ')}.`);
    }
    const kind = kindText as ImportKind;
    if (values.bulk && kind !== 'osm') throw new UsageError('--bulk applies to osm only.');

    if (!file && kind !== 'shared-data') throw new UsageError(`Say which file to import (${kind}).`);
    if (extra.length) throw new UsageError(`One file at a time (extra: ${extra.join(' ')}).`);

    const progress = values.progress as ProgressMode;
    if (!['auto', 'bar', 'lines', 'none'].includes(progress)) {
      throw new UsageError(`--progress is auto, bar, lines or none, not "${progress}".`);
    }
    const common = {
      source: values.source,
      progress,
      batchSize: positiveInteger('batch-size', values['batch-size']),
      link: !values['no-link'],
    };
    if (values.bulk) bulk = { ...common, bulk: true };
    const fields: Record<string, string> = {};
    for (const mapping of values.field ?? []) {
      const match = /^([A-Za-z]+)=(.+)$/.exec(mapping);
      const known = FIELDS[kind];
      if (!known) throw new UsageError(`--field does not apply to ${kind}.`);
      if (!match || !(match[1] in known)) {
        throw new UsageError(
          `--field takes FIELD=PROPERTY with FIELD one of ${Object.keys(known).join(', ')}; got "${mapping}".`,
        );
      }
      fields[match[1]] = match[2];
    }
    const only = (option: string, kinds: ImportKind[]) => {
      if (values[option as keyof typeof values] !== undefined && !kinds.includes(kind)) {
        throw new UsageError(`--${option} applies to ${kinds.join(', ')} only.`);
      }
    };
    only('kind', ['places']);
    only('coverage-kind', ['coverage']);
    only('captured-on', ['coverage']);
    only('provider', ['coverage']);
    only('category', ['pois']);
    only('poi-type', ['pois']);
    only('skip-near-duplicates', ['places']);

    let placeKindValue: PlaceKind | undefined;
    if (values.kind) {
      if (!(PLACE_KINDS as readonly string[]).includes(values.kind)) {
        throw new UsageError(`--kind is one of ${PLACE_KINDS.join(', ')}, not "${values.kind}".`);
      }
      placeKindValue = values.kind as PlaceKind;
    }
    const coverage = values['coverage-kind'] ? coverageKind(values['coverage-kind']) : undefined;
    if (values['coverage-kind'] && !coverage)
      throw new UsageError('--coverage-kind is high_resolution or ortho.');
    const capturedOn = values['captured-on'];
    if (capturedOn !== undefined && !isoDay(capturedOn))
      throw new UsageError(`--captured-on is a day, YYYY-MM-DD, not "${capturedOn}".`);
    const poiType = positiveInteger('poi-type', values['poi-type']);
    if (poiType !== undefined && ![10000, 10500, 11000].includes(poiType)) {
      throw new UsageError('--poi-type is 10000, 10500 or 11000.');
    }
    const nearDuplicates = positiveInteger('skip-near-duplicates', values['skip-near-duplicates']);

    run = (db) => {
      switch (kind) {
        case 'osm':
          return importOsm(db, file, common);
        case 'parcels':
          return importParcels(db, file, { ...common, fields });
        case 'farms':
          return importFarms(db, file, { ...common, fields });
        case 'coverage':
          return importCoverage(db, file, {
            ...common,
            fields,
            kind: coverage,
            capturedOn,
            provider: values.provider,
          });
        case 'places':
          return importPlaces(db, file, {
            ...common,
            fields,
            kind: placeKindValue,
            skipNearDuplicatesMeters: nearDuplicates,
          });
        case 'postal':
          return importPostalCodes(db, file, { ...common, fields });
        case 'pois':
          return importPois(db, file, { ...common, fields, category: values.category, poiType });
        case 'shared-data':
          return importSharedData(db, file, common);
      }
    };
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }

  const url = values.database || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (bulk) return importOsmBulk(url, positionals[1], bulk, values.json);
  const pool = new Pool({ connectionString: url, max: 2 });
  // The importers take rows back from a query (as TypeORM answers); pg answers a result object.
  const db: Queryable = { query: async (sql, params) => (await pool.query(sql, params)).rows };
  try {
    const summary = await run(db);
    print(values.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
    return 0;
  } catch (err) {
    return reportFailure(url, err);
  } finally {
    await pool.end();
  }
}

/** Prints why an import could not run (the database, or the import's own message); answers exit code 1. */
function reportFailure(url: string, err: unknown): number {
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '3D000' || code === '28P01') {
    console.error(`geo:import: cannot use the database ${redactUrl(url)}: ${message || code}`);
  } else console.error(`geo:import failed: ${message || String(err)}`);
  return 1;
}

/** npm run geo:import -- osm FILE --bulk: one client of its own (COPY and the session's staging tables). */
async function importOsmBulk(
  url: string,
  file: string,
  options: Parameters<typeof importOsm>[2],
  json: boolean,
): Promise<number> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    const summary = await importOsm(client, file, options);
    print(json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
    return 0;
  } catch (err) {
    return reportFailure(url, err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** npm run geo:import -- risk [dir]: one connection, each layer in a transaction of its own. */
async function importRisk(
  dir: string | undefined,
  database: string | undefined,
  ifEmpty: boolean,
  json: boolean,
): Promise<number> {
  const url = database || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    const db: Queryable = { query: async (sql, params) => (await client.query(sql, params)).rows };
    if (ifEmpty && !(await riskLayersEmpty(db))) {
      print('risk: layers already loaded (or no risk schema), nothing to do');
      return 0;
    }
    const summary = await importRiskLayers(db, dir, { log: json ? undefined : print });
    print(
      json
        ? JSON.stringify(summary, null, 2)
        : `risk: ${Object.keys(summary.loaded).length} layers from ${summary.dir} in ${summary.seconds} s` +
            (summary.skipped.length ? ` (skipped, file missing: ${summary.skipped.join(', ')})` : ''),
    );
    return 0;
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (err instanceof RiskImportError) console.error(`geo:import: ${message}`);
    else if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '3D000' || code === '28P01') {
      console.error(`geo:import: cannot use the database ${redactUrl(url)}: ${message || code}`);
    } else console.error(`geo:import failed: ${message || String(err)}`);
    return 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

void main(process.argv.slice(2)).then((exitCode) => {
  process.exitCode = exitCode;
});
