/**
 * generateGeodata: lays out a realistic South African dataset around real towns and writes it with
 * upsertRows (source 'generator'), streaming: suburbs are laid out a few at a time and written while the
 * next ones are laid out, so memory stays flat at any scale.
 *
 * Two ways to write, the same rows:
 * - the upsert path: one run is one transaction: rows meet their earlier selves on (source, source_id) and
 *   keep their ids, rows an earlier (bigger, or differently seeded) run wrote and this one did not are
 *   deleted at the end, and readers see the old dataset until the new one is complete;
 * - the bulk path (bulk-run.ts), when the tables hold no generator rows yet and the run is big (a fresh
 *   benchmark database at 1 M or 10 M addresses): COPY with ids given here, indexes built at the end, one
 *   transaction and checkpoint per town, so a killed run goes on where it stopped.
 */
import type { Queryable } from '../load/upsert';
import { loadReferenceData } from '../reference/load-reference';
import { createLandTest, southAfricanTowns } from '../reference/south-africa';
import { emptyCounts, GENERATOR_SOURCE } from './batch';
import { advanceSequences, findUnfinishedBulkRun, hasGeneratorRows, restoreSchema } from './bulk';
import { generateBulk } from './bulk-run';
import { answeringRows } from './connection';
import { canCopy } from './copy';
import { townBatches, worldTowns } from './layout';
import {
  describeRun,
  GENERATED_TABLES,
  GEO_TABLES,
  type GenerateOptions,
  type GenerateProgress,
  type GenerateResult,
  progressReporter,
  worldRun,
} from './run';
import { planTowns } from './world';

export {
  describeRun,
  GEO_TABLES,
  type GenerateOptions,
  type GenerateProgress,
  type GenerateResult,
} from './run';

/** The scale `npm start` seeds when geo.addresses is empty (scripts/prepare.mjs). */
export const DEFAULT_SCALE = 20_000;
export const DEFAULT_SEED = 'portal';

/** Rows (parcels + addresses + buildings) laid out before a batch is written. */
const BATCH_ROWS = 12_000;
/** From this scale on, `bulk: 'auto'` writes an empty target with COPY (npm start's 20 000 upserts). */
export const BULK_MIN_SCALE = 100_000;

/**
 * What a run can write through: a TypeORM DataSource (a query runner is taken), a pg Pool (a client is
 * taken), or one connection (a pg Client or a TypeORM QueryRunner) that is not inside a transaction.
 */
export type GeneratorDatabase =
  | (Queryable & { createQueryRunner(): QueryRunnerLike })
  | (Queryable & { connect(): Promise<Queryable & { release(): void }>; totalCount: number })
  | Queryable;

interface QueryRunnerLike extends Queryable {
  connect(): Promise<unknown>;
  release(): Promise<void>;
}

