/**
 * Lays out one town around its real centre: suburbs on a ring of 1 km cells (the nearest cells first), each
 * a rotated rectangle with its own street grid, block sizes and erf sizes by kind of suburb (a dense town
 * centre, leafy suburbs, townships), erven along every block face with odd and even house numbers on either
 * side of a street, estates with units, schools, malls and other POIs, buildings on the erven, farms in a
 * ring outside the town, and imagery coverage over it.
 *
 * Geometry is computed in metres in a suburb's own frame (u along its long streets, v across), turned and
 * moved into the town's frame, then into degrees. Everything an erf holds is inside it by construction
 * (setbacks), erven of a block share edges but never overlap, and blocks sit inside their suburb with half
 * a road reserve to spare.
 */
import { padPostalCode, streetSearchText } from '../text';
import { importanceOfPopulation } from '../reference/south-africa';
import { type Batch, GENERATOR_SOURCE } from './batch';
import { ADDRESS_QUALITY, DATA_QUALITY, PARCEL_TYPE, POI_TYPE } from './codes';
import { multiLineStringHex, multiPolygonHex, pointHex, polygonHex } from './ewkb';
import {
  AFRIKAANS_BASES,
  AFRIKAANS_STREET_TYPES,
  ESTATE_KINDS,
  ESTATE_NAMES,
  FARM_NAMES,
  MAIN_STREET_NAMES,
  ordinal,
  type PoiCategory,
  poiName,
  STREET_NAMES,
  STREET_TYPES,
  suburbNamesFor,
  type SuburbStyle,
} from './names';
import { Deck, Random } from './random';
import { frameAt, inTownGround, type LocalFrame, toLat, toLon, type TownPlan } from './world';

/** Side of a suburb cell, metres. */
export const CELL_M = 1000;
const MAX_RING = 40;

export type CoverageState = 'high_resolution' | 'ortho' | 'none';

export interface TownContext {
  seed: string;
  plan: TownPlan;
  /** The town's id in geo.places (reference data). */
  townId: string;
  /** Whether a point is on South African land. */
  isLand: (lon: number, lat: number) => boolean;
  coverage: CoverageState;
}

interface StyleParameters {
  road: number;
  depth: [number, number];
  frontage: [number, number];
  block: [number, number];
  estateChance: number;
  twoStoreyChance: number;
}

const STYLES: Record<SuburbStyle, StyleParameters> = {
  central: {
    road: 16,
    depth: [28, 40],
    frontage: [15, 22],
    block: [100, 160],
    estateChance: 0.02,
    twoStoreyChance: 0.4,
  },
  suburban: {
    road: 13,
    depth: [34, 48],
    frontage: [20, 30],
    block: [160, 260],
    estateChance: 0.09,
    twoStoreyChance: 0.25,
  },
  residential: {
    road: 12,
    depth: [28, 38],
    frontage: [15, 22],
    block: [130, 220],
    estateChance: 0.04,
    twoStoreyChance: 0.15,
  },
  township: {
    road: 10,
    depth: [18, 24],
    frontage: [10, 14],
    block: [100, 180],
    estateChance: 0,
    twoStoreyChance: 0.03,
  },
};

type ErfKind = 'house' | 'estate' | 'poi';
type Front = 'S' | 'N' | 'W' | 'E';

interface Erf {
  u0: number;
  v0: number;
  u1: number;
  v1: number;
  front: Front;
  /** Index of the street line it fronts. */
  street: number;
  /** 1: numbered odd (north of a long street, east of a cross street); 0: even. */
  side: 0 | 1;
  /** Position along the street, for numbering. */
  along: number;
  kind: ErfKind;
  /** The second half of a subdivided erf: the same number with an A. */
  suffixA?: boolean;
  vacant?: boolean;
  category?: PoiCategory;
  number?: number;
}

interface StreetLine {
  name: string;
  /** Suburb-frame end points. */
  u0: number;
  v0: number;
  u1: number;
  v1: number;
  used: boolean;
}

/** A rectangle's placement: turned by theta about the suburb's centre, which sits at (cx, cy) in the town frame. */
class SuburbFrame {
  private readonly cos: number;
  private readonly sin: number;

  constructor(
    readonly town: LocalFrame,
    readonly cx: number,
    readonly cy: number,
    readonly w: number,
    readonly h: number,
    theta: number,
  ) {
    this.cos = Math.cos(theta);
    this.sin = Math.sin(theta);
  }

  x(u: number, v: number): number {
    return this.cx + (u - this.w / 2) * this.cos - (v - this.h / 2) * this.sin;
  }

  y(u: number, v: number): number {
    return this.cy + (u - this.w / 2) * this.sin + (v - this.h / 2) * this.cos;
  }

  lon(u: number, v: number): number {
    return toLon(this.town, this.x(u, v));
  }

  lat(u: number, v: number): number {
    return toLat(this.town, this.y(u, v));
  }

  point(u: number, v: number): string {
    return pointHex(this.lon(u, v), this.lat(u, v));
  }

  /** A rectangle's four corners, counter-clockwise, as [lon, lat, ...]. */
  rect(u0: number, v0: number, u1: number, v1: number): number[] {
    return [
      this.lon(u0, v0),
      this.lat(u0, v0),
      this.lon(u1, v0),
      this.lat(u1, v0),
      this.lon(u1, v1),
      this.lat(u1, v1),
      this.lon(u0, v1),
      this.lat(u0, v1),
    ];
  }
}

