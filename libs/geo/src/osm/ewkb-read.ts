/**
 * Reads the generator's geometries back (hex EWKB, little or big endian, with or without SRID; see
 * generator/ewkb.ts for the writing side) as flat [lon, lat, lon, lat, ...] coordinate arrays, so the OSM
 * export can turn the generated rows into nodes and ways without PostGIS.
 */

const POINT = 1;
const LINESTRING = 2;
const POLYGON = 3;
const MULTIPOINT = 4;
const MULTILINESTRING = 5;
const MULTIPOLYGON = 6;
const SRID_FLAG = 0x20000000;

/** A point, line or ring as [x0, y0, x1, y1, ...] (rings closed, as WKB has them). */
export type FlatCoordinates = Float64Array;

export interface DecodedGeometry {
  type: 'Point' | 'LineString' | 'Polygon' | 'MultiPoint' | 'MultiLineString' | 'MultiPolygon';
  /** Point: [[x, y]]; LineString: [line]; Polygon: its rings; Multi*: their parts' sequences, flattened. */
  parts: FlatCoordinates[];
  /** For MultiPolygon: the number of rings of each polygon (parts holds them in order). */
  ringsPerPolygon?: number[];
}

class Reader {
  private offset = 0;
  private little = true;
  constructor(private readonly bytes: Buffer) {}

  byteOrder(): void {
    this.little = this.bytes.readUInt8(this.offset++) === 1;
  }
  uint32(): number {
    const value = this.little ? this.bytes.readUInt32LE(this.offset) : this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  coordinates(pairs: number): FlatCoordinates {
    const out = new Float64Array(pairs * 2);
    for (let i = 0; i < out.length; i++) {
      out[i] = this.little ? this.bytes.readDoubleLE(this.offset) : this.bytes.readDoubleBE(this.offset);
      this.offset += 8;
    }
    return out;
  }
  /** A geometry's header: its type, after the SRID when it has one. */
  header(): number {
    this.byteOrder();
    const raw = this.uint32();
    if (raw & SRID_FLAG) this.uint32();
    return raw & 0xffff;
  }
}

const NAMES: Record<number, DecodedGeometry['type']> = {
  [POINT]: 'Point',
  [LINESTRING]: 'LineString',
  [POLYGON]: 'Polygon',
  [MULTIPOINT]: 'MultiPoint',
  [MULTILINESTRING]: 'MultiLineString',
  [MULTIPOLYGON]: 'MultiPolygon',
};

function body(reader: Reader, type: number, parts: FlatCoordinates[], rings?: number[]): void {
  switch (type) {
    case POINT:
      parts.push(reader.coordinates(1));
      return;
    case LINESTRING:
      parts.push(reader.coordinates(reader.uint32()));
      return;
    case POLYGON: {
      const count = reader.uint32();
      for (let i = 0; i < count; i++) parts.push(reader.coordinates(reader.uint32()));
      rings?.push(count);
      return;
    }
    case MULTIPOINT:
    case MULTILINESTRING:
    case MULTIPOLYGON: {
      const count = reader.uint32();
      for (let i = 0; i < count; i++) body(reader, reader.header(), parts, rings);
      return;
    }
    default:
      throw new Error(`EWKB: geometry type ${type} is not read here`);
  }
}

/** Decodes hex EWKB (the generator's rows) or WKB bytes. */
export function readEwkb(geometry: string | Uint8Array): DecodedGeometry {
  const bytes =
    typeof geometry === 'string'
      ? Buffer.from(geometry, 'hex')
      : Buffer.from(geometry.buffer, geometry.byteOffset, geometry.byteLength);
  const reader = new Reader(bytes);
  const type = reader.header();
  if (!NAMES[type]) throw new Error(`EWKB: geometry type ${type} is not read here`);
  const parts: FlatCoordinates[] = [];
  const rings = type === MULTIPOLYGON ? [] : undefined;
  body(reader, type, parts, rings);
  return { type: NAMES[type], parts, ringsPerPolygon: rings };
}
