/**
 * Geometries as hex EWKB (SRID 4326): the cheapest form for PostGIS to read (`$::geometry`), and the
 * generator writes millions of them. Coordinates are [lon, lat] pairs in flat arrays
 * ([x0, y0, x1, y1, ...]); rings are closed here, so callers pass each corner once.
 */

const SRID = 4326;
const SRID_FLAG = 0x20000000;
const POINT = 1;
const LINESTRING = 2;
const POLYGON = 3;
const MULTILINESTRING = 5;
const MULTIPOLYGON = 6;

/** One growable buffer reused for every geometry (the hex string is the only allocation per geometry). */
let buffer = Buffer.allocUnsafe(64 * 1024);
let offset = 0;

function ensure(bytes: number): void {
  if (offset + bytes <= buffer.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(buffer.length * 2, offset + bytes));
  buffer.copy(bigger, 0, 0, offset);
  buffer = bigger;
}

function header(type: number, withSrid: boolean): void {
  ensure(9);
  buffer.writeUInt8(1, offset);
  buffer.writeUInt32LE(withSrid ? (type | SRID_FLAG) >>> 0 : type, offset + 1);
  offset += 5;
  if (withSrid) {
    buffer.writeUInt32LE(SRID, offset);
    offset += 4;
  }
}

function uint32(value: number): void {
  ensure(4);
  buffer.writeUInt32LE(value, offset);
  offset += 4;
}

function coordinates(flat: ArrayLike<number>, close: boolean): void {
  const pairs = flat.length / 2;
  const count = close ? pairs + 1 : pairs;
  ensure(4 + count * 16);
  buffer.writeUInt32LE(count, offset);
  offset += 4;
  for (let i = 0; i < flat.length; i += 1) {
    buffer.writeDoubleLE(flat[i], offset);
    offset += 8;
  }
  if (close) {
    buffer.writeDoubleLE(flat[0], offset);
    buffer.writeDoubleLE(flat[1], offset + 8);
    offset += 16;
  }
}

function finish(): string {
  const hex = buffer.toString('hex', 0, offset);
  offset = 0;
  return hex;
}

export function pointHex(lon: number, lat: number): string {
  offset = 0;
  header(POINT, true);
  ensure(16);
  buffer.writeDoubleLE(lon, offset);
  buffer.writeDoubleLE(lat, offset + 8);
  offset += 16;
  return finish();
}

/** A polygon from its rings (outer first), each ring's corners once (closed here). */
export function polygonHex(rings: readonly ArrayLike<number>[]): string {
  offset = 0;
  polygonBody(rings, true);
  return finish();
}

function polygonBody(rings: readonly ArrayLike<number>[], withSrid: boolean): void {
  header(POLYGON, withSrid);
  uint32(rings.length);
  for (const ring of rings) coordinates(ring, true);
}

/** A multipolygon of polygons, each a list of rings (corners once). */
export function multiPolygonHex(polygons: readonly (readonly ArrayLike<number>[])[]): string {
  offset = 0;
  header(MULTIPOLYGON, true);
  uint32(polygons.length);
  for (const rings of polygons) polygonBody(rings, false);
  return finish();
}

/** A multilinestring of open lines. */
export function multiLineStringHex(lines: readonly ArrayLike<number>[]): string {
  offset = 0;
  header(MULTILINESTRING, true);
  uint32(lines.length);
  for (const line of lines) {
    header(LINESTRING, false);
    coordinates(line, false);
  }
  return finish();
}