/** A rectangle inside an erf, by distance along its frontage (a) and back from its street (d). */
function inErf(erf: Erf, a0: number, a1: number, d0: number, d1: number): [number, number, number, number] {
  switch (erf.front) {
    case 'S':
      return [erf.u0 + a0, erf.v0 + d0, erf.u0 + a1, erf.v0 + d1];
    case 'N':
      return [erf.u0 + a0, erf.v1 - d1, erf.u0 + a1, erf.v1 - d0];
    case 'W':
      return [erf.u0 + d0, erf.v0 + a0, erf.u0 + d1, erf.v0 + a1];
    case 'E':
      return [erf.u1 - d1, erf.v0 + a0, erf.u1 - d0, erf.v0 + a1];
  }
}

const frontage = (erf: Erf) => (erf.front === 'S' || erf.front === 'N' ? erf.u1 - erf.u0 : erf.v1 - erf.v0);
const depth = (erf: Erf) => (erf.front === 'S' || erf.front === 'N' ? erf.v1 - erf.v0 : erf.u1 - erf.u0);
const pad = (value: number, length: number) => String(value).padStart(length, '0');

const BIG_POI_PARCEL: Partial<Record<PoiCategory, number>> = {
  shopping_centre: PARCEL_TYPE.business,
  fuel: PARCEL_TYPE.business,
};
const POI_IMPORTANCE: Record<PoiCategory, number> = {
  shopping_centre: 0.9,
  hospital: 0.85,
  school: 0.7,
  police: 0.7,
  clinic: 0.6,
  library: 0.55,
  church: 0.5,
  fuel: 0.5,
};

export class TownLayout {
  /** Addresses written so far. */
  produced = 0;
  private readonly frame: LocalFrame;
  private readonly random: Random;
  private readonly streetDeck: Deck<string>;
  private readonly suburbDecks = new Map<string, Deck<string>>();
  private readonly estateDeck: Deck<string>;
  private readonly usedSuburbNames = new Map<string, number>();
  private readonly suburbBases: string[] = [];
  private readonly cells: Generator<{ x: number; y: number; ring: number }>;
  private readonly accepted: { x: number; y: number }[] = [];
  private suburbIndex = 0;
  private nextErf: number;
  private readonly importance: number;
  private readonly name: string;
  private readonly id: number;
  /** SG major region of the town's erven (4 digits). */
  private readonly sgMajor: string;

  constructor(private readonly context: TownContext) {
    const { town } = context.plan;
    this.frame = frameAt(town.lon, town.lat);
    this.id = town.geonameId;
    this.name = town.name;
    this.importance = importanceOfPopulation(town.population);
    this.random = Random.of(context.seed, 'town', this.id);
    this.streetDeck = new Deck(STREET_NAMES, Random.of(context.seed, 'streets', this.id));
    this.streetDeck.putOnTop(this.random.shuffled(MAIN_STREET_NAMES));
    this.estateDeck = new Deck(
      ESTATE_NAMES.flatMap((name) => ESTATE_KINDS.map((kind) => `${name} ${kind}`)),
      Random.of(context.seed, 'estates', this.id),
    );
    this.cells = this.spiral();
    this.nextErf = this.random.int(1, 300);
    this.sgMajor = pad(((context.plan.provinceRank + 1) * 10) % 10000, 4);
  }

  /** Lays out the next suburb into the batch; false when the town is complete (or out of ground). */
  nextSuburb(batch: Batch): boolean {
    if (this.produced >= this.context.plan.target) return false;
    for (;;) {
      const next = this.cells.next();
      if (next.done) return false;
      const { x, y } = next.value;
      if (!this.cellUsable(x, y)) continue;
      this.accepted.push({ x, y });
      const before = batch.addresses.length;
      this.layoutSuburb(batch, x, y);
      this.produced += batch.addresses.length - before;
      return true;
    }
  }

  /** Farms around the town and its imagery coverage. */
  finish(batch: Batch): void {
    this.layoutFarms(batch);
    this.layoutCoverage(batch);
  }

  // ---------------------------------------------------------------------------------------------------

  /** Cells ring by ring around the centre, nearest first within a ring; stops after rings with no ground. */
  private *spiral(): Generator<{ x: number; y: number; ring: number }> {
    yield { x: 0, y: 0, ring: 0 };
    let lastUsefulRing = 0;
    for (let ring = 1; ring <= MAX_RING; ring += 1) {
      const cells: { x: number; y: number; ring: number }[] = [];
      for (let i = -ring; i <= ring; i += 1) {
        for (let j = -ring; j <= ring; j += 1) {
          if (Math.max(Math.abs(i), Math.abs(j)) === ring) cells.push({ x: i * CELL_M, y: j * CELL_M, ring });
        }
      }
      cells.sort(
        (a, b) => Math.hypot(a.x, a.y) - Math.hypot(b.x, b.y) || Math.atan2(a.y, a.x) - Math.atan2(b.y, b.x),
      );
      const before = this.accepted.length;
      for (const cell of cells) yield cell;
      if (this.accepted.length > before) lastUsefulRing = ring;
      else if (ring - lastUsefulRing >= 3) return;
    }
  }

