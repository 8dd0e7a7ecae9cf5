/**
 * Geometries as EWKB (SRID 4326), the cheapest form for PostGIS to read, and the generator writes millions
 * of them. Coordinates are [lon, lat] pairs in flat arrays ([x0, y0, x1, y1, ...]); rings are closed here,
 * so callers pass each corner once.
 *
 * Two forms: hex strings (`pointHex`...: what the importers and the reference data send as text), and
 * `Ewkb` values (`point`...: the generator's rows), the bytes written once into a shared slab and kept
 * there. A geometry as a 200-character hex string was the largest part of the layout's garbage, and the
 * bulk path's binary COPY sends the bytes as they are; the upsert path and JSON see the hex (toPostgres,
 * toJSON).
 */

const SRID = 4326;
const SRID_FLAG = 0x20000000;
const POINT = 1;
const LINESTRING = 2;
const POLYGON = 3;
const MULTILINESTRING = 5;
const MULTIPOLYGON = 6;

/**
 * Where geometries are written: `buffer` from `start` (the geometry being written) to `offset`. Ewkb values
 * keep their slab; a slab that fills up is left to them and a new one taken (the geometry written so far
 * moved over). The hex functions write at the slab's free end too and give the space back.
 */
const SLAB_BYTES = 256 * 1024;
let buffer = Buffer.allocUnsafe(SLAB_BYTES);
// Numbers go through a DataView: Buffer's writeDoubleLE and the like check their arguments on every call.
let view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
let start = 0;
let offset = 0;

function ensure(bytes: number): void {
  if (offset + bytes <= buffer.length) return;
  const written = offset - start;
  const slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, 2 * (written + bytes)));
  buffer.copy(slab, 0, start, offset);
  buffer = slab;
  view = new DataView(slab.buffer, slab.byteOffset, slab.byteLength);
  start = 0;
  offset = written;
}

function begin(): void {
  start = offset;
}

/** A geometry's EWKB bytes, where they were written (a slab shared with other geometries). */
export class Ewkb {
  constructor(
    readonly slab: Buffer,
    readonly start: number,
    readonly end: number,
  ) {}

  get byteLength(): number {
    return this.end - this.start;
  }

  /** The bytes (a view of the slab). */
  get bytes(): Buffer {
    return this.slab.subarray(this.start, this.end);
  }

  toHex(): string {
    return this.slab.toString('hex', this.start, this.end);
  }

  /** node-postgres sends a value with toPostgres() as its answer: hex EWKB, which `::geometry` reads. */
  toPostgres(): string {
    return this.toHex();
  }

  /** Rows hashed or compared as JSON (the fingerprint test) see the hex, as before. */
  toJSON(): string {
    return this.toHex();
  }
}

/** The geometry just written, kept in its slab. */
function keep(): Ewkb {
  return new Ewkb(buffer, start, offset);
}

function header(type: number, withSrid: boolean): void {
  ensure(9);
  buffer[offset] = 1;
  view.setUint32(offset + 1, withSrid ? (type | SRID_FLAG) >>> 0 : type, true);
  offset += 5;
  if (withSrid) {
    view.setUint32(offset, SRID, true);
    offset += 4;
  }
}

function uint32(value: number): void {
  ensure(4);
  view.setUint32(offset, value, true);
  offset += 4;
}

function coordinates(flat: ArrayLike<number>, close: boolean): void {
  const pairs = flat.length / 2;
  const count = close ? pairs + 1 : pairs;
  ensure(4 + count * 16);
  view.setUint32(offset, count, true);
  offset += 4;
  for (let i = 0; i < flat.length; i += 1) {
    view.setFloat64(offset, flat[i], true);
    offset += 8;
  }
  if (close) {
    view.setFloat64(offset, flat[0], true);
    view.setFloat64(offset + 8, flat[1], true);
    offset += 16;
  }
}

