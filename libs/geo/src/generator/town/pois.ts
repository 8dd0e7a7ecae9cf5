/**
 * Points of interest: which blocks of a suburb are a school, a mall or a hospital (whole-block erven),
 * which houses are a church, clinic, police station, fuel station or library, and the POI row of each,
 * at its address, with an importance by kind and town.
 */
import { GENERATOR_SOURCE } from '../batch';
import { POI_TYPE } from '../codes';
import { type PoiCategory, poiName, type SuburbStyle } from '../names';
import { type Random } from '../random';
import { type ErfRows, type SuburbRows } from './context';
import { centre, type Erf } from './geometry';
import { writePoiBuildings } from './buildings';

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

/** Which blocks (numbered row by row) hold a school, a mall, a hospital (whole-block parcels). */
export function chooseBigPoiBlocks(
  style: SuburbStyle,
  population: number,
  blockCount: number,
  random: Random,
): Map<number, PoiCategory> {
  const bigPois: PoiCategory[] = [];
  if (style === 'central') {
    bigPois.push('shopping_centre');
    if (population > 50_000 && random.chance(0.6)) bigPois.push('hospital');
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
  return bigPoiBlocks;
}

/** Turns some houses (not vacant, not an A half) into the small POIs: churches, a clinic, fuel stations... */
export function placeSmallPois(style: SuburbStyle, houses: Erf[], random: Random): void {
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
}

/** A POI's erf: its buildings, its address at the main one, and its POI row. */
export function writePoi(
  { batch, site, name, style, frame, lines, random }: SuburbRows,
  { erf, key, parcelRef, address, building }: ErfRows,
): void {
  const category = erf.category as PoiCategory;
  const [u, v] = centre(writePoiBuildings(erf, category, random, building));
  const addressRef = address(null, null, u, v, `address:${key}`);
  batch.pois.push([
    poiName(category, style === 'central' ? site.name : name, lines[erf.street].name, (items) =>
      random.pick(items),
    ),
    POI_TYPE.address,
    category,
    addressRef,
    parcelRef,
    null,
    name,
    site.name,
    site.importance * POI_IMPORTANCE[category],
    frame.point(u, v),
    GENERATOR_SOURCE,
    `poi:${key}`,
  ]);
}
