/**
 * The generator is deterministic: the same seed and scale give the same rows, byte for byte. This test lays
 * out a small world in-process (no database), the way generateGeodata does (towns biggest first, a town's
 * shortfall passed to the next, suburbs then farms and imagery), and pins a hash of every row it would
 * write. Any change to a generated value (a name, a coordinate, an id, a count) changes the hash: when a
 * change is meant, say so in the commit and pin the new hash.
 */
import { createHash } from 'node:crypto';
import { createLandTest, southAfricanTowns } from '../reference/south-africa';
import { Batch } from './batch';
import { type CoverageState, TownLayout } from './town';
import { planTowns } from './world';

/** Every coverage state, estates, POIs of every kind and farms: the three towns of generate.test.ts. */
const TOWNS = ['Stellenbosch', 'Pretoria', 'Durban'];
const COVERAGE: CoverageState[] = ['high_resolution', 'ortho', 'none'];

function layOutWorld(seed: string, scale: number): Batch {
  const isLand = createLandTest();
  const plans = planTowns(southAfricanTowns(), { scale, towns: TOWNS });
  // One batch holds the whole world: its batch-local references (row indices) are part of the fingerprint.
  const batch = new Batch();
  let shortfall = 0;
  for (const plan of plans) {
    const layout = new TownLayout({
      seed,
      plan: { ...plan, target: plan.target + shortfall },
      townId: `town:${plan.town.geonameId}`,
      isLand,
      coverage: COVERAGE[plan.rank % COVERAGE.length],
    });
    while (layout.nextSuburb(batch)) {
      // lays out suburbs until the town has its addresses
    }
    layout.finish(batch);
    shortfall = Math.max(0, plan.target + shortfall - layout.produced);
  }
  return batch;
}

function fingerprint(batch: Batch): { counts: Record<string, number>; sha256: string } {
  const tables = {
    suburbs: batch.suburbs,
    postalCodes: batch.postalCodes,
    streets: batch.streets,
    parcels: batch.parcels,
    addresses: batch.addresses,
    pois: batch.pois,
    unitPois: batch.unitPois,
    buildings: batch.buildings,
    farms: batch.farms,
    coverage: batch.coverage,
  };
  const hash = createHash('sha256');
  for (const [table, rows] of Object.entries(tables)) {
    hash.update(table);
    for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
  }
  const counts = Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.length]));
  return { counts, sha256: hash.digest('hex') };
}

describe('the generated world', () => {
  it('is byte for byte the one pinned here (seed "fingerprint", 3 000 addresses in three towns)', () => {
    expect(fingerprint(layOutWorld('fingerprint', 3000))).toEqual({
      counts: PINNED_COUNTS,
      sha256: PINNED_SHA256,
    });
  });
});

const PINNED_COUNTS = {
  suburbs: 10,
  postalCodes: 10,
  streets: 117,
  parcels: 2870,
  addresses: 3035,
  pois: 68,
  unitPois: 336,
  buildings: 4694,
  farms: 72,
  coverage: 3,
};
const PINNED_SHA256 = '8a3aa472feeb9518c161c0e97449ece2712f45aee1035cbeb0e3d0697af15949';
