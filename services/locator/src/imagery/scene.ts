import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Survey } from '@portal/contracts';
import { formatSaIsoDate } from '@portal/domain';
import type { GeoPoint } from './location';
import { footprintAt, standingAt } from './surveys';

/** Positions in metres east and north of the scene's centre (a local flat frame; fine over ~200 m). */
export type LocalPoint = [east: number, north: number];
export type LocalRing = LocalPoint[];

export interface SceneBuilding {
  id: string;
  /** Outer ring, counter-clockwise, not closed (the last point is not the first repeated). */
  footprint: LocalRing;
  heightM: number;
  roof: 'flat' | 'pitched';
  /** geo.buildings kind: 'pool' is drawn as water on the ground, anything else as a building. */
  kind: string;
}

export interface SceneParcel {
  id: string;
  rings: LocalRing[];
  /** The parcel under the location (outlined in the image). */
  here: boolean;
}

export interface Scene {
  centre: GeoPoint;
  parcels: SceneParcel[];
  /** Street surfaces: the centre lines buffered by half a carriageway, as polygons. */
  roads: LocalRing[][];
  buildings: SceneBuilding[];
  /** The survey drawn: its capture date decides the buildings and is printed; null draws today's. */
  survey: Survey | null;
}

/** Half the side of the square read around the location: the views show ~110 m, tall blocks reach in. */
export const SCENE_RADIUS_M = 90;
/** Half a two-lane carriageway. */
const ROAD_HALF_WIDTH_M = 4;
/** Bump when the drawing changes: every stored image is then re-rendered on its next request. */
export const RENDERER_VERSION = 2;

const METRES_PER_DEGREE_LAT = 110_574;
const metresPerDegreeLng = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);

type GeoJsonGeometry =
  { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

interface SceneRow {
  buildings: {
    id: string;
    kind: string;
    height_m: number;
    levels: number;
    roof: string;
    geom: GeoJsonGeometry;
  }[];
  parcels: { id: string; here: boolean; geom: GeoJsonGeometry }[];
  roads: { geom: GeoJsonGeometry }[];
}

/** A box in degrees: west, south, east, north. */
export type DegreeBox = [west: number, south: number, east: number, north: number];

export interface SceneArea {
  /** What is read: rows whose bounding box meets it. */
  box: DegreeBox;
  /** Origin of the scene's local frame (metres east and north of it). */
  centre: GeoPoint;
  /** The point whose parcel is marked as `here`, or null to mark none. */
  here: GeoPoint | null;
  /** How far beyond the box (degrees) long parcels and streets are cut, so none ends visibly inside it. */
  cutMargin: number;
}

/** Metres east and north a box spans, measured in the local frame of a scene centred on it. */
export function boxExtentM([west, south, east, north]: DegreeBox): { widthM: number; heightM: number } {
  const centreLat = (south + north) / 2;
  return {
    widthM: (east - west) * metresPerDegreeLng(centreLat),
    heightM: (north - south) * METRES_PER_DEGREE_LAT,
  };
}

/** The square of SCENE_RADIUS_M around a point, in degrees: what a picture of it reads. */
export function sceneBox(centre: GeoPoint): DegreeBox {
  const dLat = SCENE_RADIUS_M / METRES_PER_DEGREE_LAT;
  const dLng = SCENE_RADIUS_M / metresPerDegreeLng(centre.lat);
  return [centre.lng - dLng, centre.lat - dLat, centre.lng + dLng, centre.lat + dLat];
}

/**
 * Reads what is drawn around `centre` in one statement: building footprints as they stood at the
 * survey's capture date (today's without a survey), parcel outlines (noting the one under the point) and
 * street surfaces (buffered in metres on the geography), all through the GiST indexes with a box of
 * SCENE_RADIUS_M.
 */
export async function loadScene(ds: DataSource, centre: GeoPoint, survey: Survey | null): Promise<Scene> {
  return loadSceneArea(ds, pictureArea(centre), survey);
}

/** The date whose buildings a scene of `survey` draws: its capture date, or today in South Africa. */
const dateOf = (survey: Survey | null) => survey?.capturedOn ?? formatSaIsoDate(new Date());

/** The area loadScene reads around a point. */
export const pictureArea = (centre: GeoPoint): SceneArea => ({
  box: sceneBox(centre),
  centre,
  here: centre,
  // Cut long parcels (farms) and streets a little beyond the box, so they stay small but never end
  // visibly inside the picture.
  cutMargin: SCENE_RADIUS_M / METRES_PER_DEGREE_LAT,
});

export interface SceneFingerprint {
  /**
   * A hash of the rows a scene of the area draws (buildings standing at the date with their footprints
   * then, parcels, streets), of the survey printed and of the renderer's version: pictures are stored
   * under it, so new or changed data around a location makes a new picture instead of serving a stale one.
   */
  fingerprint: string;
  /** Nothing to draw there (sea, no data). */
  empty: boolean;
}

/**
 * The fingerprint of a scene without reading it: the rows' ids, attributes and binary geometries hashed
 * by PostgreSQL (md5) through the same GiST look-ups, a fifth of loadScene's time (no buffers, cuts or
 * GeoJSON). A stored picture is found with it alone; the scene is read only to draw a new one.
 */
export async function sceneFingerprint(
  ds: DataSource,
  area: SceneArea,
  survey: Survey | null,
): Promise<SceneFingerprint> {
  const [row] = (await ds.query(
    `WITH area AS (SELECT ST_MakeEnvelope($1, $2, $3, $4, 4326) AS box),
     buildings AS (
       SELECT string_agg(int8send(b.id) || float4send(b.height_m) || int4send(b.levels)
                         || convert_to(b.roof || '/' || b.kind, 'UTF8') || ST_AsBinary(${footprintAt('$5::date')}),
                         ''::bytea ORDER BY b.id) AS bytes
       FROM geo.buildings b, area WHERE b.geom && area.box AND ${standingAt('$5::date')}),
     parcels AS (
       SELECT string_agg(int8send(p.id) || ST_AsBinary(p.geom), ''::bytea ORDER BY p.id) AS bytes
       FROM geo.parcels p, area WHERE p.geom && area.box),
     streets AS (
       SELECT string_agg(int8send(s.id) || ST_AsBinary(s.geom), ''::bytea ORDER BY s.id) AS bytes
       FROM geo.streets s, area WHERE s.geom && area.box)
     SELECT md5(coalesce(b.bytes, '') || decode('00', 'hex') || coalesce(p.bytes, '') || decode('00', 'hex') || coalesce(s.bytes, '')) AS rows,
            b.bytes IS NULL AND p.bytes IS NULL AND s.bytes IS NULL AS empty
     FROM buildings b, parcels p, streets s`,
    [...area.box, dateOf(survey)],
  )) as { rows: string; empty: boolean }[];
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ v: RENDERER_VERSION, survey, rows: row.rows, cut: area.cutMargin }))
    .digest('base64url')
    .slice(0, 16);
  return { fingerprint, empty: row.empty };
}

