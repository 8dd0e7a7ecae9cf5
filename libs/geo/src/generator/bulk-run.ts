/**
 * The generator's bulk path (generate.ts chooses it; bulk.ts holds its pieces): COPY with ids given here,
 * indexes and constraints set aside until the end, one transaction and checkpoint per town — so a killed
 * run goes on where it stopped — laid out in this thread or in worker threads (threads.ts).
 */
import type { Queryable } from '../load/upsert';
import { loadReferenceData } from '../reference/load-reference';
import { type createLandTest, southAfricaOutline } from '../reference/south-africa';
import {
  advanceSequences,
  type BulkCheckpoint,
  copyBatch,
  copyFormats,
  deferSchema,
  emptyCheckpoint,
  idsFrom,
  nextIds,
  restoreSchema,
  runInParallel,
  type UnfinishedBulkRun,
} from './bulk';
import { GENERATOR_SOURCE } from './batch';
import { openExtraConnection } from './connection';
import type { CopyCapableClient } from './copy';
import { shortfallAfter, townBatches, worldTowns } from './layout';
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
import { type ConnectionParameters, defaultThreads, writeTownsInThreads } from './threads';
import type { TownPlan } from './world';

/**
 * Rows (parcels + addresses + buildings) per batch of the bulk path: about 2 800 addresses, a few MB of COPY
 * data. Small enough that a batch's rows are copied and dropped before the young generation is scavenged:
 * with 60 000 (one COPY per table for 17 000 addresses) most of them survived a scavenge or two and were
 * promoted, and the collector took a third of the generator's time; with 10 000 it takes a sixth.
 */
const BULK_BATCH_ROWS = 10_000;

export interface BulkRunContext {
  scale: number;
  seed: string;
  options: GenerateOptions;
  started: Date;
  /** A bulk run that was stopped: gone on with when it had this scale and seed, else its rows deleted. */
  unfinished: UnfinishedBulkRun | undefined;
  isLand: ReturnType<typeof createLandTest>;
}