  private cellUsable(x: number, y: number): boolean {
    const half = CELL_M / 2;
    for (const [cx, cy] of [
      [x - half, y - half],
      [x + half, y - half],
      [x + half, y + half],
      [x - half, y + half],
      [x, y],
    ]) {
      if (!inTownGround(this.context.plan, cx, cy, 60)) return false;
      if (!this.context.isLand(toLon(this.frame, cx), toLat(this.frame, cy))) return false;
    }
    return true;
  }

  private suburbName(style: SuburbStyle, random: Random): string {
    if (this.suburbIndex === 0) return `${this.name} Central`;
    // An extension of an earlier suburb now and then ("Thembalethu Extension 2").
    if (this.suburbBases.length > 1 && random.chance(style === 'township' ? 0.3 : 0.12)) {
      return this.uniqueSuburbName(random.pick(this.suburbBases.slice(1)), true);
    }
    // The places absorbed into this town first (Cape Town's Rondebosch, Claremont...).
    const absorbed = this.context.plan.absorbed;
    if (style !== 'township' && absorbed.length)
      return this.uniqueSuburbName(absorbed.shift() as string, false);
    let deck = this.suburbDecks.get(style);
    if (!deck) {
      deck = new Deck(suburbNamesFor(style), Random.of(this.context.seed, 'suburbs', this.id, style));
      this.suburbDecks.set(style, deck);
    }
    return this.uniqueSuburbName(deck.draw(), false);
  }

  private uniqueSuburbName(base: string, extension: boolean): string {
    const used = this.usedSuburbNames.get(base);
    if (used === undefined && !extension) {
      this.usedSuburbNames.set(base, 1);
      this.suburbBases.push(base);
      return base;
    }
    const next = (used ?? 1) + 1;
    this.usedSuburbNames.set(base, next);
    return `${base} Extension ${next - 1}`;
  }

