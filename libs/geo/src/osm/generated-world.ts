/**
 * The generator's world without a database: the same towns (planTowns), the same suburbs laid out by the
 * same TownLayout with the same seed, one suburb's rows (a generator Batch) at a time — what
 * generateGeodata writes into PostgreSQL, for writers that want the rows elsewhere (the .osm.pbf export).
 *
 * The loop is the generator's own (generator/layout.ts: worldTowns, townBatches), with every suburb a batch
 * of its own. A town's farms (with their farmhouses and sheds) come last, in one more batch; its imagery
 * surveys are not laid out (coverage 'none': they draw from their own stream and have no OpenStreetMap
 * counterpart).
 */
import { createLandTest, southAfricanTowns } from '../reference/south-africa';
import { type Batch } from '../generator/batch';
import { DEFAULT_SEED } from '../generator/generate';
import { townBatches, worldTowns } from '../generator/layout';
import { planTowns, type TownPlan } from '../generator/world';

export interface GeneratedWorldOptions {
  /** Target number of addresses, as generateGeodata's scale. */
  scale: number;
  /** Default 'portal', as generateGeodata's. */
  seed?: string | number;
  /** Only these towns (GeoNames names). */
  towns?: readonly string[];
}

export interface GeneratedSuburb {
  /** The town the suburb belongs to, its index among the run's towns and how many there are. */
  plan: TownPlan;
  townIndex: number;
  townCount: number;
  /** One suburb's rows, or the town's farms last, in the generator's column order (batch.ts COLUMNS). */
  batch: Batch;
}

/** The run's towns, biggest first (as generateGeodata plans them). */
export function generatedTowns(options: GeneratedWorldOptions): TownPlan[] {
  return planTowns(southAfricanTowns(), { scale: Math.floor(options.scale), towns: options.towns });
}

/** Lays the world out suburb by suburb; each batch holds one suburb's rows (and is not reused). */
export function* generatedWorld(options: GeneratedWorldOptions): Generator<GeneratedSuburb> {
  const scale = Math.floor(options.scale);
  if (!Number.isFinite(scale) || scale < 1)
    throw new Error(`scale must be a whole number of addresses ≥ 1, got ${options.scale}`);
  const seed = String(options.seed ?? DEFAULT_SEED);
  const plans = generatedTowns(options);
  const towns = worldTowns({
    seed,
    plans,
    isLand: createLandTest(),
    // Row references to the town place are ids in the database; here the GeoNames id stands in.
    townId: (plan) => String(plan.town.geonameId),
    coverage: () => 'none',
  });
  for (const { plan, index: townIndex, layout } of towns) {
    for (const batch of townBatches(layout, 0))
      if (batch) yield { plan, townIndex, townCount: plans.length, batch };
  }
}
