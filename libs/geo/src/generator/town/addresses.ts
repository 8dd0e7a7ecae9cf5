/**
 * Addresses: house numbers (odd on one side of a street, even on the other, rising along it; the second
 * half of a subdivided erf the same number with an A) and the address rows of an erf, each with its
 * quality and whether it is official.
 */
import { GENERATOR_SOURCE } from '../batch';
import { ADDRESS_QUALITY } from '../codes';
import { type SuburbRows, type WriteAddress } from './context';
import { type Erf, type StreetLine } from './geometry';

/** Numbers the erven along their streets, and marks the streets they front as used. */
export function numberHouses(erven: Erf[], lines: StreetLine[]): void {
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
}

/** An address's quality by weight (one table, not one per address: the layout's garbage is its cost). */
const QUALITY_WEIGHTS: readonly (readonly [number, number])[] = [
  [ADDRESS_QUALITY.sv, 35],
  [ADDRESS_QUALITY.vr, 30],
  [ADDRESS_QUALITY.dds, 20],
  [ADDRESS_QUALITY.cnf, 10],
  [20, 5],
];

/** The writer of the erf's address rows (one, or one per unit of an estate), at its house number. */
export function addressWriter(
  { batch, site, name, frame, lines, streetRefs, postalCode, random }: SuburbRows,
  erf: Erf,
  parcelRef: number,
): WriteAddress {
  const line = lines[erf.street];
  const houseNumber = erf.suffixA ? `${erf.number}A` : String(erf.number);
  return (unit, estate, u, v, sourceId) => {
    const ref = batch.addresses.length;
    const quality = random.weighted(QUALITY_WEIGHTS);
    batch.addresses.push([
      houseNumber,
      erf.number,
      streetRefs[erf.street],
      line.name,
      unit,
      estate,
      name,
      site.name,
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
}
