/**
 * Gated estates: a whole block is one sectional-scheme parcel with an estate POI at its gate and rows of
 * townhouses, each a unit with its own address and unit POI.
 */
import { GENERATOR_SOURCE } from '../batch';
import { POI_TYPE } from '../codes';
import { type ErfRows, type SuburbRows } from './context';
import { centre, depth, frontage, inErf } from './geometry';

/** Units (townhouses) an estate of this size holds: rows of 9 × 11 m with 4 m between, 6 m inside its wall. */
export function unitCount(length: number, width: number): number {
  const columns = Math.max(1, Math.floor((length - 12 + 4) / 13));
  const rows = Math.max(1, Math.floor((width - 12 + 4) / 15));
  return Math.min(columns * rows, 60);
}

/** A gated estate: one parcel, an estate POI at its gate, rows of townhouses with unit addresses and unit POIs. */
export function writeEstate(
  { batch, site, name, frame, random }: SuburbRows,
  { erf, key, parcelRef, address, building }: ErfRows,
  estateName: string,
): void {
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
    site.name,
    site.importance * 0.5,
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
        site.name,
        site.importance * 0.2,
        frame.point(u, v),
        GENERATOR_SOURCE,
        `unit:${key}:${unit}`,
      ]);
    }
  }
}
