/**
 * A suburb's geometry: its frame (metres along u, its long streets, and v, across; turned and moved into
 * the town's frame, then into degrees), its street lines and its erven, and rectangles inside an erf.
 */
import { type Ewkb, pointEwkb, quadEwkb } from '../ewkb';
import { type PoiCategory } from '../names';
import { type LocalFrame, toLat, toLon } from '../world';

/** A rectangle in a suburb's frame: [u0, v0, u1, v1]. */
export type Rect = [number, number, number, number];

export type ErfKind = 'house' | 'estate' | 'poi';
export type Front = 'S' | 'N' | 'W' | 'E';

export interface Erf {
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

export interface StreetLine {
  name: string;
  /** Suburb-frame end points. */
  u0: number;
  v0: number;
  u1: number;
  v1: number;
  used: boolean;
}

/** A rectangle's placement: turned by theta about the suburb's centre, which sits at (cx, cy) in the town frame. */
export class SuburbFrame {
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

  point(u: number, v: number): Ewkb {
    return pointEwkb(this.lon(u, v), this.lat(u, v));
  }

  /** A rectangle as a polygon: its corners as rect() lists them. */
  rectPolygon(u0: number, v0: number, u1: number, v1: number): Ewkb {
    return this.quad(false, u0, v0, u1, v1);
  }

  /** A rectangle as a multipolygon of one polygon. */
  rectMultiPolygon(u0: number, v0: number, u1: number, v1: number): Ewkb {
    return this.quad(true, u0, v0, u1, v1);
  }

  private quad(multi: boolean, u0: number, v0: number, u1: number, v1: number): Ewkb {
    return quadEwkb(
      multi,
      this.lon(u0, v0),
      this.lat(u0, v0),
      this.lon(u1, v0),
      this.lat(u1, v0),
      this.lon(u1, v1),
      this.lat(u1, v1),
      this.lon(u0, v1),
      this.lat(u0, v1),
    );
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
export function inErf(erf: Erf, a0: number, a1: number, d0: number, d1: number): Rect {
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

export const frontage = (erf: Erf) =>
  erf.front === 'S' || erf.front === 'N' ? erf.u1 - erf.u0 : erf.v1 - erf.v0;
export const depth = (erf: Erf) =>
  erf.front === 'S' || erf.front === 'N' ? erf.v1 - erf.v0 : erf.u1 - erf.u0;

export function centre([u0, v0, u1, v1]: Rect): [number, number] {
  return [(u0 + u1) / 2, (v0 + v1) / 2];
}
