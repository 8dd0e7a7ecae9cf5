/**
 * What the generator's two paths share (generate.ts: the upsert path; bulk-run.ts: the bulk path): the
 * options, progress and result of a run, the tables it writes, how a run is named in geo.import_runs, and
 * the run's towns as the layout loop (layout.ts) sees them.
 */
import type { GeneratedCounts } from './batch';
import { importanceOfPopulation, type createLandTest } from '../reference/south-africa';
import type { ReferenceCounts } from '../reference/load-reference';
import type { WorldRun } from './layout';
import { Random } from './random';
import type { CoverageState } from './town';
import type { TownPlan } from './world';

/** The geo tables the generator writes, children first (the order stale rows are deleted in). */
export const GENERATED_TABLES = [
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
  /** writing rows, then (bulk path) building the indexes set aside, then vacuuming. */
  phase: 'writing' | 'indexing' | 'vacuuming';
  /** Addresses written so far (a resumed run: with the ones written before it was stopped), and the target. */
  addresses: number;
  /** Addresses an earlier, stopped run had written when this one went on (0 for a new run). */
  resumedAddresses: number;
  /** The statement being run while indexing. */
  step?: string;
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
  /**
   * 'auto' (default): the bulk path when the database is reached through a node-postgres client, the
   * scale is at least BULK_MIN_SCALE and no table holds generator rows, or when a bulk run of the same
   * scale and seed was stopped; 'always': the bulk path (an error if generator rows exist); 'never': upserts.
   */
  bulk?: 'auto' | 'always' | 'never';
  /**
   * Bulk path: worker threads that lay out and write towns side by side (threads.ts; default two per core);
   * 1 lays out in this thread. Workers connect with the client's own parameters; a client without them
   * (not a pg Client) writes in this thread.
   */
  threads?: number;
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
  /** Which path wrote: 'bulk' (COPY, indexes built at the end) or 'upsert'. */
  path: 'bulk' | 'upsert';
  /** Bulk path: the part of elapsedMs spent writing rows (the rest built indexes and vacuumed). */
  writeMs?: number;
  /** Bulk path: addresses an earlier stopped run had written before this one went on. */
  resumedAddresses?: number;
}

/** All rows written so far: the sum of a run's counts. */
const rowsOf = (counts: GeneratedCounts) => Object.values(counts).reduce((sum, value) => sum + value, 0);

/**
 * Reports a run's progress: `report()` takes the addresses and rows from `counts` (the counts being
 * written), `report(addresses, counts)` from what another thread wrote; either way a copy goes to onProgress.
 */
export function progressReporter(
  progress: GenerateProgress,
  counts: GeneratedCounts,
  onProgress: GenerateOptions['onProgress'],
): (addresses?: number, written?: GeneratedCounts) => void {
  return (addresses = counts.addresses, written = counts) => {
    progress.addresses = addresses;
    progress.rows = rowsOf(written);
    onProgress?.({ ...progress });
  };
}

/** The run's towns as the layout loop (layout.ts) sees them: ids from the reference data, coverage by rank. */
export function worldRun(
  seed: string,
  plans: TownPlan[],
  isLand: ReturnType<typeof createLandTest>,
  townIds: Map<number, unknown>,
): WorldRun {
  return {
    seed,
    plans,
    isLand,
    townId: (plan) => townIds.get(plan.town.geonameId) as string,
    coverage: (plan) => coverageOf(plan, plans.length, seed),
  };
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
