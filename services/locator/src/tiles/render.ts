import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { TileLayer } from '@portal/contracts';
import { TILE_EXTENT, TILE_LAYER_DEFINITIONS } from './layers';

/** Deepest tile zoom served (about 4 cm per tile unit); the map over-zooms beyond its native zoom. */
export const MAX_TILE_ZOOM = 22;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Web Mercator's latitude limit: the square world of the XYZ scheme. */
const MAX_LATITUDE = 85.0511287798066;

/**
 * The tile's box in degrees, grown by `buffer` tile units on each side (clamped to the world), which
 * is the box rows are read from: an index-only test on the 4326 geometries, no transform of the table.
 */
export function tileBoundsDegrees({ z, x, y }: TileAddress, buffer = 0): [number, number, number, number] {
  const tiles = 2 ** z;
  const margin = buffer / TILE_EXTENT;
  const lng = (tileX: number) => Math.min(180, Math.max(-180, (tileX / tiles) * 360 - 180));
  const lat = (tileY: number) => {
    const clamped = Math.min(tiles, Math.max(0, tileY));
    const degrees = (Math.atan(Math.sinh(Math.PI * (1 - (2 * clamped) / tiles))) * 180) / Math.PI;
    return Math.min(MAX_LATITUDE, Math.max(-MAX_LATITUDE, degrees));
  };
  return [lng(x - margin), lat(y + 1 + margin), lng(x + 1 + margin), lat(y - margin)];
}

/** The tile's protobuf bytes, or null when no feature falls in it. */
export async function renderTile(
  ds: DataSource,
  layer: TileLayer,
  tile: TileAddress,
): Promise<Buffer | null> {
  const definition = TILE_LAYER_DEFINITIONS[layer];
  if (tile.z < definition.minZoom) return null;
  const statement = definition.statement(tile.z);
  if (!statement) return null;
  const rows: { tile: Buffer | null }[] = await ds.query(statement.sql, [
    tile.z,
    tile.x,
    tile.y,
    ...tileBoundsDegrees(tile, definition.buffer),
    ...statement.params,
  ]);
  const bytes = rows[0]?.tile;
  return bytes && bytes.length > 0 ? bytes : null;
}

/** A strong ETag from the tile's content: equal bytes, equal tag, whatever changed in between. */
export function tileEtag(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

/** True when an If-None-Match header (a list, maybe weak, maybe `*`) names `etag`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === etag);
}