/**
 * The scene of any box (a map tile's, say): the same rows and frame as loadScene, for a given area, at
 * the survey's capture date (today without one).
 */
export async function loadSceneArea(ds: DataSource, area: SceneArea, survey: Survey | null): Promise<Scene> {
  const { box, centre, here } = area;
  const [row] = (await ds.query(
    `WITH area AS (SELECT ST_MakeEnvelope($1, $2, $3, $4, 4326) AS box,
                          ST_SetSRID(ST_MakePoint($5, $6), 4326) AS point)
     SELECT
       (SELECT coalesce(json_agg(json_build_object('id', b.id::text, 'kind', b.kind, 'height_m', b.height_m,
                                                   'levels', b.levels, 'roof', b.roof,
                                                   'geom', ST_AsGeoJSON(${footprintAt('$9::date')}, 7)::json)
                                 ORDER BY b.id), '[]')
        FROM geo.buildings b, area WHERE b.geom && area.box AND ${standingAt('$9::date')}) AS buildings,
       (SELECT coalesce(json_agg(json_build_object('id', p.id::text,
                                                   'here', coalesce(ST_Intersects(p.geom, area.point), false),
                                                   'geom', ST_AsGeoJSON(ST_Intersection(p.geom, ST_Expand(area.box, $7)), 7)::json)
                                 ORDER BY p.id), '[]')
        FROM geo.parcels p, area WHERE p.geom && area.box) AS parcels,
       (SELECT coalesce(json_agg(json_build_object('geom', ST_AsGeoJSON(
                  ST_Buffer(ST_Intersection(s.geom, ST_Expand(area.box, $7))::geography, $8, 'quad_segs=2')::geometry, 7)::json)
                  ORDER BY s.id), '[]')
        FROM geo.streets s, area WHERE s.geom && area.box) AS roads
     FROM area`,
    [...box, here?.lng ?? null, here?.lat ?? null, area.cutMargin, ROAD_HALF_WIDTH_M, dateOf(survey)],
  )) as SceneRow[];

  const toLocal = ([lng, lat]: number[]): LocalPoint => [
    round2((lng - centre.lng) * metresPerDegreeLng(centre.lat)),
    round2((lat - centre.lat) * METRES_PER_DEGREE_LAT),
  ];
  const ringsOf = (geom: GeoJsonGeometry): LocalRing[][] =>
    (geom.type === 'Polygon' ? [geom.coordinates] : geom.type === 'MultiPolygon' ? geom.coordinates : []).map(
      (polygon) => polygon.map((ring) => openRing(ring.map(toLocal))),
    );

  const buildings: SceneBuilding[] = row.buildings.flatMap((building) =>
    ringsOf(building.geom)
      .filter((polygon) => polygon[0].length >= 3)
      .map((polygon) => ({
        id: building.id,
        footprint: counterClockwise(polygon[0]),
        heightM: Math.max(2.5, building.height_m || building.levels * 3),
        roof: building.roof === 'flat' ? ('flat' as const) : ('pitched' as const),
        kind: building.kind,
      })),
  );
  const parcels: SceneParcel[] = row.parcels.flatMap((parcel) =>
    ringsOf(parcel.geom).map((rings) => ({ id: parcel.id, rings, here: parcel.here })),
  );
  const roads = row.roads.flatMap((road) => ringsOf(road.geom));
  return { centre, parcels, roads, buildings, survey };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** GeoJSON rings repeat their first point at the end; the renderer wants each corner once. */
function openRing(ring: LocalRing): LocalRing {
  const [first, last] = [ring[0], ring[ring.length - 1]];
  return ring.length > 1 && first[0] === last[0] && first[1] === last[1] ? ring.slice(0, -1) : ring;
}

/** Twice the signed area: positive for a counter-clockwise ring. */
export function signedArea2(ring: LocalRing): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

export const counterClockwise = (ring: LocalRing): LocalRing =>
  signedArea2(ring) < 0 ? [...ring].reverse() : ring;
