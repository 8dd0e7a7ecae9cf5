import { southAfricanTowns, createLandTest } from '../reference/south-africa';
import { Batch } from './batch';
import { Deck, Random } from './random';
import { TownLayout } from './town';
import { planTowns } from './world';

describe('town planning', () => {
  const towns = southAfricanTowns();

  it('shares the scale among towns by population, leaving out towns with too small a share', () => {
    const small = planTowns(towns, { scale: 20_000 });
    const large = planTowns(towns, { scale: 1_000_000 });
    expect(small.reduce((sum, plan) => sum + plan.target, 0)).toBe(20_000);
    expect(large.reduce((sum, plan) => sum + plan.target, 0)).toBe(1_000_000);
    expect(large.length).toBeGreaterThan(small.length);
    expect(small.every((plan) => plan.target >= 250)).toBe(true);
    for (let i = 1; i < large.length; i += 1)
      expect(large[i - 1].target).toBeGreaterThanOrEqual(large[i].target - 1);
  });

  it('makes small places next to a big town its suburbs', () => {
    const capeTown = planTowns(towns, { scale: 1_000_000 }).find((plan) => plan.town.name === 'Cape Town');
    expect(capeTown?.absorbed).toEqual(expect.arrayContaining(['Claremont', 'Rondebosch']));
  });

  it('takes towns by name and says which names it does not know', () => {
    const plans = planTowns(towns, { scale: 2000, towns: ['stellenbosch', 'Pretoria', 'Durban'] });
    expect(plans.map((plan) => plan.town.name)).toEqual(['Durban', 'Pretoria', 'Stellenbosch']);
    expect(() => planTowns(towns, { scale: 2000, towns: ['Atlantis City', 'Gotham'] })).toThrow(
      /Unknown towns: Atlantis City, Gotham/,
    );
  });
});

describe('the layout', () => {
  const isLand = createLandTest();
  const layTown = (seed: string, name: string, target: number) => {
    const [plan] = planTowns(southAfricanTowns(), { scale: target, towns: [name] });
    const layout = new TownLayout({ seed, plan, townId: '1', isLand, coverage: 'high_resolution' });
    const batch = new Batch();
    while (layout.nextSuburb(batch)) {
      // lays out suburbs until the town has its addresses
    }
    layout.finish(batch);
    return { batch, layout };
  };

  it('is the same for the same seed and differs for another', () => {
    const first = layTown('s1', 'Stellenbosch', 1500).batch;
    const again = layTown('s1', 'Stellenbosch', 1500).batch;
    const other = layTown('s2', 'Stellenbosch', 1500).batch;
    // As JSON: a geometry is an Ewkb, its bytes in a slab shared with others (its hex in JSON).
    const json = (rows: unknown[][]) => JSON.stringify(rows);
    expect(json(again.addresses)).toBe(json(first.addresses));
    expect(json(again.parcels)).toBe(json(first.parcels));
    expect(json(again.buildings)).toBe(json(first.buildings));
    expect(json(other.addresses)).not.toBe(json(first.addresses));
  });

  it('reaches the target within a block', () => {
    const { batch, layout } = layTown('s1', 'Pretoria', 3000);
    expect(layout.produced).toBe(batch.addresses.length);
    expect(batch.addresses.length).toBeGreaterThanOrEqual(3000);
    expect(batch.addresses.length).toBeLessThan(3000 + 120);
  });

  it('numbers one side of a street odd and the other even, some with a letter', () => {
    const { batch } = layTown('s1', 'Durban', 4000);
    const numbers = batch.addresses.map((row) => row[0] as string);
    expect(numbers.every((number) => /^\d+A?$/.test(number))).toBe(true);
    expect(numbers.some((number) => /A$/.test(number))).toBe(true);
    const values = batch.addresses.map((row) => row[1] as number);
    expect(values.some((value) => value % 2 === 1)).toBe(true);
    expect(values.some((value) => value % 2 === 0)).toBe(true);
    // Street names repeat across suburbs now and then, but not within one.
    const perSuburb = new Map<unknown, Set<string>>();
    for (const street of batch.streets) {
      const names = perSuburb.get(street[1]) ?? new Set<string>();
      expect(names.has(street[0] as string)).toBe(false);
      names.add(street[0] as string);
      perSuburb.set(street[1], names);
    }
  });
});

describe('randomness', () => {
  it('draws a deck without repeats until it went round', () => {
    const deck = new Deck(['a', 'b', 'c', 'd'], Random.of('x'));
    const firstRound = [deck.draw(), deck.draw(), deck.draw(), deck.draw()];
    expect(new Set(firstRound).size).toBe(4);
    expect(Random.of('x', 1).next()).toBe(Random.of('x', 1).next());
    expect(Random.of('x', 1).next()).not.toBe(Random.of('x', 2).next());
  });
});