/** The bulk path (bulk.ts): COPY, indexes set aside until the end, one transaction and checkpoint per town. */
export async function generateBulk(
  client: CopyCapableClient,
  connection: Queryable,
  plans: TownPlan[],
  { scale, seed, options, started, unfinished, isLand }: BulkRunContext,
): Promise<GenerateResult> {
  const wanted = describeRun(scale, seed, options.towns);
  // A town's transaction is the checkpoint: losing the last commits in a crash loses only towns redone.
  await connection.query('SET synchronous_commit = off');
  await connection.query('BEGIN');
  let runId: string;
  let checkpoint: BulkCheckpoint;
  let reference: Awaited<ReturnType<typeof loadReferenceData>>;
  try {
    reference = await loadReferenceData(connection);
    if (unfinished?.input === wanted) {
      runId = unfinished.id;
      checkpoint = unfinished.checkpoint;
    } else {
      let deferred;
      if (unfinished) {
        // Another scale or seed was stopped half-way: its rows go, what it set aside stays aside.
        for (const table of GENERATED_TABLES)
          await connection.query(`DELETE FROM geo.${table} WHERE source = $1`, [GENERATOR_SOURCE]);
        await connection.query('DELETE FROM geo.import_runs WHERE id = $1', [unfinished.id]);
        deferred = unfinished.checkpoint.deferred;
      } else deferred = await deferSchema(connection);
      checkpoint = emptyCheckpoint(deferred);
      const [run] = await connection.query(
        `INSERT INTO geo.import_runs (source, input, started_at, loaded)
         VALUES ($1, $2, $3, jsonb_build_object('bulk', $4::jsonb)) RETURNING id::text AS id`,
        [GENERATOR_SOURCE, wanted, started.toISOString(), JSON.stringify(checkpoint)],
      );
      runId = run.id as string;
    }
    await connection.query('COMMIT');
  } catch (err) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw err;
  }

  const counts = checkpoint.counts;
  const progress: GenerateProgress = {
    phase: 'writing',
    addresses: counts.addresses,
    resumedAddresses: counts.addresses,
    target: scale,
    towns: checkpoint.towns,
    townCount: plans.length,
    rows: 0,
  };
  const report = progressReporter(progress, counts, options.onProgress);
  const next = await nextIds(connection);
  const formats = await copyFormats(connection);
  const world = worldRun(seed, plans, isLand, reference.ids.towns);
  const threads = Math.max(1, Math.floor(options.threads ?? defaultThreads()));
  const parameters = (client as { connectionParameters?: ConnectionParameters }).connectionParameters;
  if (threads > 1 && parameters) {
    const { user, password, host, port, database } = parameters;
    await writeTownsInThreads({
      threads,
      plans,
      checkpoint,
      next,
      setup: {
        connection: { user, password, host, port, database },
        seed,
        plans,
        outline: southAfricaOutline(),
        townIds: plans.map((plan, index) => world.townId(plan, index)),
        coverage: plans.map((plan, index) => world.coverage(plan, index)),
        runId,
        batchRows: BULK_BATCH_ROWS,
        formats,
      },
      onProgress: (addresses, towns) => {
        progress.towns = towns;
        report(addresses, checkpoint.counts);
      },
    });
  } else {
    const take = idsFrom(next);
    for (const { index, plan, layout } of worldTowns(world, checkpoint.towns, checkpoint.shortfall)) {
      await connection.query('BEGIN');
      try {
        // One batch is copied while the next is laid out.
        let writing: Promise<unknown> = Promise.resolve();
        for (const batch of townBatches(layout, BULK_BATCH_ROWS)) {
          if (!batch) {
            await new Promise(setImmediate); // lets the COPY in flight be sent and answered
            continue;
          }
          await writing;
          report();
          writing = copyBatch(client, batch, take, counts, formats);
          writing.catch(() => undefined); // awaited (and thrown) at the next batch or at the town's end
        }
        await writing;
        const shortfall = shortfallAfter(plan, checkpoint.shortfall, layout.produced);
        await connection.query(
          `UPDATE geo.import_runs SET loaded = jsonb_build_object('bulk', $2::jsonb) WHERE id = $1`,
          [runId, JSON.stringify({ ...checkpoint, towns: index + 1, shortfall, counts })],
        );
        await connection.query('COMMIT');
        checkpoint.shortfall = shortfall;
      } catch (err) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      progress.towns = index + 1;
      report();
    }
  }
  const writeMs = Date.now() - started.getTime();

  progress.phase = 'indexing';
  // A second connection builds indexes (and vacuums) beside the first: two cores, two builds.
  const extra = await openExtraConnection(client);
  try {
    const step = (statement: string) => {
      progress.step = statement;
      report();
    };
    await restoreSchema(connection, checkpoint.deferred, {
      onStep: step,
      connections: extra ? [extra] : [],
    });
    await advanceSequences(connection);
    await connection.query(
      `UPDATE geo.import_runs SET finished_at = clock_timestamp(), loaded = $2 WHERE id = $1`,
      [runId, JSON.stringify(counts)],
    );
    // COPY leaves every page to be hinted and no visibility map: a vacuum now spares the first readers
    // that (and lets index-only scans skip the heap).
    progress.phase = 'vacuuming';
    await runInParallel(
      extra ? [connection, extra] : [connection],
      GEO_TABLES.map((table) => `VACUUM (ANALYZE) geo.${table}`),
      step,
    );
  } finally {
    await extra?.end().catch(() => undefined);
  }
  await connection.query('RESET synchronous_commit');
  return {
    scale,
    seed,
    towns: plans.map((plan) => plan.town.name),
    counts,
    reference: { country: reference.country, provinces: reference.provinces, towns: reference.towns },
    removed: {},
    importRunId: runId,
    elapsedMs: Date.now() - started.getTime(),
    path: 'bulk',
    writeMs,
    resumedAddresses: progress.resumedAddresses,
  };
}