export async function generateGeodata(
  db: GeneratorDatabase,
  options: GenerateOptions,
): Promise<GenerateResult> {
  const scale = Math.floor(options.scale);
  if (!Number.isFinite(scale) || scale < 1)
    throw new Error(`scale must be a whole number of addresses ≥ 1, got ${options.scale}`);
  const seed = String(options.seed ?? DEFAULT_SEED);
  const started = new Date();
  const plans = planTowns(southAfricanTowns(), { scale, towns: options.towns });
  const isLand = createLandTest();

  return withConnection(db, async (client) => {
    const connection = answeringRows(client);
    const bulkMode = options.bulk ?? 'auto';
    if (bulkMode !== 'never' && !canCopy(client) && bulkMode === 'always')
      throw new Error('the bulk path needs a node-postgres client or pool (COPY FROM STDIN)');
    const unfinished = await findUnfinishedBulkRun(connection);
    if (bulkMode !== 'never' && canCopy(client)) {
      const resumable = unfinished?.input === describeRun(scale, seed, options.towns);
      const empty = !(await hasGeneratorRows(connection, GENERATED_TABLES));
      if (bulkMode === 'always' && !empty && !unfinished)
        throw new Error('the bulk path writes only into tables without generator rows (use bulk: auto)');
      if (resumable || (empty && (bulkMode === 'always' || scale >= BULK_MIN_SCALE)) || unfinished) {
        return generateBulk(client, connection, plans, {
          scale,
          seed,
          options,
          started,
          unfinished,
          isLand,
        });
      }
    }
    // A stopped bulk run left indexes aside: put them back; the upsert path then updates its rows.
    if (unfinished) {
      await restoreSchema(connection, unfinished.checkpoint.deferred);
      await advanceSequences(connection);
      await connection.query('DELETE FROM geo.import_runs WHERE id = $1', [unfinished.id]);
    }
    await connection.query('BEGIN');
    try {
      const reference = await loadReferenceData(connection);
      const counts = emptyCounts();
      const progress: GenerateProgress = {
        phase: 'writing',
        addresses: 0,
        resumedAddresses: 0,
        target: scale,
        towns: 0,
        townCount: plans.length,
        rows: 0,
      };
      const report = progressReporter(progress, counts, options.onProgress);

      // Write one batch while the next is laid out; at most two batches are held.
      let writing: Promise<void> = Promise.resolve();
      const world = worldRun(seed, plans, isLand, reference.ids.towns);
      for (const { layout } of worldTowns(world)) {
        for (const batch of townBatches(layout, BATCH_ROWS)) {
          if (!batch) {
            await new Promise(setImmediate); // lets the write in flight send its next statement
            continue;
          }
          await writing;
          writing = batch.write(connection, counts).then(() => report());
          writing.catch(() => undefined); // awaited (and thrown) at the next batch or at the end
        }
        progress.towns += 1;
      }
      await writing;

      // Rows this transaction wrote (inserted or updated) carry its id as xmin; the others are stale. Every
      // table's stale rows are named before any is deleted: deleting a stale address updates its parcel's
      // address_count (the address editor's trigger), which would make that parcel look written here.
      for (const table of GENERATED_TABLES) {
        await connection.query(
          `CREATE TEMP TABLE stale_${table} ON COMMIT DROP AS SELECT id FROM geo.${table} WITH NO DATA`,
        );
        await connection.query(
          `INSERT INTO stale_${table}
           SELECT id FROM geo.${table} WHERE source = $1 AND NOT (xmin = pg_current_xact_id()::xid)`,
          [GENERATOR_SOURCE],
        );
      }
      const removed: Record<string, number> = {};
      for (const table of GENERATED_TABLES) {
        const [gone] = await connection.query(
          `WITH gone AS (
             DELETE FROM geo.${table} t USING stale_${table} s WHERE t.id = s.id RETURNING 1
           ) SELECT count(*)::int AS count FROM gone`,
        );
        removed[table] = gone.count as number;
      }

      const [run] = await connection.query(
        `INSERT INTO geo.import_runs (source, input, started_at, finished_at, loaded)
         VALUES ($1, $2, $3, clock_timestamp(), $4) RETURNING id::text AS id`,
        [
          GENERATOR_SOURCE,
          describeRun(scale, seed, options.towns),
          started.toISOString(),
          JSON.stringify(counts),
        ],
      );
      await connection.query('COMMIT');
      await connection.query(`ANALYZE ${GEO_TABLES.map((table) => `geo.${table}`).join(', ')}`);
      report();
      return {
        scale,
        seed,
        towns: plans.map((plan) => plan.town.name),
        counts,
        reference: { country: reference.country, provinces: reference.provinces, towns: reference.towns },
        removed,
        importRunId: run.id as string,
        elapsedMs: Date.now() - started.getTime(),
        path: 'upsert',
      };
    } catch (err) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}

async function withConnection<T>(
  db: GeneratorDatabase,
  work: (connection: Queryable) => Promise<T>,
): Promise<T> {
  if ('createQueryRunner' in db && typeof db.createQueryRunner === 'function') {
    const runner = db.createQueryRunner();
    await runner.connect();
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }
  if ('totalCount' in db && 'connect' in db && typeof db.connect === 'function') {
    const client = await db.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }
  return work(db);
}
