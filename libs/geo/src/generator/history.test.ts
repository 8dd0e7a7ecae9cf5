/**
 * Surveys and building life (issue 21), laid out in-process: the surveys each town gets over 2014–2026, the
 * share of erven whose buildings change, and the life rules of every building row. generate.test.ts checks
 * the same on PostGIS (areas, overlaps, what stood at each survey's date).
 */
import { createHash } from 'node:crypto';
import { lifeProblems } from '../buildingLife';
import { type Row } from './batch';
import { Random } from './random';
import { FIRST_SURVEY_YEAR, LAST_SURVEY_YEAR, planSurveys } from './town/coverage';
import { type Erf } from './town/geometry';
import { CHANGES_FROM, CHANGES_TO, type ErfLife, type HouseSite, planHouseLife } from './town/life';
import { layOutWorld } from './testing';

/** A building row's columns, by name (batch.ts COLUMNS.buildings). */
const building = (row: Row) => ({
  kind: row[1] as string,
  levels: row[2] as number,
  heightM: row[3] as number,
  roof: row[4] as string,
  builtOn: row[6] as string | null,
  demolishedOn: row[7] as string | null,
  extendedOn: row[8] as string | null,
  geomBeforeExtension: row[9] as string | null,
  sourceId: row[11] as string,
});
/** `building:<town>:<erf>:<n>` → `<town>:<erf>` (farms: `farm:<town>:...`). */
const erfOf = (sourceId: string) => sourceId.split(':').slice(1, 3).join(':');

