/**
 * What every part of a town's layout reads: the run's context for the town and what follows from it (its
 * frame, name, importance and SG region).
 */
import { importanceOfPopulation } from '../../reference/south-africa';
import { type Batch } from '../batch';
import { type SuburbStyle } from '../names';
import { type Random } from '../random';
import { frameAt, type LocalFrame, type TownPlan } from '../world';
import { type Erf, type Rect, type StreetLine, type SuburbFrame } from './geometry';
import { type Life } from './life';

/** Side of a suburb cell, metres. */
export const CELL_M = 1000;

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

/** A laid-out cell's centre in the town's frame (metres). */
export interface Cell {
  x: number;
  y: number;
}

/** The town being laid out, as its parts see it. */
export interface TownSite {
  readonly context: TownContext;
  readonly frame: LocalFrame;
  /** The town's GeoNames id: part of every source_id and random stream of the town. */
  readonly id: number;
  readonly name: string;
  readonly importance: number;
  /** SG major region of the town's erven (4 digits). */
  readonly sgMajor: string;
  /** The cells the town's suburbs were laid out on, so far. */
  readonly accepted: Cell[];
}

export function townSite(context: TownContext): TownSite {
  const { town } = context.plan;
  return {
    context,
    frame: frameAt(town.lon, town.lat),
    id: town.geonameId,
    name: town.name,
    importance: importanceOfPopulation(town.population),
    sgMajor: pad(((context.plan.provinceRank + 1) * 10) % 10000, 4),
    accepted: [],
  };
}

export const pad = (value: number, length: number) => String(value).padStart(length, '0');

/** A suburb while its rows are written: what the writers of its erven share. */
export interface SuburbRows {
  batch: Batch;
  site: TownSite;
  index: number;
  name: string;
  style: SuburbStyle;
  frame: SuburbFrame;
  lines: StreetLine[];
  /** Each street line's row in the batch (-1: no erf fronts it, not written). */
  streetRefs: number[];
  postalCode: string;
  random: Random;
}

/** Writes an address row of the erf; answers its row in the batch. */
export type WriteAddress = (
  unit: string | null,
  estate: string | null,
  u: number,
  v: number,
  sourceId: string,
) => number;

/** Writes a building row on the erf (n numbers the erf's buildings), with its life when it has one. */
export type WriteBuilding = (
  rect: Rect,
  kind: string,
  levels: number,
  roof: string,
  n: number,
  height?: number,
  life?: Life,
) => void;

/** One erf while its rows are written: its parcel is written, its address and buildings are written through these. */
export interface ErfRows {
  erf: Erf;
  /** `<town id>:<erf number>`, the heart of its rows' source ids. */
  key: string;
  parcelRef: number;
  address: WriteAddress;
  building: WriteBuilding;
}
