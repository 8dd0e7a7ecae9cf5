/**
 * A suburb's erven: laid out block by block (whole-block estates and big POIs, erven along every block
 * face, the end erven facing the cross streets, now and then an erf subdivided into a number and its A)
 * until the town has its addresses, and the parcel row of each (SG key, parcel type, data quality).
 */
import { GENERATOR_SOURCE } from '../batch';
import { DATA_QUALITY, PARCEL_TYPE } from '../codes';
import { type PoiCategory, type SuburbStyle } from '../names';
import { type Random } from '../random';
import { pad, type SuburbRows } from './context';
import { unitCount } from './estates';
import { type Erf, type Front } from './geometry';
import { type StreetGrid } from './streets';
import { type StyleParameters } from './styles';

/** The parcel type of a POI's erf (the others are institutional). */
const BIG_POI_PARCEL: Partial<Record<PoiCategory, number>> = {
  shopping_centre: PARCEL_TYPE.business,
  fuel: PARCEL_TYPE.business,
};

export interface ErvenPlan {
  style: SuburbStyle;
  parameters: StyleParameters;
  grid: StreetGrid;
  /** Index of the first cross street among the suburb's street lines. */
  crossBase: number;
  erfDepth: number;
  minFrontage: number;
  frontageMean: number;
  /** Blocks (numbered row by row) that are one POI's erf. */
  bigPoiBlocks: Map<number, PoiCategory>;
  /** Addresses the town still needs: blocks stop once the suburb has them. */
  remaining: number;
}

/** Erven, block by block, until the town has its addresses. */
export function layOutErven(random: Random, plan: ErvenPlan): Erf[] {
  const { style, parameters, crossBase, erfDepth, minFrontage, frontageMean, bigPoiBlocks, remaining } = plan;
  const { rows, longV, crossU } = plan.grid;
  const road = parameters.road;
  const erven: Erf[] = [];
  let addresses = 0;
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
        addresses += bigPoi ? 1 : unitCount(length, v1 - v0);
        continue;
      }
      const blockStart = erven.length;
      const ends = length >= 2 * erfDepth + 3 * minFrontage;
      const middle0 = ends ? u0 + erfDepth : u0;
      const middle1 = ends ? u1 - erfDepth : u1;
      if (ends) {
        for (const [a0, a1] of [
          [v0, v0 + erfDepth],
          [v0 + erfDepth, v1],
        ]) {
          erven.push(houseErf(u0, a0, u0 + erfDepth, a1, 'W', crossBase + j, 1, (a0 + a1) / 2));
          erven.push(houseErf(u1 - erfDepth, a0, u1, a1, 'E', crossBase + j + 1, 0, (a0 + a1) / 2));
        }
      }
      for (const row of [0, 1] as const) {
        const rv0 = row === 0 ? v0 : v0 + erfDepth;
        const rv1 = row === 0 ? v0 + erfDepth : v1;
        const count = Math.max(1, Math.round((middle1 - middle0) / frontageMean));
        const widths = Array.from({ length: count }, () => random.range(0.82, 1.18));
        const sum = widths.reduce((total, width) => total + width, 0);
        let at = middle0;
        const front: Front = row === 0 ? 'S' : 'N';
        const side = row === 0 ? 1 : 0;
        widths.forEach((width, i) => {
          const end = i === count - 1 ? middle1 : at + ((middle1 - middle0) * width) / sum;
          if (style !== 'township' && end - at >= 1.2 * minFrontage && random.chance(0.04)) {
            const mid = (at + end) / 2;
            erven.push(houseErf(at, rv0, mid, rv1, front, k + row, side, (at + mid) / 2));
            erven.push(houseErf(mid, rv0, end, rv1, front, k + row, side, (mid + end) / 2, true));
          } else {
            erven.push(houseErf(at, rv0, end, rv1, front, k + row, side, (at + end) / 2));
          }
          at = end;
        });
      }
      // Only this block's erven are new (counting them all again made a suburb's layout quadratic).
      for (let e = blockStart; e < erven.length; e += 1) addresses += addressesOf(erven[e]);
    }
  }
  return erven;
}

/** A house erf along a block face (every erf made here has one shape, so the code reading them stays fast). */
function houseErf(
  u0: number,
  v0: number,
  u1: number,
  v1: number,
  front: Front,
  street: number,
  side: 0 | 1,
  along: number,
  suffixA?: boolean,
): Erf {
  return { u0, v0, u1, v1, front, street, side, along, kind: 'house', suffixA };
}

/** Addresses these erven hold: one each, an estate one per unit. */
export function countAddresses(erven: Erf[]): number {
  let total = 0;
  for (const erf of erven) total += addressesOf(erf);
  return total;
}

const addressesOf = (erf: Erf) => (erf.kind === 'estate' ? unitCount(erf.u1 - erf.u0, erf.v1 - erf.v0) : 1);

/** Writes the erf's parcel row; answers its row in the batch. */
export function writeErfParcel(
  { batch, site, index, name, frame, random }: SuburbRows,
  erf: Erf,
  erfNumber: number,
  suburbRef: number,
): number {
  const { context, sgMajor } = site;
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
    `${context.plan.town.province.sgOffice}${sgMajor}${pad(index + 1, 4)}${pad(erfNumber, 8)}0000`,
    context.townId,
    suburbRef,
    site.name,
    name,
    frame.rectMultiPolygon(erf.u0, erf.v0, erf.u1, erf.v1),
    GENERATOR_SOURCE,
    `erf:${site.id}:${erfNumber}`,
  ]);
  return parcelRef;
}
