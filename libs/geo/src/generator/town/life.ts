/**
 * What happened on an erf between the first survey and today (issue 21): the dates and earlier footprints
 * of its buildings, so a picture rendered for a survey shows what stood on its capture date.
 *
 * Each erf draws from its own stream, Random.of(seed, 'building-life', erf key), never from the suburb's:
 * today's buildings (their geometry, kinds, heights) are the same as before buildings had a life, and the
 * life of one erf does not move when another changes. Events, each with its chance per house erf:
 *
 * - rebuilt (1.5 %): an older, smaller house stood there and was demolished; today's house was built months
 *   later (the erf stood empty in between);
 * - new house (4 %): the erf was empty; the house (and its outbuilding) were built since;
 * - extension (5.5 %): the house was extended at the back; before it, its depth was 20–45 % shorter;
 * - new outbuilding (5 % of erven that have one): the garage or backyard room was built since;
 * - demolished outbuilding (4 % of erven without one today): an old shed or backyard room that is gone;
 * - pools (not in townships; suburban 22 %, residential 10 %, central 4 % of erven): a pool behind the
 *   house, 30 % of them dug since the first survey (all of them on a new house's erf).
 *
 * Together about 15 % of house erven see a change over the years, and an estate now and then is new.
 */
import { type SuburbStyle } from '../names';
import { type Random } from '../random';
import { type Erf, inErf, type Rect } from './geometry';

/** Changes fall between these days: after the first surveys (2014) and before the last ones (2026). */
export const CHANGES_FROM = '2014-02-01';
export const CHANGES_TO = '2026-08-31';

const DAY_MS = 86_400_000;
// Both kept per day (a few thousand days): a Date and its ISO text per building with a history were a
// noticeable part of the layout's time and garbage.
const DAY_NUMBERS = new Map<string, number>();
const ISO_DAYS = new Map<number, string>();
/** Days since 1970-01-01 of a 'YYYY-MM-DD'. */
export const dayNumber = (day: string) => {
  let days = DAY_NUMBERS.get(day);
  if (days === undefined) DAY_NUMBERS.set(day, (days = Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS)));
  return days;
};
/** The 'YYYY-MM-DD' of a day number. */
export const isoDay = (days: number) => {
  let day = ISO_DAYS.get(days);
  if (day === undefined) ISO_DAYS.set(days, (day = new Date(days * DAY_MS).toISOString().slice(0, 10)));
  return day;
};

/** A day drawn evenly between two days (both included). */
export function dayBetween(random: Random, from: string, to: string): string {
  return isoDay(random.int(dayNumber(from), Math.max(dayNumber(from), dayNumber(to))));
}

/** A day some days after another, at most CHANGES_TO. */
function dayAfter(random: Random, day: string, minDays: number, maxDays: number): string {
  const last = dayNumber(CHANGES_TO);
  return isoDay(Math.min(last, dayNumber(day) + random.int(minDays, maxDays)));
}

/** The dates of one building row (absent: null in the row). */
export interface Life {
  builtOn?: string;
  demolishedOn?: string;
  extendedOn?: string;
  /** The footprint before the extension (with extendedOn). */
  before?: Rect;
}

/** A place on the erf, by distance along its frontage (a) and back from its street (d), in metres. */
export interface Spot {
  a0: number;
  a1: number;
  d0: number;
  d1: number;
}

/** The house and outbuilding writeHouse placed on an erf. */
export interface HouseSite {
  erf: Erf;
  style: SuburbStyle;
  frontage: number;
  depth: number;
  house: Spot;
  /** Today's outbuilding, or null. */
  outbuilding: Spot | null;
  /** Where an outbuilding goes on this erf (today's, or the demolished one's): its size and side. */
  outbuildingSlot: { width: number; depth: number; left: boolean } | null;
}

export type LifeEvent =
  'rebuilt' | 'new house' | 'extension' | 'new outbuilding' | 'demolished outbuilding' | 'new pool';

/** A building the erf has only in its history, or since a date: a pool, a demolished house or shed. */
export interface ExtraBuilding {
  rect: Rect;
  kind: string;
  levels: number;
  roof: 'flat' | 'pitched';
  heightM: number;
  life: Life;
}

export interface ErfLife {
  house: Life;
  outbuilding: Life;
  extra: ExtraBuilding[];
  events: LifeEvent[];
}

const POOL_CHANCE: Record<SuburbStyle, number> = {
  suburban: 0.22,
  residential: 0.1,
  central: 0.04,
  township: 0,
};
/** The depth of a pool's water over its surroundings as the renderer sees it: a flat, low box. */
export const POOL_HEIGHT_M = 0.3;

