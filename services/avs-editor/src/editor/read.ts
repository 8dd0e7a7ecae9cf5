import type {
  AddressEditorData,
  AddressFeature,
  ClosestRoad,
  DisplayDataAnswer,
  ParcelFeature,
  PoiFeature,
  VoronoiFeature,
} from '@portal/contracts';
import { padCode } from '@portal/domain';
import { insideSouthAfrica, type Queryable } from '@portal/geo';
import { badRequest } from '@portal/server-kit';
import {
  ADDRESS_COLUMNS,
  PARCEL_COLUMNS,
  POI_COLUMNS,
  toEditorAddress,
  toEditorParcel,
  toEditorPoi,
  type AddressRow,
  type ParcelRow,
  type PoiRow,
} from './rows';

/**
 * What the editor reads around a point (spec 03 §3, §7): display_data's four layers and get_point_data's
 * "address editor data". Every statement starts from an index (GiST on the geometries, B-trees on
 * parcel_id), so the cost follows what is in view, not the size of the country.
 */

export const READ_TEXT = {
  outside: 'That point is outside South Africa: the address editor covers South Africa only.',
} as const;

const POINT = 'ST_SetSRID(ST_MakePoint($1, $2), 4326)';

/**
 * The view display_data answers: the parcels within about 110 m north–south and 140 m east–west of the
 * point (a zoom-18 map of ~1000 × 700 pixels around the marker), nearest first, at most VIEW_PARCELS.
 */
const VIEW_DEGREES = { lat: 0.001, lng: 0.0015 } as const;
const VIEW_PARCELS = 250;
/** A parcel's addresses in an answer (the largest estates of the data have a few hundred units). */
const VIEW_ADDRESSES = 5000;
const VIEW_POIS = 2000;
/** closestRoads: roads within this distance of the point, nearest first, at most CLOSEST_ROADS. */
export const ROAD_SEARCH_METRES = 400;
const CLOSEST_ROADS = 8;
/** About ROAD_SEARCH_METRES in degrees of latitude (the index condition; metres decide after). */
const ROAD_SEARCH_DEGREES = 0.004;
/** Output precision of geometries: 7 decimals (~1 cm), reduced so that what is written stays valid. */
const PRECISION = 1e-7;

export async function requireInSouthAfrica(db: Queryable, lat: number, lng: number): Promise<void> {
  if (!(await insideSouthAfrica(db, lat, lng))) throw badRequest(READ_TEXT.outside);
}

/** The smallest parcel containing the point (a farm portion may hold a smaller surveyed erf), as a row. */
export async function parcelAtPoint(db: Queryable, lat: number, lng: number): Promise<ParcelRow | undefined> {
  const [row]: ParcelRow[] = await db.query(
    `SELECT ${PARCEL_COLUMNS} FROM geo.parcels p
     WHERE ST_Contains(p.geom, ${POINT})
     ORDER BY ST_Area(p.geom), p.id LIMIT 1`,
    [lng, lat],
  );
  return row;
}

export async function parcelById(db: Queryable, parcelId: string): Promise<ParcelRow | undefined> {
  const [row]: ParcelRow[] = await db.query(`SELECT ${PARCEL_COLUMNS} FROM geo.parcels p WHERE p.id = $1`, [
    parcelId,
  ]);
  return row;
}

export async function addressesOfParcels(db: Queryable, parcelIds: string[]): Promise<AddressRow[]> {
  if (parcelIds.length === 0) return [];
  return db.query(
    `SELECT ${ADDRESS_COLUMNS} FROM geo.addresses a
     WHERE a.parcel_id = ANY($1::bigint[])
     ORDER BY a.parcel_id, a.unit IS NOT NULL, a.number_value NULLS LAST, lower(a.house_number),
              length(a.unit), a.unit, a.id
     LIMIT ${VIEW_ADDRESSES}`,
    [parcelIds],
  );
}

export async function poisOfParcels(db: Queryable, parcelIds: string[]): Promise<PoiRow[]> {
  if (parcelIds.length === 0) return [];
  return db.query(
    `SELECT ${POI_COLUMNS} FROM geo.pois o
     WHERE o.parcel_id = ANY($1::bigint[])
     ORDER BY o.parcel_id, o.poi_type, lower(o.name), o.id
     LIMIT ${VIEW_POIS}`,
    [parcelIds],
  );
}

interface ViewParcelRow extends ParcelRow {
  geometry: string;
  /** The parcel under the point. */
  selected: boolean;
}

