/**
 * Which towns a run lays out, how many addresses each gets, and the ground each may use.
 *
 * Towns get addresses in proportion to population^0.8 (big towns get more, small towns still some), and a
 * town whose share would be under MIN_TOWN_ADDRESSES is left out, so a small run covers the big towns and
 * a million-address run most of the country. A small place close to a much bigger town (Claremont,
 * Rondebosch next to Cape Town) is one of its suburbs rather than a town of its own: its name is given to
 * one of the big town's suburbs. Each town lays out only inside its Voronoi cell among the towns (with a
 * margin), so neighbouring towns never overlap.
 */
import { PROVINCES, type Province } from '../reference/provinces';
import { type ReferenceTown } from '../reference/south-africa';

export const MIN_TOWN_ADDRESSES = 250;
/** A town is a suburb of a town this many times bigger within its reach (absorbRadius). */
const ABSORB_POPULATION_RATIO = 5;
/** Neighbours further than this never limit a town's ground. */
const NEIGHBOUR_RANGE_M = 80_000;

export const METRES_PER_DEGREE_LAT = 110_574;
export const metresPerDegreeLon = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);

/** Metres east and north of a town's centre. */
export interface LocalFrame {
  lon0: number;
  lat0: number;
  /** Metres per degree of longitude at the town. */
  kx: number;
}

export function frameAt(lon0: number, lat0: number): LocalFrame {
  return { lon0, lat0, kx: metresPerDegreeLon(lat0) };
}

export const toLon = (frame: LocalFrame, x: number) => frame.lon0 + x / frame.kx;
export const toLat = (frame: LocalFrame, y: number) => frame.lat0 + y / METRES_PER_DEGREE_LAT;

export interface TownPlan {
  town: ReferenceTown;
  /** Addresses this town should get. */
  target: number;
  /** Rank by population among the towns of this run (0 = biggest). */
  rank: number;
  /** Names of the small places absorbed into this town (become suburb names). */
  absorbed: string[];
  /** Other towns' centres in this town's frame (metres), for the Voronoi test. */
  neighbours: { x: number; y: number; distance: number }[];
  /** Rank among all towns of its province (stable whatever the run includes): SG keys, farm numbers. */
  provinceRank: number;
  /** The postal street codes this town's suburbs use, in order. */
  postalCodes: number[];
}

export interface WorldOptions {
  scale: number;
  /** Limit the run to these towns (names as in GeoNames, case-insensitive). */
  towns?: readonly string[];
}

const distanceM = (a: ReferenceTown, b: ReferenceTown) => {
  const dx = (a.lon - b.lon) * metresPerDegreeLon((a.lat + b.lat) / 2);
  const dy = (a.lat - b.lat) * METRES_PER_DEGREE_LAT;
  return Math.hypot(dx, dy);
};

/** How far a town reaches over smaller places: 3 km for 100 000 people, 17 km for Cape Town, at most 20 km. */
const absorbRadius = (population: number) => Math.min(20_000, 3_000 * Math.sqrt(population / 100_000));

