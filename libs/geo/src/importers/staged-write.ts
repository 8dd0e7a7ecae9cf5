import { deferSchema, type DeferredSchema, restoreSchema } from '../generator/bulk';
import { openExtraConnection } from '../generator/connection';
import { type CopyCapableClient } from '../generator/copy';
import { type Queryable, type UpsertColumn } from '../load/upsert';
import { type ImportRun } from './run';
import { type StagedColumn, type StagedTableWriter } from './staged-writer';

/**
 * The end of a bulk import (StagedTableWriter): every staged table written into geo.* in one transaction,
 * and, when the import is the bulk of what its tables will hold, with their secondary indexes, unique and
 * foreign-key constraints set aside and built once afterwards — what osm2pgsql's --create does.
 */

/** The tables whose indexes a bulk import may set aside (places is small, parcels it does not write). */
const DEFERRABLE = ['streets', 'addresses', 'pois', 'buildings', 'farms'];

/** The columns of an upsert as staged columns: a geometry read from GeoJSON is staged as geometry (EWKB). */
export function stagedColumns(columns: readonly UpsertColumn[]): StagedColumn[] {
  return columns.map((column) => {
    const geoJson = 'ST_SetSRID(ST_GeomFromGeoJSON($), 4326)';
    if (!column.expression?.includes(geoJson)) return { ...column };
    const expression = column.expression.replace(geoJson, '$');
    return { ...column, type: 'geometry', expression: expression === '$' ? undefined : expression };
  });
}

export interface StagedWriteResult {
  /** Whether indexes were set aside and rebuilt. */
  deferred: boolean;
  /** Rows each table held before (estimated) and rows staged. */
  existingRows: number;
  stagedRows: number;
}

/**
 * Writes every staged table (in order: a table others refer to first). Indexes are set aside when no row of
 * this source is in the tables yet (so the unique (source, source_id) index cannot be broken) and the import
 * brings more rows than they hold (rebuilding over what is there costs less than keeping the index up).
 * What is set aside is recorded in the run's geo.import_runs row until it is back, so a run killed while
 * indexing is healed by the next bulk import (restoreUnfinishedBulkImports).
 */
export async function writeStaged(
  client: CopyCapableClient,
  db: Queryable,
  run: ImportRun,
  writers: readonly StagedTableWriter[],
  onStep: (step: string) => void = () => undefined,
): Promise<StagedWriteResult> {
  const tables = [...new Set(writers.map((writer) => writer.table.replace(/^geo\./, '')))];
  let existingRows = 0;
  let hasSource = false;
  for (const table of tables) {
    const [row] = await db.query(
      `SELECT greatest(c.reltuples, 0)::float8 AS estimate,
              EXISTS (SELECT 1 FROM geo.${table} WHERE source = $1) AS has
         FROM pg_class c WHERE c.oid = 'geo.${table}'::regclass`,
      [run.summary.source],
    );
    existingRows += Number(row.estimate);
    hasSource ||= row.has;
  }
  const stagedRows = writers.reduce((sum, writer) => sum + writer.rows, 0);
  const defer = !hasSource && stagedRows > existingRows;

  let deferred: DeferredSchema | undefined;
  await db.query('BEGIN');
  try {
    if (defer) {
      onStep('setting aside the indexes and constraints of the tables written');
      deferred = await deferSchema(
        db,
        DEFERRABLE.filter((table) => tables.includes(table)),
      );
      await db.query(
        `UPDATE geo.import_runs SET loaded = jsonb_build_object('deferred', $2::jsonb) WHERE id = $1`,
        [run.summary.runId, JSON.stringify(deferred)],
      );
    }
    for (const writer of writers) {
      onStep(`writing ${writer.table} (${writer.rows} rows staged)`);
      await writer.write({ upsert: !defer });
    }
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  if (deferred) {
    await restoreDeferred(client, db, deferred, onStep);
    await db.query(`UPDATE geo.import_runs SET loaded = loaded - 'deferred' WHERE id = $1`, [
      run.summary.runId,
    ]);
  }
  return { deferred: Boolean(deferred), existingRows: Math.round(existingRows), stagedRows };
}

/** Puts back what a bulk import set aside, two index builds at a time (a second connection when it can). */
async function restoreDeferred(
  client: CopyCapableClient,
  db: Queryable,
  deferred: DeferredSchema,
  onStep: (step: string) => void,
): Promise<void> {
  const extra = await openExtraConnection(client);
  try {
    await restoreSchema(db, deferred, {
      connections: extra ? [extra] : [],
      onStep: (statement) => onStep(statement.replace(/\s+/g, ' ').slice(0, 120)),
    });
  } finally {
    await extra?.end();
  }
}

/**
 * Bulk imports killed after setting indexes aside and before putting them back: their rows are in (the
 * write is one transaction), their indexes are built now and the run is closed with a warning.
 */
export async function restoreUnfinishedBulkImports(
  client: CopyCapableClient,
  db: Queryable,
  onStep: (step: string) => void = () => undefined,
): Promise<number> {
  const runs: { id: string; deferred: DeferredSchema }[] = await db.query(
    `SELECT id::text AS id, loaded->'deferred' AS deferred FROM geo.import_runs
      WHERE finished_at IS NULL AND loaded ? 'deferred' ORDER BY id`,
  );
  for (const { id, deferred } of runs) {
    onStep(`import run ${id} stopped before its indexes were back: building them`);
    await restoreDeferred(client, db, deferred, onStep);
    await db.query(
      `UPDATE geo.import_runs SET finished_at = now(),
              loaded = jsonb_build_object('warnings',
                jsonb_build_object('stopped while building indexes; they were built by a later import', 1))
        WHERE id = $1`,
      [id],
    );
  }
  return runs.length;
}