describe('the surveys of a town', () => {
  const seeds = Array.from({ length: 200 }, (_, i) => `seed-${i}`);

  it('are several ortho mosaics every 2–3 years over 2014–2026, the newest over the whole town', () => {
    for (const seed of seeds) {
      const orthos = planSurveys(seed, 3361025, 'ortho');
      expect(orthos.every((survey) => survey.kind === 'ortho')).toBe(true);
      expect(orthos.length).toBeGreaterThanOrEqual(4);
      const years = orthos.map((survey) => Number(survey.capturedOn.slice(0, 4)));
      expect(years[0]).toBeLessThanOrEqual(FIRST_SURVEY_YEAR + 2);
      expect(years[years.length - 1]).toBeGreaterThanOrEqual(LAST_SURVEY_YEAR - 2);
      years.slice(1).forEach((year, i) => expect([2, 3]).toContain(year - years[i]));
      expect(orthos[orthos.length - 1].extent).toBe('town');
      for (const { capturedOn } of orthos) {
        expect(capturedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(capturedOn >= `${FIRST_SURVEY_YEAR}-01-01` && capturedOn <= `${LAST_SURVEY_YEAR}-10-31`).toBe(
          true,
        );
      }
    }
  });

  it('add high-resolution flights over the core where a town has them, the newest after the newest mosaic', () => {
    let partial = 0;
    for (const seed of seeds) {
      const surveys = planSurveys(seed, 3361025, 'high_resolution');
      const flights = surveys.filter((survey) => survey.kind === 'high_resolution');
      const orthos = surveys.filter((survey) => survey.kind === 'ortho');
      expect(flights.length).toBeGreaterThanOrEqual(3);
      const newest = flights[flights.length - 1];
      expect(newest.extent).toBe('core');
      expect(newest.capturedOn > orthos[orthos.length - 1].capturedOn).toBe(true);
      expect(newest.capturedOn <= `${LAST_SURVEY_YEAR}-10-31`).toBe(true);
      expect(flights[0].capturedOn >= `${FIRST_SURVEY_YEAR}-01-01`).toBe(true);
      // One survey of a kind a year at most: the years name them (source ids `<kind>:<town>:<year>`).
      const years = surveys.map((survey) => `${survey.kind}${survey.capturedOn.slice(0, 4)}`);
      expect(new Set(years).size).toBe(years.length);
      partial += surveys.filter((survey) => survey.extent.startsWith('inner')).length;
    }
    // Not every area every year: some older surveys cover only the inner town or core.
    expect(partial).toBeGreaterThan(100);
  });

  it('are none for a town without imagery, and the same for the same seed', () => {
    expect(planSurveys('portal', 3361025, 'none')).toEqual([]);
    expect(planSurveys('portal', 3361025, 'high_resolution')).toEqual(
      planSurveys('portal', 3361025, 'high_resolution'),
    );
  });
});

describe('the generated world’s surveys and buildings', () => {
  // The fingerprint test's world: its surveys' newest polygons were pinned before surveys had dates.
  const world = layOutWorld('fingerprint', 3000);
  const buildings = world.buildings.map(building);

  it('gives each covered town several surveys, the newest of each kind over what the single row covered', () => {
    const byTown = new Map<string, Row[]>();
    for (const row of world.coverage) {
      const town = (row[5] as string).split(':')[1];
      byTown.set(town, [...(byTown.get(town) ?? []), row]);
      const year = (row[2] as string).slice(0, 4);
      expect(row[6]).toBe('Portal imagery');
      expect([row[1], row[5]]).toEqual([
        expect.stringMatching(new RegExp(` ${year}$`)),
        expect.stringMatching(new RegExp(`:${year}$`)),
      ]);
    }
    expect(byTown.size).toBe(2); // high-resolution and ortho-only; the third town has none
    for (const rows of byTown.values()) expect(rows.length).toBeGreaterThanOrEqual(4);
  });

  it('pins the newest survey of each kind to the coverage polygons written before surveys had dates', () => {
    // The rows of the single-coverage generator for this world, [source id, kind, geometry], hashed.
    const newest = new Map<string, Row>();
    for (const row of world.coverage) {
      const key = (row[5] as string).replace(/:\d{4}$/, '');
      if (!newest.has(key) || (newest.get(key)![2] as string) < (row[2] as string)) newest.set(key, row);
    }
    const rows = [...newest.entries()].map(([sourceId, row]) => [sourceId, row[0], row[3]]);
    expect(createHash('sha256').update(JSON.stringify(rows)).digest('hex')).toBe(
      '0808b98f4e514fb34992cf22cadb873fcf29cf28bd717dfaf317148e3c07ec52',
    );
  });

  it('changes the buildings of 10–20 % of the erven between 2014 and 2026, every kind of change', () => {
    const erven = new Map<string, boolean>();
    for (const row of buildings) {
      if (row.sourceId.startsWith('building:farm:')) continue;
      const changed = Boolean(row.builtOn || row.demolishedOn || row.extendedOn);
      erven.set(erfOf(row.sourceId), (erven.get(erfOf(row.sourceId)) ?? false) || changed);
    }
    const share = [...erven.values()].filter(Boolean).length / erven.size;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.2);

    const count = (test: (row: (typeof buildings)[number]) => boolean) => buildings.filter(test).length;
    const houses = count((row) => row.kind === 'house' && !row.demolishedOn);
    expect(count((row) => row.kind === 'house' && row.builtOn !== null) / houses).toBeGreaterThan(0.03);
    expect(count((row) => row.kind === 'house' && row.extendedOn !== null) / houses).toBeGreaterThan(0.03);
    expect(count((row) => row.kind === 'house' && row.demolishedOn !== null)).toBeGreaterThan(10);
    expect(count((row) => row.kind === 'shed' && row.demolishedOn !== null)).toBeGreaterThan(10);
    expect(count((row) => row.kind === 'garage' && row.builtOn !== null)).toBeGreaterThan(20);
    expect(count((row) => row.kind === 'pool' && row.builtOn !== null)).toBeGreaterThan(20);
  });

  it('keeps the life rules on every row: built before demolished and extended, dates within the surveys', () => {
    const problems = buildings.flatMap((row) =>
      lifeProblems(row).map((problem) => `${row.sourceId}: ${problem}`),
    );
    expect(problems).toEqual([]);
    for (const row of buildings) {
      for (const day of [row.builtOn, row.demolishedOn, row.extendedOn]) {
        if (day) expect({ day, ok: day >= CHANGES_FROM && day <= CHANGES_TO }).toEqual({ day, ok: true });
      }
      // A row is either new or gone (or neither), never both: an erf's old house is its own row.
      expect(row.builtOn && row.demolishedOn).toBeFalsy();
    }
  });

  it('writes pools as low, flat, one-level rows', () => {
    const pools = buildings.filter((row) => row.kind === 'pool');
    expect(pools.length).toBeGreaterThan(50);
    for (const pool of pools)
      expect({ levels: pool.levels, heightM: pool.heightM, roof: pool.roof }).toEqual({
        levels: 1,
        heightM: 0.3,
        roof: 'flat',
      });
  });
});

