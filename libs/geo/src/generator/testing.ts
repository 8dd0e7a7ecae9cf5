/**
 * The generator's world laid out in-process, without a database, the way generateGeodata does it (towns
 * biggest first, a town's shortfall passed to the next, suburbs then farms and imagery), into one batch:
 * for the tests that pin or inspect generated rows (fingerprint.test.ts, history.test.ts).
 */
import { createLandTest, southAfricanTowns } from '../reference/south-africa';
import { Batch } from './batch';
import { type WorldRun, worldTowns } from './layout';
import { type CoverageState } from './town';
import { planTowns } from './world';

/** Every coverage state, estates, POIs of every kind and farms: the three towns of generate.test.ts. */
export const TEST_TOWNS = ['Stellenbosch', 'Pretoria', 'Durban'];
/** Coverage by rank: the biggest town has high-resolution imagery, the next ortho only, the third none. */
export const TEST_COVERAGE: CoverageState[] = ['high_resolution', 'ortho', 'none'];

export function layOutWorld(seed: string, scale: number, towns = TEST_TOWNS): Batch {
  const plans = planTowns(southAfricanTowns(), { scale, towns });
  // One batch holds the whole world: its batch-local references (row indices) are part of the fingerprint.
  const batch = new Batch();
  const run: WorldRun = {
    seed,
    plans,
    isLand: createLandTest(),
    townId: (plan) => `town:${plan.town.geonameId}`,
    coverage: (plan) => TEST_COVERAGE[plan.rank % TEST_COVERAGE.length],
  };
  for (const { layout } of worldTowns(run)) {
    while (layout.nextSuburb(batch)) {
      // lays out suburbs until the town has its addresses
    }
    layout.finish(batch);
  }
  return batch;
}