/**
 * Voronoi areas (spec 03 §2): per parcel, one area per distinct address point, clipped to the parcel;
 * addresses at the same point share an area, and a parcel with one point is its own area.
 *
 * Most parcels have one address: their area is the parcel's outline, already read, with that address.
 * Only parcels with more than one address (address_count) go through PostGIS: ST_VoronoiPolygons over the
 * parcel's distinct points extended to the parcel, each cell clipped to it (ST_Intersection) and written
 * valid at 7 decimals; each cell's addresses are found through the parcel_id index, per cell (a planner
 * left to join them all at once walked the whole address index).
 */
async function voronoiAreas(
  db: Queryable,
  parcels: ViewParcelRow[],
  addresses: AddressRow[],
): Promise<VoronoiFeature[]> {
  const onParcel = new Map<string, string[]>();
  for (const address of addresses) {
    if (!address.parcel_id) continue;
    const list = onParcel.get(address.parcel_id) ?? [];
    list.push(address.address_id);
    onParcel.set(address.parcel_id, list);
  }
  const areas: VoronoiFeature[] = parcels
    .filter((parcel) => parcel.address_count === 1 && onParcel.has(parcel.parcel_id))
    .map((parcel) => ({
      type: 'Feature',
      id: `${parcel.parcel_id}-1`,
      geometry: JSON.parse(parcel.geometry),
      properties: { parcelId: parcel.parcel_id, addressIds: onParcel.get(parcel.parcel_id)! },
    }));
  const several = parcels.filter((parcel) => parcel.address_count > 1).map((parcel) => parcel.parcel_id);
  if (several.length === 0) return areas;
  const rows: { parcel_id: string; cell: number; address_ids: string[] | null; geometry: string }[] =
    await db.query(
      `WITH points AS (
         SELECT p.id AS parcel_id, p.geom,
                (SELECT ST_UnaryUnion(ST_Collect(a.point)) FROM geo.addresses a WHERE a.parcel_id = p.id) AS points
         FROM geo.parcels p WHERE p.id = ANY($1::bigint[])
       ), cells AS MATERIALIZED (
         SELECT parcel_id, geom AS parcel_geom, geom AS cell, 1 AS cell_no, true AS whole
         FROM points WHERE ST_NumGeometries(points) = 1
         UNION ALL
         SELECT points.parcel_id, points.geom, d.geom, d.path[1], false
         FROM points CROSS JOIN LATERAL ST_Dump(ST_VoronoiPolygons(points.points, 0, points.geom)) d
         WHERE ST_NumGeometries(points.points) > 1
       ), clipped AS MATERIALIZED (
         SELECT parcel_id, cell_no, whole, cell,
                ST_ReducePrecision(ST_Multi(ST_CollectionExtract(ST_Intersection(cell, parcel_geom), 3)), $2) AS area
         FROM cells
       )
       SELECT c.parcel_id::text AS parcel_id, c.cell_no AS cell, ST_AsGeoJSON(c.area, 7) AS geometry,
              (SELECT array_agg(a.id::text ORDER BY a.id) FROM geo.addresses a
               WHERE a.parcel_id = c.parcel_id AND (c.whole OR ST_Intersects(c.cell, a.point))) AS address_ids
       FROM clipped c
       WHERE NOT ST_IsEmpty(c.area)
       ORDER BY c.parcel_id, c.cell_no`,
      [several, PRECISION],
    );
  for (const row of rows) {
    if (!row.address_ids) continue;
    areas.push({
      type: 'Feature',
      id: `${row.parcel_id}-${row.cell}`,
      geometry: JSON.parse(row.geometry),
      properties: { parcelId: row.parcel_id, addressIds: row.address_ids },
    });
  }
  return areas;
}

const collection = <F>(features: F[]) => ({ data: { type: 'FeatureCollection' as const, features } });

