import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Queryable } from '../load/upsert';
import { type Properties } from './fields';
import { readGeoJsonFeatures } from './geojson-stream';
import { createProgress, type ProgressMode } from './progress';
import { type ImportKind, ImportRun, type ImportSummary } from './run';
import { type TableWriter } from './writer';

/** Options every importer takes. */
export interface ImportOptions {
  /**
   * The `source` the rows are written with; rows meet earlier imports of the same source on (source,
   * source_id). Default: the file's name without its extension ('osm' for OpenStreetMap extracts).
   */
  source?: string;
  /** Progress display (default 'none'; the CLI uses 'auto': a bar on a terminal, plain lines in CI). */
  progress?: ProgressMode;
  /** Rows per statement (default 2000). */
  batchSize?: number;
  /**
   * After loading, link rows to what they stand in or on: addresses, buildings and POIs to the parcel
   * containing them, places to their parents, streets to their town and suburb (default true).
   */
  link?: boolean;
}

/** The default source name of a file: its name without extensions ("Muni_2020.geojson" -> "Muni_2020"). */
export function defaultSource(file: string): string {
  return basename(file).replace(/\.(geojson|json|csv|ndjson|geojsonl|geojsons|osm\.pbf|pbf|txt)$/i, '');
}

export class ImportInputError extends Error {}

/** The size of the input in bytes; a clear error when it cannot be read. */
export async function inputSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ImportInputError(`${file} is not a file.`);
    return info.size;
  } catch (err) {
    if (err instanceof ImportInputError) throw err;
    const code = (err as { code?: string }).code;
    throw new ImportInputError(
      code === 'ENOENT' ? `${file} does not exist.` : `${file} cannot be read: ${(err as Error).message}`,
    );
  }
}

/** Checks that the geo schema is there (a database that was never migrated gets a sentence, not a stack). */
export async function assertGeoSchema(db: Queryable): Promise<void> {
  const [row] = await db.query(`SELECT to_regclass('geo.import_runs') IS NOT NULL AS ready`);
  if (!row?.ready) {
    throw new ImportInputError('The database has no geo schema: run `npm run db:migrate` first.');
  }
}

/** A GeoJSON feature as the importers see it. */
export interface InputFeature {
  id?: string | number;
  properties: Properties;
  geometry: unknown;
}

export interface FeatureImport {
  writers: TableWriter[];
  /** Turns one feature into queued rows (or a rejection on the run). */
  handle(feature: InputFeature, where: string): void;
  /** After the last batch: links and other set-wide steps. */
  finish?(): Promise<void>;
}

/** A GeoJSON file, or features already in memory (converted from another format) with a name for the run. */
export type FeatureInput = string | { name: string; features: readonly unknown[] };

/**
 * The frame of the GeoJSON importers: starts the run, streams the features through `handle`, writes the
 * writers' batches as they fill (reading waits for the database, so memory stays flat), shows progress,
 * and stores the summary.
 */
export async function runFeatureImport(
  db: Queryable,
  kind: ImportKind,
  input: FeatureInput,
  options: ImportOptions,
  setup: (run: ImportRun) => FeatureImport,
): Promise<ImportSummary> {
  const file = typeof input === 'string' ? input : input.name;
  const size = typeof input === 'string' ? await inputSize(input) : input.features.length;
  await assertGeoSchema(db);
  const run = await ImportRun.start(db, kind, options.source ?? defaultSource(file), file);
  const job = setup(run);
  const progress = createProgress({
    mode: options.progress,
    label: `${kind} ${basename(file)}`,
    total: size,
  });
  const counts = () => ({ read: run.summary.read, loaded: run.loadedCount, rejected: run.rejectedCount });
  const features =
    typeof input === 'string'
      ? readGeoJsonFeatures(input)
      : input.features.map((feature, index) => ({ feature, index, bytesRead: index + 1 }));
  try {
    for await (const { feature, index, bytesRead } of features) {
      run.countRead();
      const id = (feature as { id?: unknown })?.id;
      const where = `feature ${index + 1}${typeof id === 'string' || typeof id === 'number' ? ` (id ${id})` : ''}`;
      if (typeof feature === 'string') run.reject('feature is not valid JSON', where);
      else if (
        !feature ||
        typeof feature !== 'object' ||
        (feature as { type?: unknown }).type !== 'Feature'
      ) {
        run.reject('not a GeoJSON Feature', where);
      } else {
        const { properties, geometry } = feature as { properties?: unknown; geometry?: unknown };
        job.handle(
          {
            id: typeof id === 'string' || typeof id === 'number' ? id : undefined,
            properties: properties && typeof properties === 'object' ? (properties as Properties) : {},
            geometry,
          },
          where,
        );
      }
      for (const writer of job.writers) if (writer.full) await writer.flush();
      progress.update(bytesRead, counts());
    }
    for (const writer of job.writers) await writer.flush();
    await job.finish?.();
  } catch (err) {
    run.warn(`import stopped: ${(err as Error).message}`);
    await run.finish().catch(() => undefined);
    progress.stop(counts());
    throw err;
  }
  progress.stop(counts());
  return run.finish();
}

/** The id a feature's rows are kept under: the mapped id field, the feature's id, or a fallback. */
export function featureSourceId(
  mapped: string | undefined,
  feature: InputFeature,
  fallback: () => string | undefined,
): string | undefined {
  if (mapped) return mapped;
  if (feature.id !== undefined && feature.id !== '') return String(feature.id);
  return fallback();
}