const rect = (erf: Erf, spot: Spot): Rect => inErf(erf, spot.a0, spot.a1, spot.d0, spot.d1);

/** The history of a house erf. */
export function planHouseLife(random: Random, site: HouseSite): ErfLife {
  const { erf, style, house, outbuilding } = site;
  const life: ErfLife = { house: {}, outbuilding: {}, extra: [], events: [] };
  const township = style === 'township';
  const roll = random.next();

  if (roll < 0.015) {
    // An older, smaller house, pulled down; today's house built some months later.
    const demolishedOn = dayBetween(random, CHANGES_FROM, '2025-06-30');
    const builtOn = dayAfter(random, demolishedOn, 90, 420);
    const width = (house.a1 - house.a0) * random.range(0.65, 0.9);
    const depth = (house.d1 - house.d0) * random.range(0.6, 0.85);
    const a0 = house.a0 + random.range(0, house.a1 - house.a0 - width);
    const d0 = house.d0 + random.range(0, 1.5);
    life.extra.push({
      rect: rect(erf, { a0, a1: a0 + width, d0, d1: d0 + depth }),
      kind: 'house',
      levels: 1,
      roof: township ? 'flat' : 'pitched',
      heightM: township ? 3.7 : 4.7,
      life: { demolishedOn },
    });
    life.house.builtOn = builtOn;
    if (outbuilding) life.outbuilding.builtOn = dayAfter(random, builtOn, 0, 900);
    life.events.push('rebuilt');
  } else if (roll < 0.055) {
    // An empty erf built on.
    const builtOn = dayBetween(random, CHANGES_FROM, CHANGES_TO);
    life.house.builtOn = builtOn;
    if (outbuilding) life.outbuilding.builtOn = dayAfter(random, builtOn, 0, 900);
    life.events.push('new house');
  } else if (roll < 0.11) {
    // Extended at the back: before it, the house was 20–45 % shallower (its area grew by 25–80 %).
    const shorter = random.range(0.2, 0.45);
    const before = { ...house, d1: house.d1 - (house.d1 - house.d0) * shorter };
    life.house.extendedOn = dayBetween(random, CHANGES_FROM, CHANGES_TO);
    life.house.before = rect(erf, before);
    life.events.push('extension');
  }
  const houseIsNew = life.house.builtOn !== undefined;

  if (outbuilding && !houseIsNew && random.chance(0.05)) {
    life.outbuilding.builtOn = dayBetween(random, CHANGES_FROM, CHANGES_TO);
    life.events.push('new outbuilding');
  }

  // Behind the house: a shed or backyard room that is gone today, and a pool.
  const slot = site.outbuildingSlot;
  let backLimit = outbuilding ? outbuilding.d0 : site.depth - 1.5;
  if (!outbuilding && slot && !houseIsNew && random.chance(0.04)) {
    const a0 = slot.left ? 1.2 : site.frontage - 1.2 - slot.width;
    const d1 = site.depth - 1.5;
    life.extra.push({
      rect: rect(erf, { a0, a1: a0 + slot.width, d0: d1 - slot.depth, d1 }),
      kind: township ? 'backyard room' : 'shed',
      levels: 1,
      roof: 'flat',
      heightM: 2.8,
      life: { demolishedOn: dayBetween(random, CHANGES_FROM, CHANGES_TO) },
    });
    backLimit = d1 - slot.depth;
    life.events.push('demolished outbuilding');
  }

  if (random.chance(POOL_CHANCE[style])) {
    const length = random.range(7, 10);
    const width = random.range(3.5, 5);
    const d0 = house.d1 + 2;
    const slack = (site.frontage - length) / 2 - 1.5;
    if (slack >= 0 && d0 + width + 1 <= backLimit) {
      const a0 = (site.frontage - length) / 2 + random.range(-slack, slack);
      const dug = random.chance(0.3);
      let builtOn: string | undefined;
      if (dug) builtOn = dayBetween(random, CHANGES_FROM, CHANGES_TO);
      if (houseIsNew) builtOn = dayAfter(random, life.house.builtOn!, 60, 1200);
      life.extra.push({
        rect: rect(erf, { a0, a1: a0 + length, d0, d1: d0 + width }),
        kind: 'pool',
        levels: 1,
        roof: 'flat',
        heightM: POOL_HEIGHT_M,
        life: builtOn ? { builtOn } : {},
      });
      if (builtOn) life.events.push('new pool');
    }
  }
  return life;
}

/** A gated estate: now and then (8 %) all its townhouses were built since the first survey, on one day. */
export function planEstateLife(random: Random): Life {
  return random.chance(0.08) ? { builtOn: dayBetween(random, CHANGES_FROM, '2024-12-31') } : {};
}