/** GET display_data/{lat}/{lng}: the parcels around the point, their voronoi areas, addresses and POIs. */
export async function displayData(db: Queryable, lat: number, lng: number): Promise<DisplayDataAnswer> {
  await requireInSouthAfrica(db, lat, lng);
  const parcels: ViewParcelRow[] = await db.query(
    `WITH here AS (
       SELECT p.id FROM geo.parcels p WHERE ST_Contains(p.geom, ${POINT}) ORDER BY ST_Area(p.geom), p.id LIMIT 1
     ), near AS (
       SELECT p.id FROM geo.parcels p
       WHERE p.geom && ST_Expand(${POINT}, $4::float8, $3::float8)
       ORDER BY p.geom <-> ${POINT}, p.id
       LIMIT ${VIEW_PARCELS}
     )
     SELECT ${PARCEL_COLUMNS}, ST_AsGeoJSON(p.geom, 7) AS geometry,
            p.id = (SELECT id FROM here) AS selected
     FROM geo.parcels p
     WHERE p.id IN (SELECT id FROM near UNION SELECT id FROM here)
     ORDER BY p.id`,
    [lng, lat, VIEW_DEGREES.lat, VIEW_DEGREES.lng],
  );
  const ids = parcels.map((parcel) => parcel.parcel_id);
  const [addresses, pois] = await Promise.all([addressesOfParcels(db, ids), poisOfParcels(db, ids)]);
  const voronoi = await voronoiAreas(db, parcels, addresses);
  const selected = parcels.find((parcel) => parcel.selected);
  return {
    success: true,
    parcelId: selected?.parcel_id ?? null,
    voronoiData: collection(voronoi),
    parcelData: collection<ParcelFeature>(
      parcels.map((row) => ({
        type: 'Feature',
        id: row.parcel_id,
        geometry: JSON.parse(row.geometry),
        properties: {
          ...toEditorParcel(row),
          selected: row.parcel_id === selected?.parcel_id,
        },
      })),
    ),
    addressData: collection<AddressFeature>(
      addresses.map((row) => ({
        type: 'Feature',
        id: row.address_id,
        geometry: { type: 'Point', coordinates: [Number(row.lng), Number(row.lat)] },
        properties: toEditorAddress(row),
      })),
    ),
    poiData: collection<PoiFeature>(
      pois.map((row) => ({
        type: 'Feature',
        id: row.poi_id,
        geometry: { type: 'Point', coordinates: [Number(row.lng), Number(row.lat)] },
        properties: toEditorPoi(row),
      })),
    ),
  };
}

/** Roads near the point, nearest first (spec 03 §3 closestRoads): the index finds them, metres order them. */
export async function closestRoads(db: Queryable, lat: number, lng: number): Promise<ClosestRoad[]> {
  const rows: { id: string; name: string; suburb: string; town: string; distance: number }[] = await db.query(
    `SELECT * FROM (
       SELECT s.id::text AS id, s.name, s.suburb, s.town,
              ST_Distance(s.geom::geography, ${POINT}::geography) AS distance
       FROM geo.streets s
       WHERE s.geom IS NOT NULL AND ST_DWithin(s.geom, ${POINT}, $3)
       ORDER BY s.geom <-> ${POINT}
       LIMIT ${CLOSEST_ROADS * 2}
     ) near
     WHERE distance <= $4
     ORDER BY distance, id
     LIMIT ${CLOSEST_ROADS}`,
    [lng, lat, ROAD_SEARCH_DEGREES, ROAD_SEARCH_METRES],
  );
  return rows.map((row, index) => ({
    roadId: row.id,
    roadNameEng: row.name,
    closest: index === 0,
    distance: Math.round(Number(row.distance) * 10) / 10,
    suburb: row.suburb,
    town: row.town,
  }));
}

interface AreaNames {
  suburb: string;
  town: string;
  municipality: string;
  district: string;
  suburbId: string | null;
}

/**
 * The areas of the point: the parcel's suburb and town when it has them, else the suburb around the point;
 * municipality and district from the places above them (or around the point), '' where the data has none.
 */
async function areasOf(
  db: Queryable,
  lat: number,
  lng: number,
  parcel: ParcelRow | undefined,
): Promise<AreaNames> {
  const rows: { id: string; kind: string; name: string; depth: number }[] = await db.query(
    `WITH RECURSIVE start AS (
       SELECT unnest($3::bigint[]) AS id
       UNION
       (SELECT pl.id FROM geo.places pl
        WHERE cardinality($3::bigint[]) = 0 AND pl.kind IN ('suburb', 'town') AND ST_Contains(pl.geom, ${POINT})
        ORDER BY pl.kind = 'suburb' DESC, ST_Area(pl.geom), pl.id LIMIT 1)
       UNION
       SELECT pl.id FROM geo.places pl
       WHERE pl.kind IN ('municipality', 'district') AND ST_Contains(pl.geom, ${POINT})
     ), chain AS (
       SELECT pl.id, pl.kind, pl.name, pl.parent_id, 0 AS depth FROM geo.places pl WHERE pl.id IN (SELECT id FROM start)
       UNION ALL
       SELECT pl.id, pl.kind, pl.name, pl.parent_id, chain.depth + 1
       FROM geo.places pl JOIN chain ON pl.id = chain.parent_id
       WHERE chain.depth < 6
     )
     SELECT DISTINCT ON (kind) id::text AS id, kind, name, depth FROM chain ORDER BY kind, depth, id`,
    [lng, lat, [parcel?.suburb_id, parcel?.town_id].filter((id): id is string => !!id)],
  );
  const named = (kind: string) => rows.find((row) => row.kind === kind);
  return {
    suburb: parcel?.suburb || named('suburb')?.name || '',
    town: parcel?.town || named('town')?.name || '',
    municipality: named('municipality')?.name ?? '',
    district: named('district')?.name ?? '',
    suburbId: parcel?.suburb_id ?? named('suburb')?.id ?? null,
  };
}