/** The geometry just written as hex; its space is given back. */
function finish(): string {
  const hex = buffer.toString('hex', start, offset);
  offset = start;
  return hex;
}

function pointBody(lon: number, lat: number): void {
  header(POINT, true);
  ensure(16);
  view.setFloat64(offset, lon, true);
  view.setFloat64(offset + 8, lat, true);
  offset += 16;
}

function polygonBody(rings: readonly ArrayLike<number>[], withSrid: boolean): void {
  header(POLYGON, withSrid);
  uint32(rings.length);
  for (const ring of rings) coordinates(ring, true);
}

function multiPolygonBody(polygons: readonly (readonly ArrayLike<number>[])[]): void {
  header(MULTIPOLYGON, true);
  uint32(polygons.length);
  for (const rings of polygons) polygonBody(rings, false);
}

function multiLineStringBody(lines: readonly ArrayLike<number>[]): void {
  header(MULTILINESTRING, true);
  uint32(lines.length);
  for (const line of lines) {
    header(LINESTRING, false);
    coordinates(line, false);
  }
}

export function pointHex(lon: number, lat: number): string {
  begin();
  pointBody(lon, lat);
  return finish();
}

/** A polygon from its rings (outer first), each ring's corners once (closed here). */
export function polygonHex(rings: readonly ArrayLike<number>[]): string {
  begin();
  polygonBody(rings, true);
  return finish();
}

/** A multipolygon of polygons, each a list of rings (corners once). */
export function multiPolygonHex(polygons: readonly (readonly ArrayLike<number>[])[]): string {
  begin();
  multiPolygonBody(polygons);
  return finish();
}

/** A multilinestring of open lines. */
export function multiLineStringHex(lines: readonly ArrayLike<number>[]): string {
  begin();
  multiLineStringBody(lines);
  return finish();
}

/** The same geometries as Ewkb values (the generator's rows). */
export function pointEwkb(lon: number, lat: number): Ewkb {
  begin();
  pointBody(lon, lat);
  return keep();
}

export function polygonEwkb(rings: readonly ArrayLike<number>[]): Ewkb {
  begin();
  polygonBody(rings, true);
  return keep();
}

export function multiPolygonEwkb(polygons: readonly (readonly ArrayLike<number>[])[]): Ewkb {
  begin();
  multiPolygonBody(polygons);
  return keep();
}

export function multiLineStringEwkb(lines: readonly ArrayLike<number>[]): Ewkb {
  begin();
  multiLineStringBody(lines);
  return keep();
}

/**
 * A polygon of one ring of four corners (a rectangle turned into degrees), as polygonEwkb([[x0, y0, ... y3]])
 * writes it — or, `multi`, a multipolygon of that one polygon (multiPolygonEwkb([[[x0, ... y3]]])) —
 * without the arrays: rectangles are most of the generator's geometries (erven, buildings).
 */
export function quadEwkb(
  multi: boolean,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
): Ewkb {
  begin();
  if (multi) {
    header(MULTIPOLYGON, true);
    uint32(1);
  }
  header(POLYGON, !multi);
  quadRing(x0, y0, x1, y1, x2, y2, x3, y3);
  return keep();
}

/** One ring (the ring count first) of four corners, closed. */
function quadRing(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
): void {
  ensure(8 + 5 * 16);
  view.setUint32(offset, 1, true);
  view.setUint32(offset + 4, 5, true);
  view.setFloat64(offset + 8, x0, true);
  view.setFloat64(offset + 16, y0, true);
  view.setFloat64(offset + 24, x1, true);
  view.setFloat64(offset + 32, y1, true);
  view.setFloat64(offset + 40, x2, true);
  view.setFloat64(offset + 48, y2, true);
  view.setFloat64(offset + 56, x3, true);
  view.setFloat64(offset + 64, y3, true);
  view.setFloat64(offset + 72, x0, true);
  view.setFloat64(offset + 80, y0, true);
  offset += 88;
}
