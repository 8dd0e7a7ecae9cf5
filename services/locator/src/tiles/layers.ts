import type { TileLayer } from '@portal/contracts';

/**
 * What each vector tile layer holds at which zoom (z is the tile's zoom; a 512-pixel client grid asks
 * for tiles one zoom below its view zoom, so a map at view zoom 15 shows z14 tiles).
 *
 * Every statement reads EPSG:4326 rows through their GiST index with `geom && <tile box in 4326>` and
 * transforms only those rows to Web Mercator for ST_AsMVTGeom. Parameters: $1 z, $2 x, $3 y, then the
 * tile box in degrees (grown by the buffer) $4 west, $5 south, $6 east, $7 north, then the layer's own.
 */

/** Tile coordinate space (MVT default). */
export const TILE_EXTENT = 4096;
/** Tile units drawn beyond each edge, so lines and polygons join without seams at tile borders. */
export const GEOMETRY_BUFFER = 64;
/** Labels need more room than lines: a place just outside the tile still has its label drawn in it. */
export const LABEL_BUFFER = 256;

export interface TileLayerDefinition {
  /** Lowest tile zoom with content; below it the tile is empty (204) without asking the database. */
  minZoom: number;
  /** Buffer in tile units, also how far the box the rows are read from reaches beyond the tile. */
  buffer: number;
  /** The statement for a tile at zoom z, and its extra parameters (after $7), or null for an empty tile. */
  statement(z: number): { sql: string; params: unknown[] } | null;
}

const tileBox = 'ST_MakeEnvelope($4, $5, $6, $7, 4326)';
const mvtGeom = (column: string, buffer: number) =>
  `ST_AsMVTGeom(ST_Transform(${column}, 3857), ST_TileEnvelope($1, $2, $3), ${TILE_EXTENT}, ${buffer}, true)`;

/**
 * Wraps a feature query (a `geom` column, a bigint `fid`, attributes) into one MVT layer. The row id
 * travels as the MVT feature id (OpenLayers: feature.getId()), not again as an attribute: on a dense
 * parcel tile every attribute costs bytes and encoding time. Rows whose
 * geometry ST_AsMVTGeom dropped (NULL: outside the buffer, or too small to draw) are skipped by
 * ST_AsMVT itself; filtering them here would make PostgreSQL compute every ST_AsMVTGeom twice.
 */
const asMvt = (layer: TileLayer, features: string) => `
  SELECT ST_AsMVT(features, '${layer}', ${TILE_EXTENT}, 'geom', 'fid') AS tile
  FROM (${features}) AS features`;

/**
 * Which places are labelled at a zoom, and at most how many per tile (the most important first), so a
 * tile over Gauteng at zoom 7 carries the big towns, not every suburb.
 */
export function placeKindsAt(z: number): { kinds: string[]; limit: number } {
  if (z <= 3) return { kinds: ['country'], limit: 5 };
  if (z <= 5) return { kinds: ['country', 'province'], limit: 20 };
  if (z <= 7) return { kinds: ['province', 'town'], limit: 25 };
  if (z <= 9) return { kinds: ['town'], limit: 60 };
  if (z <= 11) return { kinds: ['town'], limit: 150 };
  return { kinds: ['town', 'suburb'], limit: 300 };
}

export const TILE_LAYER_DEFINITIONS: Record<TileLayer, TileLayerDefinition> = {
  places: {
    minZoom: 0,
    buffer: LABEL_BUFFER,
    statement(z) {
      const { kinds, limit } = placeKindsAt(z);
      return {
        sql: asMvt(
          'places',
          `SELECT ${mvtGeom('p.point', LABEL_BUFFER)} AS geom, p.id AS fid, p.name, p.kind,
                  p.population, round(p.importance::numeric, 3)::float8 AS importance
           FROM geo.places p
           WHERE p.point && ${tileBox} AND p.kind = ANY($8::text[])
           ORDER BY p.importance DESC, p.population DESC, p.id
           LIMIT $9`,
        ),
        params: [kinds, limit],
      };
    },
  },
  roads: {
    minZoom: 11,
    buffer: GEOMETRY_BUFFER,
    statement: () => ({
      sql: asMvt(
        'roads',
        `SELECT ${mvtGeom('s.geom', GEOMETRY_BUFFER)} AS geom, s.id AS fid, s.name,
                round(s.importance::numeric, 3)::float8 AS importance
         FROM geo.streets s
         WHERE s.geom && ${tileBox}`,
      ),
      params: [],
    }),
  },
  parcels: {
    minZoom: 14,
    buffer: GEOMETRY_BUFFER,
    statement: () => ({
      sql: asMvt(
        'parcels',
        `SELECT ${mvtGeom('p.geom', GEOMETRY_BUFFER)} AS geom, p.id AS fid, p.parcel_number, p.portion
         FROM geo.parcels p
         WHERE p.geom && ${tileBox}`,
      ),
      params: [],
    }),
  },
  addresses: {
    minZoom: 16,
    buffer: LABEL_BUFFER,
    statement: () => ({
      sql: asMvt(
        'addresses',
        `SELECT ${mvtGeom('a.point', LABEL_BUFFER)} AS geom, a.id AS fid, a.house_number,
                a.street_name
         FROM geo.addresses a
         WHERE a.point && ${tileBox}`,
      ),
      params: [],
    }),
  },
};