  private streetName(random: Random, perimeter: boolean, taken: Set<string>): string {
    for (;;) {
      const base = this.streetDeck.draw();
      const province = this.context.plan.town.province.code;
      let name: string;
      if (AFRIKAANS_BASES.has(base) && ['WC', 'NC', 'FS'].includes(province) && random.chance(0.3)) {
        name = `${base}${random.weighted(AFRIKAANS_STREET_TYPES)}`;
      } else {
        const type = perimeter
          ? random.weighted<string>([
              ['Drive', 4],
              ['Road', 4],
              ['Crescent', 2],
              ['Way', 1],
              ['Street', 3],
            ])
          : random.weighted(STREET_TYPES);
        name = `${base} ${type}`;
      }
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  }

  private layoutSuburb(batch: Batch, cellX: number, cellY: number): void {
    const index = this.suburbIndex;
    const random = Random.of(this.context.seed, 'suburb', this.id, index);
    const ring = Math.max(Math.abs(cellX), Math.abs(cellY)) / CELL_M;
    const style: SuburbStyle =
      index === 0
        ? 'central'
        : random.weighted<SuburbStyle>([
            ['residential', 45],
            ['suburban', ring <= 1 ? 35 : 25],
            ['township', ring <= 1 ? 10 : 30],
          ]);
    const name = this.suburbName(style, random);
    this.suburbIndex += 1;
    const parameters = STYLES[style];
    const road = parameters.road;
    const erfDepth = random.range(...parameters.depth);
    const [minFrontage, maxFrontage] = parameters.frontage;
    const frontageMean = random.range(minFrontage, maxFrontage);

    // The suburb's rectangle: turned by up to 20 degrees and still inside its cell, with room to spare.
    const theta = random.range(-0.35, 0.35);
    const c = Math.abs(Math.cos(theta));
    const s = Math.abs(Math.sin(theta));
    const room = 0.94 * CELL_M;
    let w = random.range(0.62, 0.82) * CELL_M;
    let h = random.range(0.62, 0.82) * CELL_M;
    while (w * c + h * s > room || w * s + h * c > room) {
      w *= 0.97;
      h *= 0.97;
    }
    // Long streets (along u) every two erf depths and a road; cross streets at varied block lengths.
    const rows = Math.max(1, Math.floor((h - road) / (2 * erfDepth + road)));
    h = rows * (2 * erfDepth + road) + road;
    const longV: number[] = [];
    for (let k = 0; k <= rows; k += 1) longV.push(road / 2 + k * (2 * erfDepth + road));
    const crossU: number[] = [road / 2];
    for (;;) {
      const next = crossU[crossU.length - 1] + road + random.range(...parameters.block);
      if (next + road / 2 > w) break;
      crossU.push(next);
    }
    if (crossU.length < 2) crossU.push(w - road / 2);
    w = crossU[crossU.length - 1] + road / 2;
    const slackX = Math.max(0, (room - (w * c + h * s)) / 2);
    const slackY = Math.max(0, (room - (w * s + h * c)) / 2);
    const frame = new SuburbFrame(
      this.frame,
      cellX + random.range(-slackX, slackX),
      cellY + random.range(-slackY, slackY),
      w,
      h,
      theta,
    );

    // Street names: long streets first, then cross streets (numbered avenues in some suburbs).
    const taken = new Set<string>();
    const numberedAvenues = style !== 'central' && style !== 'township' && random.chance(0.1);
    const lines: StreetLine[] = [];
    longV.forEach((v, k) =>
      lines.push({
        name: this.streetName(random, k === 0 || k === rows, taken),
        u0: crossU[0],
        v0: v,
        u1: crossU[crossU.length - 1],
        v1: v,
        used: false,
      }),
    );
    const crossBase = lines.length;
    crossU.forEach((u, j) =>
      lines.push({
        name: numberedAvenues
          ? `${ordinal(j + 1)} Avenue`
          : this.streetName(random, j === 0 || j === crossU.length - 1, taken),
        u0: u,
        v0: longV[0],
        u1: u,
        v1: longV[longV.length - 1],
        used: false,
      }),
    );

    // Which blocks hold a school, a mall, a hospital (whole-block parcels).
    const blockCount = rows * (crossU.length - 1);
    const bigPois: PoiCategory[] = [];
    if (style === 'central') {
      bigPois.push('shopping_centre');
      if (this.context.plan.town.population > 50_000 && random.chance(0.6)) bigPois.push('hospital');
      if (random.chance(0.5)) bigPois.push('school');
    } else {
      if (blockCount >= 6) bigPois.push('school');
      if (blockCount >= 20 && random.chance(0.5)) bigPois.push('school');
      if (random.chance(style === 'township' ? 0.2 : 0.3)) bigPois.push('shopping_centre');
      if (random.chance(0.04)) bigPois.push('hospital');
    }
    const bigPoiBlocks = new Map<number, PoiCategory>();
    random
      .shuffled([...Array(blockCount).keys()])
      .slice(0, bigPois.length)
      .forEach((block, i) => bigPoiBlocks.set(block, bigPois[i]));

    // Erven, block by block, until the town has its addresses.
    const erven: Erf[] = [];
    let addresses = 0;
    const remaining = this.context.plan.target - this.produced;
    let block = 0;
    blocks: for (let k = 0; k < rows; k += 1) {
      for (let j = 0; j + 1 < crossU.length; j += 1, block += 1) {
        if (addresses >= remaining) break blocks;
        const u0 = crossU[j] + road / 2;
        const u1 = crossU[j + 1] - road / 2;
        const v0 = longV[k] + road / 2;
        const v1 = longV[k + 1] - road / 2;
        const length = u1 - u0;
        const bigPoi = bigPoiBlocks.get(block);
        if (bigPoi || (length > 60 && random.chance(parameters.estateChance))) {
          erven.push({
            u0,
            v0,
            u1,
            v1,
            front: 'S',
            street: k,
            side: 1,
            along: (u0 + u1) / 2,
            kind: bigPoi ? 'poi' : 'estate',
            category: bigPoi,
          });
          addresses += bigPoi ? 1 : this.unitCount(length, v1 - v0);
          continue;
        }
        const ends = length >= 2 * erfDepth + 3 * minFrontage;
        const middle0 = ends ? u0 + erfDepth : u0;
        const middle1 = ends ? u1 - erfDepth : u1;
        if (ends) {
          for (const [a0, a1] of [
            [v0, v0 + erfDepth],
            [v0 + erfDepth, v1],
          ]) {
            erven.push({
              u0,
              v0: a0,
              u1: u0 + erfDepth,
              v1: a1,
              front: 'W',
              street: crossBase + j,
              side: 1,
              along: (a0 + a1) / 2,
              kind: 'house',
            });
            erven.push({
              u0: u1 - erfDepth,
              v0: a0,
              u1,
              v1: a1,
              front: 'E',
              street: crossBase + j + 1,
              side: 0,
              along: (a0 + a1) / 2,
              kind: 'house',
            });
          }
        }
        for (const row of [0, 1] as const) {
          const rv0 = row === 0 ? v0 : v0 + erfDepth;
          const rv1 = row === 0 ? v0 + erfDepth : v1;
          const count = Math.max(1, Math.round((middle1 - middle0) / frontageMean));
          const widths = Array.from({ length: count }, () => random.range(0.82, 1.18));
          const sum = widths.reduce((total, width) => total + width, 0);
          let at = middle0;
          widths.forEach((width, i) => {
            const end = i === count - 1 ? middle1 : at + ((middle1 - middle0) * width) / sum;
            const base = {
              v0: rv0,
              v1: rv1,
              front: (row === 0 ? 'S' : 'N') as Front,
              street: k + row,
              side: (row === 0 ? 1 : 0) as 0 | 1,
              kind: 'house' as const,
            };
            if (style !== 'township' && end - at >= 1.2 * minFrontage && random.chance(0.04)) {
              const mid = (at + end) / 2;
              erven.push({ ...base, u0: at, u1: mid, along: (at + mid) / 2 });
              erven.push({ ...base, u0: mid, u1: end, along: (mid + end) / 2, suffixA: true });
            } else {
              erven.push({ ...base, u0: at, u1: end, along: (at + end) / 2 });
            }
            at = end;
          });
        }
        addresses = this.countAddresses(erven);
      }
    }

    // Vacant erven (no address: reverse geocoding falls back to the nearest), then the small POIs.
    const houses = erven.filter((erf) => erf.kind === 'house');
    for (const erf of houses) if (random.chance(0.03)) erf.vacant = true;
    const smallPois: PoiCategory[] = [];
    const poiCount = (central: number, chance: number) =>
      style === 'central' ? central : random.chance(chance) ? 1 : 0;
    const add = (category: PoiCategory, times: number) => {
      for (let i = 0; i < times; i += 1) smallPois.push(category);
    };
    add('church', poiCount(2, 0.8) + (random.chance(0.3) ? 1 : 0));
    add('clinic', poiCount(1, 0.35));
    add('police', poiCount(1, 0.2));
    add('fuel', poiCount(2, 0.6));
    add('library', poiCount(1, 0.1));
    const candidates = random.shuffled(houses.filter((erf) => !erf.vacant && !erf.suffixA));
    smallPois.slice(0, candidates.length).forEach((category, i) => {
      candidates[i].kind = 'poi';
      candidates[i].category = category;
    });

    // House numbers: odd on one side of a street, even on the other, rising along it.
    const bySide = new Map<number, Erf[]>();
    for (const erf of erven) {
      lines[erf.street].used = true;
      const key = erf.street * 2 + erf.side;
      let list = bySide.get(key);
      if (!list) bySide.set(key, (list = []));
      list.push(erf);
    }
    for (const list of bySide.values()) {
      list.sort((a, b) => a.along - b.along);
      let number = list[0].side === 1 ? -1 : 0;
      for (const erf of list) {
        if (!erf.suffixA) number += 2;
        erf.number = number;
      }
    }

    this.writeSuburb(batch, { index, name, style, frame, lines, erven, random });
  }

  private unitCount(length: number, width: number): number {
    const columns = Math.max(1, Math.floor((length - 12 + 4) / 13));
    const rows = Math.max(1, Math.floor((width - 12 + 4) / 15));
    return Math.min(columns * rows, 60);
  }

  private countAddresses(erven: Erf[]): number {
    let total = 0;
    for (const erf of erven) {
      if (erf.kind === 'estate') total += this.unitCount(erf.u1 - erf.u0, erf.v1 - erf.v0);
      else total += 1;
    }
    return total;
  }

  private writeSuburb(
    batch: Batch,
    suburb: {
      index: number;
      name: string;
      style: SuburbStyle;
      frame: SuburbFrame;
      lines: StreetLine[];
      erven: Erf[];
      random: Random;
    },
  ): void {
    const { index, name, style, frame, lines, erven, random } = suburb;
    const { plan, townId } = this.context;
    const townName = this.name;
    const province = plan.town.province;
    const streetCode = plan.postalCodes[index % plan.postalCodes.length];
    const postalCode = padPostalCode(streetCode) as string;
    const boxCode = padPostalCode(streetCode > 1 ? streetCode - 1 : streetCode) as string;
    const addressTotal = this.countAddresses(erven.filter((erf) => !erf.vacant));

    const suburbRef = batch.suburbs.length;
    batch.suburbs.push([
      'suburb',
      name,
      postalCode,
      townId,
      Math.round(addressTotal * 3.3),
      this.importance * 0.8,
      frame.point(frame.w / 2, frame.h / 2),
      multiPolygonHex([[frame.rect(0, 0, frame.w, frame.h)]]),
      GENERATOR_SOURCE,
      `suburb:${this.id}:${index}`,
    ]);
    batch.postalCodes.push([
      postalCode,
      boxCode,
      name,
      townName,
      province.name,
      suburbRef,
      frame.point(frame.w / 2, frame.h / 2),
      GENERATOR_SOURCE,
      `postal:${this.id}:${index}`,
    ]);

    const streetRefs = lines.map((line, i) => {
      if (!line.used) return -1;
      const ref = batch.streets.length;
      batch.streets.push([
        line.name,
        suburbRef,
        townId,
        name,
        townName,
        this.importance * (style === 'central' ? 0.9 : 0.7),
        streetSearchText(line.name, name, townName),
        multiLineStringHex([
          [
            frame.lon(line.u0, line.v0),
            frame.lat(line.u0, line.v0),
            frame.lon(line.u1, line.v1),
            frame.lat(line.u1, line.v1),
          ],
        ]),
        GENERATOR_SOURCE,
        `street:${this.id}:${index}:${i}`,
      ]);
      return ref;
    });

    const minor = pad(index + 1, 4);
    for (const erf of erven) {
      const erfNumber = this.nextErf++;
      const key = `${this.id}:${erfNumber}`;
      const line = lines[erf.street];
      const houseNumber = erf.suffixA ? `${erf.number}A` : String(erf.number);

      let parcelType: number = PARCEL_TYPE.erf;
      let dataQuality: number = random.chance(0.7) ? DATA_QUALITY.verified : DATA_QUALITY.unverified;
      if (erf.kind === 'estate') parcelType = PARCEL_TYPE.sectionalScheme;
      else if (erf.kind === 'poi')
        parcelType = BIG_POI_PARCEL[erf.category as PoiCategory] ?? PARCEL_TYPE.institutional;
      else if (erf.vacant) {
        const odd = random.next();
        if (odd < 0.3) {
          parcelType = PARCEL_TYPE.unAddressable;
          dataQuality = DATA_QUALITY.unAddressable;
        } else if (odd < 0.55) {
          parcelType = PARCEL_TYPE.underInvestigation;
          dataQuality = DATA_QUALITY.underInvestigation;
        }
      }
      const parcelRef = batch.parcels.length;
      batch.parcels.push([
        String(erfNumber),
        0,
        parcelType,
        dataQuality,
        `${province.sgOffice}${this.sgMajor}${minor}${pad(erfNumber, 8)}0000`,
        townId,
        suburbRef,
        townName,
        name,
        multiPolygonHex([[frame.rect(erf.u0, erf.v0, erf.u1, erf.v1)]]),
        GENERATOR_SOURCE,
        `erf:${key}`,
      ]);

      const address = (
        unit: string | null,
        estate: string | null,
        u: number,
        v: number,
        sourceId: string,
      ) => {
        const ref = batch.addresses.length;
        const quality = random.weighted<number>([
          [ADDRESS_QUALITY.sv, 35],
          [ADDRESS_QUALITY.vr, 30],
          [ADDRESS_QUALITY.dds, 20],
          [ADDRESS_QUALITY.cnf, 10],
          [20, 5],
        ]);
        batch.addresses.push([
          houseNumber,
          erf.number,
          streetRefs[erf.street],
          line.name,
          unit,
          estate,
          name,
          townName,
          postalCode,
          frame.point(u, v),
          parcelRef,
          quality,
          random.chance(quality >= ADDRESS_QUALITY.vr ? 0.6 : 0.1),
          GENERATOR_SOURCE,
          sourceId,
        ]);
        return ref;
      };
      const building = (
        rect: [number, number, number, number],
        kind: string,
        levels: number,
        roof: string,
        n: number,
        height = levels * 3.2 + (roof === 'pitched' ? 1.5 : 0.5),
      ) => {
        batch.buildings.push([
          parcelRef,
          kind,
          levels,
          Math.round(height * 10) / 10,
          roof,
          polygonHex([frame.rect(...rect)]),
          GENERATOR_SOURCE,
          `building:${key}:${n}`,
        ]);
      };

      const F = frontage(erf);
      const D = depth(erf);
      if (erf.kind === 'estate') {
        this.writeEstate(batch, { erf, frame, random, parcelRef, name, address, building, key });
        continue;
      }
      if (erf.vacant) continue;
      if (erf.kind === 'poi') {
        const category = erf.category as PoiCategory;
        const main = this.poiBuildings(erf, category, random, building);
        const [bu0, bv0, bu1, bv1] = main;
        const addressRef = address(null, null, (bu0 + bu1) / 2, (bv0 + bv1) / 2, `address:${key}`);
        batch.pois.push([
          poiName(category, style === 'central' ? townName : name, line.name, (items) => random.pick(items)),
          POI_TYPE.address,
          category,
          addressRef,
          parcelRef,
          null,
          name,
          townName,
          this.importance * POI_IMPORTANCE[category],
          frame.point((bu0 + bu1) / 2, (bv0 + bv1) / 2),
          GENERATOR_SOURCE,
          `poi:${key}`,
        ]);
        continue;
      }

      // A house set back from the street, and often an outbuilding (garage, flat, backyard room) at the back.
      const township = style === 'township';
      const houseWidth = township
        ? Math.min(F - 3, random.range(6, 8))
        : Math.max(7, F * random.range(0.5, 0.7));
      const houseDepth = township
        ? Math.min(D * 0.45, random.range(6, 7.5))
        : Math.max(7, D * random.range(0.3, 0.42));
      const setback = township ? random.range(2.5, 4.5) : random.range(3, 7);
      const sideRoom = Math.max(0, (F - houseWidth) / 2 - 1.2);
      const a0 = (F - houseWidth) / 2 + random.range(-sideRoom, sideRoom);
      const house = inErf(erf, a0, a0 + houseWidth, setback, setback + houseDepth);
      const levels = random.chance(STYLES[style].twoStoreyChance) ? 2 : 1;
      building(house, 'house', levels, township || random.chance(0.25) ? 'flat' : 'pitched', 0);
      const outDepth = township ? 3.5 : random.range(5, 6.5);
      const outWidth = Math.min(township ? 4 : 7, F * 0.35);
      if (random.chance(township ? 0.45 : 0.6) && setback + houseDepth + 1.5 < D - 1.5 - outDepth) {
        const left = random.chance(0.5);
        const o0 = left ? 1.2 : F - 1.2 - outWidth;
        building(
          inErf(erf, o0, o0 + outWidth, D - 1.5 - outDepth, D - 1.5),
          township ? 'backyard room' : 'garage',
          1,
          'flat',
          1,
        );
      }
      address(null, null, (house[0] + house[2]) / 2, (house[1] + house[3]) / 2, `address:${key}`);
    }
  }

  /** The buildings of a POI's erf; answers the main one (where its address point goes). */
  private poiBuildings(
    erf: Erf,
    category: PoiCategory,
    random: Random,
    building: (
      rect: [number, number, number, number],
      kind: string,
      levels: number,
      roof: string,
      n: number,
      height?: number,
    ) => void,
  ): [number, number, number, number] {
    const F = frontage(erf);
    const D = depth(erf);
    const box = (a0: number, a1: number, d0: number, d1: number) =>
      inErf(erf, F * a0, F * a1, D * d0, D * d1);
    switch (category) {
      case 'shopping_centre': {
        const main = box(0.12, 0.88, 0.3, 0.85);
        building(main, 'retail', random.int(1, 2), 'flat', 0);
        return main;
      }
      case 'school': {
        const main = box(0.1, 0.55, 0.15, 0.4);
        building(main, 'school', 2, 'pitched', 0);
        building(box(0.1, 0.55, 0.55, 0.75), 'school', 1, 'pitched', 1);
        building(box(0.65, 0.9, 0.15, 0.6), 'school hall', 1, 'pitched', 2, 7);
        return main;
      }
      case 'hospital': {
        const main = box(0.2, 0.8, 0.2, 0.6);
        building(main, 'hospital', random.int(3, 5), 'flat', 0);
        return main;
      }
      case 'fuel': {
        building(box(0.15, 0.75, 0.15, 0.45), 'canopy', 1, 'flat', 0, 5.5);
        const shop = box(0.2, 0.7, 0.6, 0.85);
        building(shop, 'retail', 1, 'flat', 1);
        return shop;
      }
      case 'church': {
        const main = box(0.25, 0.75, 0.2, 0.75);
        building(main, 'church', 1, 'pitched', 0, 9);
        return main;
      }
      default: {
        const main = box(0.15, 0.85, 0.2, 0.7);
        building(main, category === 'police' ? 'police station' : category, random.int(1, 2), 'flat', 0);
        return main;
      }
    }
  }

  /** A gated estate: one parcel, an estate POI at its gate, rows of townhouses with unit addresses and unit POIs. */
  private writeEstate(
    batch: Batch,
    estate: {
      erf: Erf;
      frame: SuburbFrame;
      random: Random;
      parcelRef: number;
      name: string;
      key: string;
      address: (unit: string | null, estate: string | null, u: number, v: number, sourceId: string) => number;
      building: (
        rect: [number, number, number, number],
        kind: string,
        levels: number,
        roof: string,
        n: number,
      ) => void;
    },
  ): void {
    const { erf, frame, random, parcelRef, name, key, address, building } = estate;
    const estateName = this.estateDeck.draw();
    const F = frontage(erf);
    const D = depth(erf);
    const estateRef = batch.pois.length;
    batch.pois.push([
      estateName,
      POI_TYPE.estate,
      'estate',
      null,
      parcelRef,
      null,
      name,
      this.name,
      this.importance * 0.5,
      frame.point(...centre(inErf(erf, F / 2 - 2, F / 2 + 2, 2, 6))),
      GENERATOR_SOURCE,
      `estate:${key}`,
    ]);
    const columns = Math.max(1, Math.floor((F - 12 + 4) / 13));
    const rows = Math.max(1, Math.floor((D - 12 + 4) / 15));
    const levels = random.chance(0.4) ? 2 : 1;
    let unit = 0;
    for (let row = 0; row < rows; row += 1) {
      for (let column = 0; column < columns && unit < 60; column += 1) {
        unit += 1;
        const a0 = 6 + column * 13;
        const d0 = 6 + row * 15;
        const rect = inErf(erf, a0, a0 + 9, d0, d0 + 11);
        building(rect, 'townhouse', levels, 'pitched', unit);
        const [u, v] = centre(rect);
        const addressRef = address(String(unit), estateName, u, v, `address:${key}:${unit}`);
        batch.unitPois.push([
          `Unit ${unit} ${estateName}`,
          POI_TYPE.unit,
          'unit',
          addressRef,
          parcelRef,
          estateRef,
          name,
          this.name,
          this.importance * 0.2,
          frame.point(u, v),
          GENERATOR_SOURCE,
          `unit:${key}:${unit}`,
        ]);
      }
    }
  }

  /**
   * Farms in a ring outside the town: sectors of the ring, each split into a remainder (portion 0, the
   * outer part) and numbered portions towards the town; a farmhouse and a shed on about half of them.
   */
  private layoutFarms(batch: Batch): void {
    if (this.accepted.length === 0) return;
    const { plan, townId } = this.context;
    const province = plan.town.province;
    const random = Random.of(this.context.seed, 'farms', this.id);
    const reach = Math.max(...this.accepted.map((cell) => Math.hypot(cell.x, cell.y))) + CELL_M * 0.75 + 300;
    const width = 2000 + 8 * Math.sqrt(Math.max(plan.target, 1));
    const farmCount = Math.min(60, Math.max(6, Math.round(6 + Math.sqrt(plan.target) / 4)));
    const division = province.divisions.length
      ? province.divisions[(plan.provinceRank + this.id) % province.divisions.length]
      : `${this.name} RD`;
    const sgMajor = province.divisions.length ? `0${division}0` : this.sgMajor;
    const firstNumber = 1 + plan.provinceRank * 70;
    const shares = Array.from({ length: farmCount }, () => random.range(0.6, 1.4));
    const total = shares.reduce((sum, share) => sum + share, 0);
    let angle = random.range(0, 2 * Math.PI);
    const names = new Deck(FARM_NAMES, random);

    shares.forEach((share, farm) => {
      const from = angle;
      const to = angle + (2 * Math.PI * share) / total;
      angle = to;
      const farmName = names.draw();
      const farmNumber = firstNumber + farm;
      const portions = random.int(1, 4);
      const radii = [reach];
      for (let p = 1; p < portions; p += 1)
        radii.push(reach + (width * p) / portions + random.range(-0.1, 0.1) * (width / portions));
      radii.push(reach + width);
      // The outermost piece is the remainder (portion 0), numbered portions lie towards the town.
      for (let piece = 0; piece < portions; piece += 1) {
        const portion = piece === portions - 1 ? 0 : piece + 1;
        const ring = sector(radii[piece], radii[piece + 1], from, to);
        if (!this.groundHolds(ring)) continue;
        const flat = ring.flatMap(([x, y]) => [toLon(this.frame, x), toLat(this.frame, y)]);
        const parcelRef = batch.parcels.length;
        const key = `${this.id}:${farmNumber}:${portion}`;
        batch.parcels.push([
          String(farmNumber),
          portion,
          PARCEL_TYPE.farm,
          random.chance(0.6) ? DATA_QUALITY.verified : DATA_QUALITY.unverified,
          `${province.sgOffice}${sgMajor}0000${pad(farmNumber, 8)}${pad(portion, 4)}`,
          townId,
          null,
          this.name,
          '',
          multiPolygonHex([[flat]]),
          GENERATOR_SOURCE,
          `farm:${key}`,
        ]);
        batch.farms.push([
          farmName,
          farmNumber,
          portion,
          division,
          parcelRef,
          this.name,
          province.name,
          multiPolygonHex([[flat]]),
          GENERATOR_SOURCE,
          `farm:${key}`,
        ]);
        if (random.chance(0.5)) {
          const mid = (from + to) / 2;
          const r = (radii[piece] + radii[piece + 1]) / 2;
          const place = (along: number, across: number, length: number, breadth: number) => {
            const cx = Math.cos(mid) * r + Math.cos(mid) * along - Math.sin(mid) * across;
            const cy = Math.sin(mid) * r + Math.sin(mid) * along + Math.cos(mid) * across;
            const corners: [number, number][] = [
              [-length / 2, -breadth / 2],
              [length / 2, -breadth / 2],
              [length / 2, breadth / 2],
              [-length / 2, breadth / 2],
            ];
            return corners.flatMap(([a, b]) => [
              toLon(this.frame, cx + Math.cos(mid) * a - Math.sin(mid) * b),
              toLat(this.frame, cy + Math.sin(mid) * a + Math.cos(mid) * b),
            ]);
          };
          batch.buildings.push([
            parcelRef,
            'farmhouse',
            1,
            4.5,
            'pitched',
            polygonHex([place(0, 0, 18, 12)]),
            GENERATOR_SOURCE,
            `building:farm:${key}:0`,
          ]);
          batch.buildings.push([
            parcelRef,
            'shed',
            1,
            6,
            'flat',
            polygonHex([place(0, 45, 26, 14)]),
            GENERATOR_SOURCE,
            `building:farm:${key}:1`,
          ]);
        }
      }
    });
  }

  private groundHolds(ring: [number, number][]): boolean {
    return ring.every(
      ([x, y]) =>
        inTownGround(this.context.plan, x, y, 100) &&
        this.context.isLand(toLon(this.frame, x), toLat(this.frame, y)),
    );
  }

  /**
   * Imagery: high-resolution over the town's core (the cells within half its reach), ortho over the whole
   * town and a margin, or nothing (context.coverage says which).
   */
  private layoutCoverage(batch: Batch): void {
    const { coverage } = this.context;
    if (coverage === 'none' || this.accepted.length === 0) return;
    const random = Random.of(this.context.seed, 'coverage', this.id);
    const box = (cells: { x: number; y: number }[], margin: number) => {
      const x0 = Math.min(...cells.map((cell) => cell.x)) - CELL_M / 2 - margin;
      const x1 = Math.max(...cells.map((cell) => cell.x)) + CELL_M / 2 + margin;
      const y0 = Math.min(...cells.map((cell) => cell.y)) - CELL_M / 2 - margin;
      const y1 = Math.max(...cells.map((cell) => cell.y)) + CELL_M / 2 + margin;
      return [x0, y0, x1, y0, x1, y1, x0, y1].map((value, i) =>
        i % 2 === 0 ? toLon(this.frame, value) : toLat(this.frame, value),
      );
    };
    const date = () => `${random.int(2021, 2025)}-${pad(random.int(1, 12), 2)}-${pad(random.int(1, 28), 2)}`;
    batch.coverage.push([
      'ortho',
      `${this.name} ortho mosaic`,
      date(),
      multiPolygonHex([[box(this.accepted, 1500)]]),
      GENERATOR_SOURCE,
      `ortho:${this.id}`,
    ]);
    if (coverage === 'high_resolution') {
      const reach = Math.max(...this.accepted.map((cell) => Math.hypot(cell.x, cell.y)));
      const core = this.accepted.filter((cell) => Math.hypot(cell.x, cell.y) <= reach / 2);
      batch.coverage.push([
        'high_resolution',
        `${this.name} high-resolution flight`,
        date(),
        multiPolygonHex([[box(core, 0)]]),
        GENERATOR_SOURCE,
        `high_resolution:${this.id}`,
      ]);
    }
  }
}

function centre([u0, v0, u1, v1]: [number, number, number, number]): [number, number] {
  return [(u0 + u1) / 2, (v0 + v1) / 2];
}

/** An annular sector as a polygon: the outer arc one way, the inner arc back, a vertex every 3 degrees or so. */
function sector(inner: number, outer: number, from: number, to: number): [number, number][] {
  const steps = Math.max(2, Math.ceil((to - from) / 0.05));
  const points: [number, number][] = [];
  for (let i = 0; i <= steps; i += 1) {
    const angle = from + ((to - from) * i) / steps;
    points.push([Math.cos(angle) * outer, Math.sin(angle) * outer]);
  }
  for (let i = steps; i >= 0; i -= 1) {
    const angle = from + ((to - from) * i) / steps;
    points.push([Math.cos(angle) * inner, Math.sin(angle) * inner]);
  }
  return points;
}