/** The towns of a run, biggest first, with their targets. */
export function planTowns(allTowns: readonly ReferenceTown[], { scale, towns }: WorldOptions): TownPlan[] {
  const requested = towns?.length ? resolveTownNames(allTowns, towns) : undefined;

  // Towns that stand on their own (biggest first; a requested town always does).
  const sites: ReferenceTown[] = [];
  const absorbedInto = new Map<ReferenceTown, string[]>();
  for (const town of allTowns) {
    const host = requested?.has(town)
      ? undefined
      : sites.find(
          (site) =>
            site.population >= ABSORB_POPULATION_RATIO * town.population &&
            distanceM(site, town) < absorbRadius(site.population),
        );
    if (host) absorbedInto.get(host)?.push(town.name);
    else {
      sites.push(town);
      absorbedInto.set(town, []);
    }
  }

  let included = requested ? sites.filter((site) => requested.has(site)) : sites.slice();
  const weight = (town: ReferenceTown) => Math.pow(Math.max(town.population, 1000), 0.8);
  // Drop the smallest towns until each town's share is worth laying out (not for towns asked by name).
  while (!requested && included.length > 1) {
    const total = included.reduce((sum, town) => sum + weight(town), 0);
    const smallest = included[included.length - 1];
    if ((scale * weight(smallest)) / total >= MIN_TOWN_ADDRESSES) break;
    included = included.slice(0, -1);
  }
  const total = included.reduce((sum, town) => sum + weight(town), 0);
  const postal = postalCodeBlocks(sites);
  const provinceRanks = new Map<ReferenceTown, number>();
  for (const province of PROVINCES) {
    sites.filter((site) => site.province === province).forEach((site, i) => provinceRanks.set(site, i));
  }

  let assigned = 0;
  return included.map((town, rank) => {
    // Targets add up to the scale exactly (the last town takes the rounding).
    const target =
      rank === included.length - 1 ? scale - assigned : Math.round((scale * weight(town)) / total);
    assigned += target;
    const kx = metresPerDegreeLon(town.lat);
    const neighbours = sites
      .filter((other) => other !== town)
      .map((other) => {
        const x = (other.lon - town.lon) * kx;
        const y = (other.lat - town.lat) * METRES_PER_DEGREE_LAT;
        return { x, y, distance: Math.hypot(x, y) };
      })
      .filter((other) => other.distance < NEIGHBOUR_RANGE_M);
    return {
      town,
      target: Math.max(0, target),
      rank,
      absorbed: absorbedInto.get(town) ?? [],
      neighbours,
      provinceRank: provinceRanks.get(town) ?? 0,
      postalCodes: postal.get(town) ?? [9999],
    };
  });
}

/** Finds towns by name; the biggest wins when a name occurs twice (Middelburg). Unknown names are an error. */
function resolveTownNames(allTowns: readonly ReferenceTown[], names: readonly string[]): Set<ReferenceTown> {
  const found = new Set<ReferenceTown>();
  const unknown: string[] = [];
  for (const name of names) {
    const wanted = name.trim().toLowerCase();
    const town = allTowns.find((candidate) => candidate.name.toLowerCase() === wanted);
    if (town) found.add(town);
    else unknown.push(name);
  }
  if (unknown.length) {
    throw new Error(
      `Unknown town${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (towns are GeoNames names with a population of 1 000 or more, e.g. Stellenbosch, Pretoria, Durban)`,
    );
  }
  return found;
}

/**
 * Each town's street codes: the province's Post Office ranges shared among its towns in population order,
 * in proportion to the square root of population (at least two codes each). Independent of the run, so a
 * suburb keeps its code whatever else is generated.
 */
function postalCodeBlocks(sites: readonly ReferenceTown[]): Map<ReferenceTown, number[]> {
  const blocks = new Map<ReferenceTown, number[]>();
  for (const province of PROVINCES) {
    const codes = provinceCodes(province);
    const inProvince = sites.filter((site) => site.province === province);
    const total = inProvince.reduce((sum, town) => sum + Math.sqrt(town.population), 0);
    let at = 0;
    for (const town of inProvince) {
      const size = Math.max(2, Math.floor((codes.length * Math.sqrt(town.population)) / total));
      const block: number[] = [];
      for (let i = 0; i < size; i += 1) block.push(codes[(at + i) % codes.length]);
      at += size;
      blocks.set(town, block);
    }
  }
  return blocks;
}

function provinceCodes(province: Province): number[] {
  const codes: number[] = [];
  for (const [from, to] of province.postalRanges)
    for (let code = from; code <= to; code += 1) codes.push(code);
  return codes;
}

/**
 * Whether a point (metres in the town's frame) is in the town's Voronoi cell, at least `margin` metres from
 * every border with a neighbour.
 */
export function inTownGround(plan: TownPlan, x: number, y: number, margin: number): boolean {
  const own = x * x + y * y;
  for (const neighbour of plan.neighbours) {
    const dx = x - neighbour.x;
    const dy = y - neighbour.y;
    // Signed distance to the perpendicular bisector of the two centres.
    if ((dx * dx + dy * dy - own) / (2 * neighbour.distance) < margin) return false;
  }
  return true;
}
