/**
 * The generator's one layout loop, shared by everything that lays the world out: generateGeodata's upsert
 * and bulk paths (in-process or in worker threads, bulk-worker.ts), the .osm.pbf export
 * (osm/generated-world.ts) and the tests' in-memory world (testing.ts).
 *
 * Towns come biggest first; a town hemmed in by the sea or its neighbours passes the addresses it could
 * not lay out to the next town (its shortfall), so a town's layout depends on the towns before it only
 * through that one number: a worker can lay a town out before the previous one is done, assuming the
 * shortfall it will be passed, and lay it out again in the rare case it was wrong.
 */
import { type createLandTest } from '../reference/south-africa';
import { Batch } from './batch';
import { type CoverageState, type TownContext, TownLayout } from './town';
import { type TownPlan } from './world';

/** What every town of a run is laid out with. */
export interface WorldRun {
  seed: string;
  plans: readonly TownPlan[];
  isLand: ReturnType<typeof createLandTest>;
  /** The town's id in geo.places (or what stands in for it where there is no database). */
  townId: (plan: TownPlan, index: number) => string;
  coverage: (plan: TownPlan, index: number) => CoverageState;
}

/** The context of the run's town number `index`, given the shortfall the towns before it pass on. */
export function townContext(run: WorldRun, index: number, shortfall: number): TownContext {
  const plan = run.plans[index];
  return {
    seed: run.seed,
    plan: { ...plan, target: plan.target + shortfall },
    townId: run.townId(plan, index),
    isLand: run.isLand,
    coverage: run.coverage(plan, index),
  };
}

/** What a town passes on to the next: the addresses it was asked for and could not lay out. */
export const shortfallAfter = (plan: TownPlan, shortfall: number, produced: number) =>
  Math.max(0, plan.target + shortfall - produced);

/**
 * Lays out one town into batches of at least `minRows` rows (parcels + addresses + buildings); the last
 * batch also holds the town's farms and imagery surveys. With `minRows` 0 every suburb is a batch of its
 * own and the farms and surveys one more. Between suburbs that do not fill a batch it yields undefined: a
 * point where an asynchronous caller lets its I/O run (a COPY in flight sent and answered).
 */
export function* townBatches(layout: TownLayout, minRows: number): Generator<Batch | undefined> {
  let batch = new Batch();
  while (layout.nextSuburb(batch)) {
    if (batch.size >= minRows) {
      yield batch;
      batch = new Batch();
    } else yield undefined;
  }
  layout.finish(batch);
  yield batch;
}

export interface LaidOutTown {
  plan: TownPlan;
  index: number;
  /** Lay the town out through this (townBatches) before asking for the next town. */
  layout: TownLayout;
}

/**
 * The run's towns in order, each with its layout; the shortfall a town leaves is passed to the next one
 * when the caller asks for it (so the caller lays each town out before taking the next). `from` and
 * `shortfall` go on from a checkpoint.
 */
export function* worldTowns(run: WorldRun, from = 0, shortfall = 0): Generator<LaidOutTown> {
  for (let index = from; index < run.plans.length; index += 1) {
    const layout = new TownLayout(townContext(run, index, shortfall));
    yield { plan: run.plans[index], index, layout };
    shortfall = shortfallAfter(run.plans[index], shortfall, layout.produced);
  }
}