/** The suburb's street and box codes; else the street code its addresses carry. */
async function codesOf(
  db: Queryable,
  area: AreaNames,
  addresses: AddressRow[],
): Promise<{ streetCode: string; boxCode: string }> {
  const [row]: { street_code: string | null; box_code: string | null }[] = await db.query(
    `SELECT street_code, box_code FROM geo.postal_codes
     WHERE ($1::bigint IS NOT NULL AND place_id = $1::bigint)
        OR ($1::bigint IS NULL AND lower(suburb) = lower($2) AND lower(town) = lower($3))
     ORDER BY street_code IS NULL, box_code IS NULL, id
     LIMIT 1`,
    [area.suburbId, area.suburb, area.town],
  );
  const fromAddress = addresses.find((address) => address.postal_code)?.postal_code ?? null;
  return {
    streetCode: padCode(row?.street_code ?? fromAddress),
    boxCode: padCode(row?.box_code ?? null),
  };
}

/** Who edited the parcel or anything on it last (the audit trail's newest row), else the parcel's own mark. */
async function lastEditor(db: Queryable, parcel: ParcelRow): Promise<string | null> {
  const [row]: { user_email: string }[] = await db.query(
    `SELECT user_email FROM avs_editor.edits WHERE parcel_id = $1 ORDER BY at DESC, id DESC LIMIT 1`,
    [parcel.parcel_id],
  );
  return row?.user_email ?? parcel.edited_by;
}

/** GET addaddress/get_point_data/{lat}/{lng}: spec 03 §3 "Address editor data" of the point. */
export async function pointData(db: Queryable, lat: number, lng: number): Promise<AddressEditorData> {
  await requireInSouthAfrica(db, lat, lng);
  const parcel = await parcelAtPoint(db, lat, lng);
  const [roads, centre, addresses, pois, area, editedBy] = await Promise.all([
    closestRoads(db, lat, lng),
    parcel ? parcelCentre(db, parcel.parcel_id) : Promise.resolve({ lat, lng }),
    parcel ? addressesOfParcels(db, [parcel.parcel_id]) : Promise.resolve([]),
    parcel ? poisOfParcels(db, [parcel.parcel_id]) : Promise.resolve([]),
    areasOf(db, lat, lng, parcel),
    parcel ? lastEditor(db, parcel) : Promise.resolve(null),
  ]);
  const codes = await codesOf(db, area, addresses);
  return {
    parcelId: parcel?.parcel_id ?? null,
    parcelNo: parcel?.parcel_number ?? null,
    portionNo: parcel?.portion ?? null,
    parcelTypeId: parcel?.parcel_type_id ?? null,
    dataQualityId: parcel?.data_quality_id ?? null,
    parcelVersion: parcel?.version ?? null,
    parcel: parcel ? toEditorParcel(parcel) : null,
    road: roads[0]?.roadNameEng ?? '',
    closestRoads: roads,
    suburb: area.suburb,
    town: area.town,
    municipality: area.municipality,
    district: area.district,
    streetCode: codes.streetCode,
    boxCode: codes.boxCode,
    editedBy,
    lat,
    lng,
    centre,
    addresses: addresses.map(toEditorAddress),
    pois: pois.map(toEditorPoi),
  };
}

/** A point inside the parcel (its centre when that lies inside; ST_PointOnSurface otherwise). */
export async function parcelCentre(db: Queryable, parcelId: string): Promise<{ lat: number; lng: number }> {
  const [row]: { lat: number; lng: number }[] = await db.query(
    `SELECT ST_Y(c) AS lat, ST_X(c) AS lng FROM (
       SELECT CASE WHEN ST_Contains(geom, ST_Centroid(geom)) THEN ST_Centroid(geom) ELSE ST_PointOnSurface(geom) END AS c
       FROM geo.parcels WHERE id = $1
     ) centre`,
    [parcelId],
  );
  return { lat: Number(row.lat), lng: Number(row.lng) };
}
