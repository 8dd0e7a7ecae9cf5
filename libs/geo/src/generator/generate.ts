/**
 * generateGeodata: lays out a realistic South African dataset around real towns and writes it with
 * upsertRows (source 'generator'), streaming: suburbs are laid out a few at a time and written while the
 * next ones are laid out, so memory stays flat at any scale.
 *
 * One run is one transaction: rows meet their earlier selves on (source, source_id) and keep their ids,
 * rows an earlier (bigger, or differently seeded) run wrote and this one did not are deleted at the end,
 * and readers see the old dataset until the new one is complete.
 */
import type { Queryable } from '../load/upsert';
import { loadReferenceData, type ReferenceCounts } from '../reference/load-reference';
import { createLandTest, importanceOfPopulation, southAfricanTowns } from '../reference/south-africa';
import { answeringRows } from './connection';
import { Batch, emptyCounts, GENERATOR_SOURCE, type GeneratedCounts } from './batch';
import { Random } from './random';
import { type CoverageState, TownLayout } from './town';
import { planTowns, type TownPlan } from './world';

/** The scale `npm start` seeds when geo.addresses is empty (scripts/prepare.mjs). */
export const DEFAULT_SCALE = 20_000;
export const DEFAULT_SEED = 'portal';

/** Rows (parcels + addresses + buildings) laid out before a batch is written. */
const BATCH_ROWS = 12_000;

/** The geo tables the generator writes, children first (the order stale rows are deleted in). */
const GENERATED_TABLES = [
  'pois',
  'buildings',
  'addresses',
  'farms',
  'parcels',
  'streets',
  'postal_codes',
  'imagery_coverage',
  'places',
] as const;

export const GEO_TABLES = [
  'places',
  'postal_codes',
  'streets',
  'parcels',
  'addresses',
  'pois',
  'farms',
  'buildings',
  'imagery_coverage',
  'import_runs',
] as const;

export interface GenerateProgress {
  /** Addresses written so far, and the target. */
  addresses: number;
  target: number;
  /** Towns laid out so far, of how many. */
  towns: number;
  townCount: number;
  /** All rows written so far. */
  rows: number;
}

export interface GenerateOptions {
  /** Target number of addresses. */
  scale: number;
  /** Same seed and scale → the same rows. Default 'portal'. */
  seed?: string | number;
  /** Only these towns (GeoNames names, e.g. ['Stellenbosch', 'Pretoria', 'Durban']). */
  towns?: readonly string[];
  onProgress?: (progress: GenerateProgress) => void;
}

export interface GenerateResult {
  scale: number;
  seed: string;
  towns: string[];
  counts: GeneratedCounts;
  reference: ReferenceCounts;
  /** Generator rows of earlier runs this run no longer has, deleted, by table. */
  removed: Record<string, number>;
  /** The geo.import_runs row of this run. */
  importRunId: string;
  elapsedMs: number;
}

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
    await connection.query('BEGIN');
    try {
      const reference = await loadReferenceData(connection);
      const counts = emptyCounts();
      const progress: GenerateProgress = {
        addresses: 0,
        target: scale,
        towns: 0,
        townCount: plans.length,
        rows: 0,
      };
      const report = () => {
        progress.addresses = counts.addresses;
        progress.rows = Object.values(counts).reduce((sum, value) => sum + value, 0);
        options.onProgress?.({ ...progress });
      };

      // Write one batch while the next is laid out; at most two batches are held.
      let batch = new Batch();
      let writing: Promise<void> = Promise.resolve();
      const submit = async () => {
        const full = batch;
        batch = new Batch();
        await writing;
        writing = full.write(connection, counts).then(report);
        writing.catch(() => undefined); // awaited (and thrown) at the next submit or at the end
      };

      let shortfall = 0;
      for (const plan of plans) {
        const layout = new TownLayout({
          seed,
          plan: { ...plan, target: plan.target + shortfall },
          townId: reference.ids.towns.get(plan.town.geonameId) as string,
          isLand,
          coverage: coverageOf(plan, plans.length, seed),
        });
        while (layout.nextSuburb(batch)) {
          if (batch.size >= BATCH_ROWS) await submit();
          else await new Promise(setImmediate); // lets the write in flight send its next statement
        }
        layout.finish(batch);
        // A town hemmed in by the sea or its neighbours passes what it could not lay out to the next one.
        shortfall = Math.max(0, plan.target + shortfall - layout.produced);
        progress.towns += 1;
      }
      await submit();
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
      };
    } catch (err) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}

/** How a run is recorded in geo.import_runs.input (and recognised again: bench/lib/geo-dataset.mjs). */
export function describeRun(scale: number, seed: string | number, towns?: readonly string[]): string {
  return `generator --scale ${scale} --seed ${seed}${towns?.length ? ` --towns ${towns.join(',')}` : ''}`;
}

/**
 * Imagery per town: the biggest has high-resolution imagery; with three or more towns the smallest has
 * none and the next smallest ortho only, so every run has all three states; the others by chance, bigger
 * towns likelier to be flown.
 */
function coverageOf(plan: TownPlan, townCount: number, seed: string): CoverageState {
  if (plan.rank === 0) return 'high_resolution';
  if (townCount >= 3 && plan.rank === townCount - 1) return 'none';
  if (townCount >= 2 && plan.rank === Math.max(1, townCount - 2)) return 'ortho';
  const chance = Math.min(0.9, Math.max(0.1, importanceOfPopulation(plan.town.population) * 1.1 - 0.2));
  const draw = Random.of(seed, 'coverage-state', plan.town.geonameId).next();
  if (draw < chance) return 'high_resolution';
  return draw < chance + (1 - chance) / 2 ? 'ortho' : 'none';
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
