/**
 * A suburb's streets: its rectangle inside its cell, the street grid on it (long streets every two erf
 * depths and a road, cross streets at varied block lengths), their names, and the street rows of the
 * lines erven front.
 */
import { streetSearchText } from '../../text';
import { GENERATOR_SOURCE } from '../batch';
import { multiLineStringEwkb } from '../ewkb';
import { ordinal, type SuburbStyle } from '../names';
import { type Random } from '../random';
import { type LocalFrame } from '../world';
import { type Cell, CELL_M, type SuburbRows } from './context';
import { type StreetLine, SuburbFrame } from './geometry';
import { type TownNames } from './naming';
import { type StyleParameters } from './styles';

export interface StreetGrid {
  frame: SuburbFrame;
  /** Rows of blocks between the long streets. */
  rows: number;
  /** Where the long streets run (v) and the cross streets (u), road centre lines. */
  longV: number[];
  crossU: number[];
}

/** The suburb's rectangle and street grid, on the cell centred at `cell` of the town's frame. */
export function layOutStreetGrid(
  random: Random,
  town: LocalFrame,
  cell: Cell,
  parameters: StyleParameters,
  erfDepth: number,
): StreetGrid {
  const road = parameters.road;
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
    town,
    cell.x + random.range(-slackX, slackX),
    cell.y + random.range(-slackY, slackY),
    w,
    h,
    theta,
  );
  return { frame, rows, longV, crossU };
}

/** The grid's street lines, named: the long streets first (index k), then the cross streets (crossBase + j). */
export function nameStreets(
  names: TownNames,
  random: Random,
  style: SuburbStyle,
  { rows, longV, crossU }: StreetGrid,
): { lines: StreetLine[]; crossBase: number } {
  // Street names: long streets first, then cross streets (numbered avenues in some suburbs).
  const taken = new Set<string>();
  const numberedAvenues = style !== 'central' && style !== 'township' && random.chance(0.1);
  const lines: StreetLine[] = [];
  longV.forEach((v, k) =>
    lines.push({
      name: names.streetName(random, k === 0 || k === rows, taken),
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
        : names.streetName(random, j === 0 || j === crossU.length - 1, taken),
      u0: u,
      v0: longV[0],
      u1: u,
      v1: longV[longV.length - 1],
      used: false,
    }),
  );
  return { lines, crossBase };
}

/** Writes the street rows of the lines erven front; answers each line's row (-1 for an unused line). */
export function writeStreets(
  { batch, site, index, name, style, frame, lines }: Omit<SuburbRows, 'streetRefs' | 'postalCode'>,
  suburbRef: number,
): number[] {
  const { context, id, importance } = site;
  const townName = site.name;
  return lines.map((line, i) => {
    if (!line.used) return -1;
    const ref = batch.streets.length;
    batch.streets.push([
      line.name,
      suburbRef,
      context.townId,
      name,
      townName,
      importance * (style === 'central' ? 0.9 : 0.7),
      streetSearchText(line.name, name, townName),
      multiLineStringEwkb([
        [
          frame.lon(line.u0, line.v0),
          frame.lat(line.u0, line.v0),
          frame.lon(line.u1, line.v1),
          frame.lat(line.u1, line.v1),
        ],
      ]),
      GENERATOR_SOURCE,
      `street:${id}:${index}:${i}`,
    ]);
    return ref;
  });
}
