import { type Queryable } from '../load/upsert';
import { isInSouthAfrica } from './bounds';

/**
 * Checks of input geometries before they are written. The structural checks run here (cheap, and they keep
 * one malformed feature from failing a whole batch statement); validity (self-intersections, spikes) is
 * PostGIS's ST_IsValid, run per batch by repairPolygons.
 */
export type PolygonCheck =
  { ok: true; geojson: string; polygons: Position[][][] } | { ok: false; reason: string };
export type PointCheck = { ok: true; lon: number; lat: number } | { ok: false; reason: string };

export type Position = [number, number];

function position(value: unknown): Position | undefined {
  if (!Array.isArray(value) || value.length < 2) return undefined;
  const [lon, lat] = value;
  if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat)) {
    return undefined;
  }
  return [lon, lat];
}

/** A ring as 2-D positions, or why not. */
function ring(value: unknown): Position[] | string {
  if (!Array.isArray(value)) return 'malformed coordinates';
  const positions: Position[] = [];
  for (const item of value) {
    const p = position(item);
    if (!p) return 'malformed coordinates';
    positions.push(p);
  }
  if (positions.length < 4) return 'polygon ring with fewer than 4 positions';
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) return 'polygon ring not closed';
  return positions;
}

function polygon(value: unknown): Position[][] | string {
  if (!Array.isArray(value) || value.length === 0) return 'malformed coordinates';
  const rings: Position[][] = [];
  for (const item of value) {
    const checked = ring(item);
    if (typeof checked === 'string') return checked;
    rings.push(checked);
  }
  return rings;
}

/**
 * A GeoJSON Polygon or MultiPolygon, well formed (numbers, closed rings of at least 4 positions) and inside
 * South Africa, as 2-D GeoJSON text (a Z or M value is dropped: the columns are 2-D).
 */
export function checkPolygonal(geometry: unknown): PolygonCheck {
  if (!geometry || typeof geometry !== 'object') return { ok: false, reason: 'missing geometry' };
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  let polygons: Position[][][];
  if (type === 'Polygon') {
    const checked = polygon(coordinates);
    if (typeof checked === 'string') return { ok: false, reason: checked };
    polygons = [checked];
  } else if (type === 'MultiPolygon') {
    if (!Array.isArray(coordinates) || coordinates.length === 0)
      return { ok: false, reason: 'malformed coordinates' };
    polygons = [];
    for (const item of coordinates) {
      const checked = polygon(item);
      if (typeof checked === 'string') return { ok: false, reason: checked };
      polygons.push(checked);
    }
  } else {
    return { ok: false, reason: `geometry is a ${String(type)}, not a Polygon or MultiPolygon` };
  }
  for (const rings of polygons) {
    for (const positions of rings) {
      for (const [lon, lat] of positions) {
        if (!isInSouthAfrica(lon, lat)) return { ok: false, reason: 'outside South Africa' };
      }
    }
  }
  return {
    ok: true,
    polygons,
    // Written only when asked for: a bulk OSM load sends the polygons as EWKB and never reads it.
    get geojson() {
      return JSON.stringify(
        polygons.length === 1 && type === 'Polygon'
          ? { type: 'Polygon', coordinates: polygons[0] }
          : { type: 'MultiPolygon', coordinates: polygons },
      );
    },
  };
}

/** A GeoJSON Point inside South Africa. */
export function checkPoint(geometry: unknown): PointCheck {
  if (!geometry || typeof geometry !== 'object') return { ok: false, reason: 'missing geometry' };
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type !== 'Point') return { ok: false, reason: `geometry is a ${String(type)}, not a Point` };
  const p = position(coordinates);
  if (!p) return { ok: false, reason: 'malformed coordinates' };
  return checkLonLat(p[0], p[1]);
}

/** Coordinates given as numbers (CSV columns, OSM nodes) inside South Africa. */
export function checkLonLat(lon: number | undefined, lat: number | undefined): PointCheck {
  if (lon === undefined || lat === undefined) return { ok: false, reason: 'no coordinates' };
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    return { ok: false, reason: 'coordinates are not numbers in degrees' };
  }
  if (!isInSouthAfrica(lon, lat)) return { ok: false, reason: 'outside South Africa' };
  return { ok: true, lon, lat };
}

/** GeoJSON text of a point (what GEOMETRY.point expects). */
export function pointGeoJson(lon: number, lat: number): string {
  return `{"type":"Point","coordinates":[${lon},${lat}]}`;
}

export type PolygonShape = 'polygon' | 'multipolygon';
export interface PolygonVerdict {
  /** PostGIS's reason without the location ("Self-intersection", "Ring Self-intersection"...). */
  reason: string;
  /** The geometry made valid (GeoJSON text), or undefined when nothing polygonal is left of it. */
  repaired?: string;
}

/**
 * SQL for what ST_MakeValid leaves of an invalid polygon (`geom`, an SQL expression): its polygonal part, and
 * for a single-polygon column its largest polygon (NULL or empty when nothing polygonal is left).
 */
export function repairedPolygonSql(geom: string, shape: PolygonShape): string {
  return shape === 'multipolygon'
    ? `ST_Multi(ST_CollectionExtract(ST_MakeValid(${geom}), 3))`
    : `(SELECT d.geom FROM ST_Dump(ST_CollectionExtract(ST_MakeValid(${geom}), 3)) d ORDER BY ST_Area(d.geom) DESC LIMIT 1)`;
}

/**
 * ST_IsValid over a batch of polygon GeoJSON texts (well formed: checkPolygonal passed). Answers only the
 * invalid ones, by index, each with its ST_MakeValid repair: the polygonal part of the result, and for a
 * single-polygon column its largest polygon.
 */
export async function repairPolygons(
  db: Queryable,
  geometries: readonly string[],
  shape: PolygonShape,
): Promise<Map<number, PolygonVerdict>> {
  const verdicts = new Map<number, PolygonVerdict>();
  if (!geometries.length) return verdicts;
  const repaired = repairedPolygonSql('c.geom', shape);
  const rows: { i: number; reason: string; repaired: string | null }[] = await db.query(
    `SELECT c.i::int AS i, (c.detail).reason AS reason,
            CASE WHEN ST_IsEmpty(r.geom) THEN NULL ELSE ST_AsGeoJSON(r.geom) END AS repaired
     FROM (
       SELECT u.i, g.geom, ST_IsValidDetail(g.geom) AS detail
       FROM unnest($1::text[]) WITH ORDINALITY AS u(text, i)
       CROSS JOIN LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(u.text), 4326) AS geom) g
     ) c
     CROSS JOIN LATERAL (SELECT ${repaired} AS geom) r
     WHERE NOT (c.detail).valid`,
    [geometries],
  );
  for (const row of rows) {
    verdicts.set(row.i - 1, {
      reason: (row.reason || 'invalid').replace(/\s*\[.*$/, ''),
      repaired: row.repaired ?? undefined,
    });
  }
  return verdicts;
}