describe('planHouseLife', () => {
  // A suburban erf, 24 m wide and 40 m deep, fronting its street on the south.
  const erf: Erf = { u0: 0, v0: 0, u1: 24, v1: 40, front: 'S', street: 0, side: 1, along: 12, kind: 'house' };
  const site = (outbuilding: boolean): HouseSite => ({
    erf,
    style: 'suburban',
    frontage: 24,
    depth: 40,
    house: { a0: 5, a1: 19, d0: 5, d1: 19 },
    outbuilding: outbuilding ? { a0: 1.2, a1: 8.2, d0: 32.5, d1: 38.5 } : null,
    outbuildingSlot: { width: 7, depth: 6, left: true },
  });
  const lives: ErfLife[] = Array.from({ length: 20_000 }, (_, i) =>
    planHouseLife(Random.of('plan', i), site(i % 2 === 0)),
  );
  const area = ([u0, v0, u1, v1]: number[]) => Math.abs((u1 - u0) * (v1 - v0));
  const overlap = (a: number[], b: number[]) =>
    Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);

  it('has each event about as often as life.ts says', () => {
    const share = (event: string) =>
      lives.filter((life) => life.events.includes(event as never)).length / lives.length;
    expect(share('rebuilt')).toBeCloseTo(0.015, 2);
    expect(share('new house')).toBeCloseTo(0.04, 2);
    expect(share('extension')).toBeCloseTo(0.055, 2);
    expect(share('new outbuilding')).toBeGreaterThan(0.02);
    expect(share('demolished outbuilding')).toBeGreaterThan(0.015);
    expect(share('new pool')).toBeGreaterThan(0.05);
  });

  it('extends a house by more than the 10 % a change is counted from, from the back', () => {
    const house = [5, 5, 19, 19];
    for (const life of lives.filter((each) => each.house.extendedOn)) {
      const before = life.house.before!;
      const grown = area(house) / area(before);
      expect(grown).toBeGreaterThan(1.2);
      expect(grown).toBeLessThan(1.85);
      // The front, sides and setback stay; the back moves.
      expect([before[0], before[1], before[2]]).toEqual([5, 5, 19]);
    }
  });

  it('puts an erf’s buildings where nothing else stands at the same time', () => {
    const house = [5, 5, 19, 19];
    for (const life of lives) {
      for (const extra of life.extra) {
        expect(extra.rect.every((value) => value >= 0) && extra.rect[2] <= 24 && extra.rect[3] <= 40).toBe(
          true,
        );
        // A pool is behind the house; an old house stood where today's stands, but before it was built.
        if (extra.kind === 'pool') expect(overlap(extra.rect, house)).toBe(false);
        if (extra.kind === 'house') expect(extra.life.demolishedOn! < life.house.builtOn!).toBe(true);
      }
      const pool = life.extra.find((extra) => extra.kind === 'pool');
      const shed = life.extra.find((extra) => extra.kind === 'shed');
      if (pool && shed) expect(overlap(pool.rect, shed.rect)).toBe(false);
      // What is built on a new house's erf comes with or after the house.
      if (life.house.builtOn) {
        if (life.outbuilding.builtOn) expect(life.outbuilding.builtOn >= life.house.builtOn).toBe(true);
        if (pool) expect(pool.life.builtOn! >= life.house.builtOn).toBe(true);
      }
    }
  });
});
