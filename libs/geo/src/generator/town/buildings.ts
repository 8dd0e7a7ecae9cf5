/**
 * Buildings on the erven: a house set back from its street with often an outbuilding at the back, the
 * buildings of a POI by its kind (a school's classrooms and hall, a fuel station's canopy and shop...).
 * Each is inside its erf by construction (setbacks). A house erf's history (new houses, extensions,
 * outbuildings, pools, demolitions) is planned in life.ts; the rows carry its dates.
 */
import { type Batch, GENERATOR_SOURCE } from '../batch';
import { type PoiCategory, type SuburbStyle } from '../names';
import { type Random } from '../random';
import { planHouseLife, type Spot } from './life';
import { type WriteBuilding } from './context';
import { depth, type Erf, frontage, inErf, type Rect, type SuburbFrame } from './geometry';
import { STYLES } from './styles';

/**
 * The writer of the building rows on one parcel; `key` names the erf in their source ids. A row's life
 * (built, demolished, extended and the footprint before) is null unless given.
 */
export function buildingWriter(
  batch: Batch,
  frame: SuburbFrame,
  parcelRef: number,
  key: string,
): WriteBuilding {
  return (
    rect,
    kind,
    levels,
    roof,
    n,
    height = levels * 3.2 + (roof === 'pitched' ? 1.5 : 0.5),
    life = {},
  ) => {
    batch.buildings.push([
      parcelRef,
      kind,
      levels,
      Math.round(height * 10) / 10,
      roof,
      frame.rectPolygon(rect[0], rect[1], rect[2], rect[3]),
      life.builtOn ?? null,
      life.demolishedOn ?? null,
      life.extendedOn ?? null,
      life.before ? frame.rectPolygon(life.before[0], life.before[1], life.before[2], life.before[3]) : null,
      GENERATOR_SOURCE,
      `building:${key}:${n}`,
    ]);
  };
}

/**
 * A house on the erf and now and then an outbuilding, with their history (planHouseLife, from `life`, the
 * erf's own stream: today's buildings are drawn from `random` alone); answers the house (where its address
 * point goes).
 */
export function writeHouse(
  erf: Erf,
  style: SuburbStyle,
  random: Random,
  building: WriteBuilding,
  life: Random,
): Rect {
  const F = frontage(erf);
  const D = depth(erf);
  // A house set back from the street, and often an outbuilding (garage, flat, backyard room) at the back.
  const township = style === 'township';
  const houseWidth = township ? Math.min(F - 3, random.range(6, 8)) : Math.max(7, F * random.range(0.5, 0.7));
  const houseDepth = township
    ? Math.min(D * 0.45, random.range(6, 7.5))
    : Math.max(7, D * random.range(0.3, 0.42));
  const setback = township ? random.range(2.5, 4.5) : random.range(3, 7);
  const sideRoom = Math.max(0, (F - houseWidth) / 2 - 1.2);
  const a0 = (F - houseWidth) / 2 + random.range(-sideRoom, sideRoom);
  const houseSpot = { a0, a1: a0 + houseWidth, d0: setback, d1: setback + houseDepth };
  const house = inErf(erf, houseSpot.a0, houseSpot.a1, houseSpot.d0, houseSpot.d1);
  const levels = random.chance(STYLES[style].twoStoreyChance) ? 2 : 1;
  const roof = township || random.chance(0.25) ? 'flat' : 'pitched';
  const outDepth = township ? 3.5 : random.range(5, 6.5);
  const outWidth = Math.min(township ? 4 : 7, F * 0.35);
  const fits = setback + houseDepth + 1.5 < D - 1.5 - outDepth;
  let outbuilding: Spot | null = null;
  let left = false;
  if (random.chance(township ? 0.45 : 0.6) && fits) {
    left = random.chance(0.5);
    const o0 = left ? 1.2 : F - 1.2 - outWidth;
    outbuilding = { a0: o0, a1: o0 + outWidth, d0: D - 1.5 - outDepth, d1: D - 1.5 };
  } else {
    left = life.chance(0.5);
  }

  const history = planHouseLife(life, {
    erf,
    style,
    frontage: F,
    depth: D,
    house: houseSpot,
    outbuilding,
    outbuildingSlot: fits ? { width: outWidth, depth: outDepth, left } : null,
  });
  building(house, 'house', levels, roof, 0, undefined, history.house);
  if (outbuilding) {
    building(
      inErf(erf, outbuilding.a0, outbuilding.a1, outbuilding.d0, outbuilding.d1),
      township ? 'backyard room' : 'garage',
      1,
      'flat',
      1,
      undefined,
      history.outbuilding,
    );
  }
  // Numbers 2 and up: the pool and the buildings that are gone.
  history.extra.forEach((extra, i) =>
    building(extra.rect, extra.kind, extra.levels, extra.roof, 2 + i, extra.heightM, extra.life),
  );
  return house;
}

/** The buildings of a POI's erf; answers the main one (where its address point goes). */
export function writePoiBuildings(
  erf: Erf,
  category: PoiCategory,
  random: Random,
  building: WriteBuilding,
): Rect {
  const F = frontage(erf);
  const D = depth(erf);
  const box = (a0: number, a1: number, d0: number, d1: number) => inErf(erf, F * a0, F * a1, D * d0, D * d1);
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
