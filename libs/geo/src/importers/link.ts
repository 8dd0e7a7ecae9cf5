import { type Queryable } from '../load/upsert';

/**
 * Set-wide steps after a load: what stands on which parcel, which place lies in which. Each is one
 * statement over the rows of one source that are not linked yet, so running it again costs little and
 * changes nothing.
 */

export const PLACE_KINDS = ['country', 'province', 'district', 'municipality', 'town', 'suburb'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];
const KIND_RANK = `ARRAY['country','province','district','municipality','town','suburb']`;

/** Addresses, buildings and POIs of `source` that are not on a parcel yet, to the parcel containing them. */
export async function linkToParcels(db: Queryable, source: string): Promise<void> {
  await db.query(
    `UPDATE geo.addresses a SET parcel_id = p.id FROM geo.parcels p
     WHERE a.source = $1 AND a.parcel_id IS NULL AND ST_Intersects(p.geom, a.point)`,
    [source],
  );
  await db.query(
    `UPDATE geo.pois o SET parcel_id = p.id FROM geo.parcels p
     WHERE o.source = $1 AND o.parcel_id IS NULL AND ST_Intersects(p.geom, o.point)`,
    [source],
  );
  await db.query(onParcelUpdate('buildings'), [source]);
}

/**
 * Rows of a polygon table (`source` = $1, no parcel yet) to the parcel holding a point of each: only rows
 * that found one are written (a sub-select in SET wrote every row again, NULL over NULL, and each of its
 * index entries — 15 million buildings of an OSM load into a database without parcels).
 */
function onParcelUpdate(table: 'buildings' | 'farms'): string {
  return `UPDATE geo.${table} t SET parcel_id = m.parcel_id
     FROM (SELECT x.id, p.id AS parcel_id FROM geo.${table} x
             CROSS JOIN LATERAL (SELECT p.id FROM geo.parcels p
                                  WHERE ST_Intersects(p.geom, ST_PointOnSurface(x.geom)) LIMIT 1) p
            WHERE x.source = $1 AND x.parcel_id IS NULL AND EXISTS (SELECT 1 FROM geo.parcels)) m
    WHERE t.id = m.id`;
}

/** Farms of `source` without a parcel, to the parcel holding a point of the farm. */
export async function linkFarmsToParcels(db: Queryable, source: string): Promise<void> {
  await db.query(onParcelUpdate('farms'), [source]);
}

/** Addresses, buildings, POIs and farms of any source without a parcel, to the parcels of `source`. */
export async function linkParcelsToContents(db: Queryable, source: string): Promise<void> {
  for (const [table, point] of [
    ['addresses', 'x.point'],
    ['pois', 'x.point'],
    ['buildings', 'ST_PointOnSurface(x.geom)'],
    ['farms', 'ST_PointOnSurface(x.geom)'],
  ] as const) {
    await db.query(
      `UPDATE geo.${table} x SET parcel_id = p.id FROM geo.parcels p
       WHERE p.source = $1 AND x.parcel_id IS NULL AND ST_Intersects(p.geom, ${point})`,
      [source],
    );
  }
}

/**
 * Parents by code: each (source_id, parent code) of `source` to the place with that code of the nearest
 * higher kind (a metro's code is both a district's and a municipality's: a municipality's parent is the
 * district, a town's the municipality). Answers the codes that matched no place, with their counts.
 */
export async function linkPlaceParentsByCode(
  db: Queryable,
  source: string,
  links: readonly { sourceId: string; parentCode: string }[],
): Promise<Map<string, number>> {
  const missing = new Map<string, number>();
  if (!links.length) return missing;
  const rows: { parent_code: string; found: boolean }[] = await db.query(
    `WITH wanted AS (
       SELECT c.id, c.kind, u.parent_code
       FROM unnest($2::text[], $3::text[]) AS u(source_id, parent_code)
       JOIN geo.places c ON c.source = $1 AND c.source_id = u.source_id
     ), resolved AS (
       SELECT DISTINCT ON (w.id) w.id, p.id AS parent_id
       FROM wanted w
       JOIN geo.places p ON upper(p.code) = upper(w.parent_code)
         AND array_position(${KIND_RANK}, p.kind) < array_position(${KIND_RANK}, w.kind)
       ORDER BY w.id, array_position(${KIND_RANK}, p.kind) DESC, p.id
     ), updated AS (
       UPDATE geo.places c SET parent_id = r.parent_id FROM resolved r
       WHERE c.id = r.id AND c.parent_id IS DISTINCT FROM r.parent_id
     )
     SELECT w.parent_code, r.id IS NOT NULL AS found FROM wanted w LEFT JOIN resolved r ON r.id = w.id`,
    [source, links.map((link) => link.sourceId), links.map((link) => link.parentCode)],
  );
  for (const row of rows)
    if (!row.found) missing.set(row.parent_code, (missing.get(row.parent_code) ?? 0) + 1);
  return missing;
}

/**
 * Parents by position for places of `source` that have none: a town's is the smallest municipality (else
 * district, else province) whose area holds it; a suburb's the nearest town within 30 km.
 */
export async function linkPlaceParentsByPosition(db: Queryable, source: string): Promise<void> {
  await db.query(
    `UPDATE geo.places c SET parent_id = (
       SELECT p.id FROM geo.places p
       WHERE p.kind IN ('municipality', 'district', 'province') AND p.geom IS NOT NULL
         AND ST_Intersects(p.geom, c.point)
       ORDER BY array_position(${KIND_RANK}, p.kind) DESC, ST_Area(p.geom) LIMIT 1)
     WHERE c.source = $1 AND c.parent_id IS NULL AND c.kind = 'town'`,
    [source],
  );
  await db.query(
    `UPDATE geo.places c SET parent_id = (
       SELECT p.id FROM geo.places p
       WHERE p.kind = 'town' AND ST_DWithin(p.point, c.point, 0.3)
       ORDER BY p.point <-> c.point LIMIT 1)
     WHERE c.source = $1 AND c.parent_id IS NULL AND c.kind = 'suburb'`,
    [source],
  );
}

/**
 * Places of `source` that another source already has (same kind, same name, points within `meters`) are
 * removed again: two towns called Stellenbosch 300 m apart would rank against each other in every search.
 * Answers how many were removed.
 */
export async function removeNearDuplicatePlaces(
  db: Queryable,
  source: string,
  meters: number,
): Promise<number> {
  // Counted by a SELECT around the DELETE: drivers answer a bare DELETE in different shapes.
  const [row] = await db.query(
    `WITH removed AS (
       DELETE FROM geo.places c
       WHERE c.source = $1 AND EXISTS (
         SELECT 1 FROM geo.places o
         WHERE o.source <> $1 AND o.kind = c.kind AND lower(o.name) = lower(c.name)
           AND ST_DWithin(o.point::geography, c.point::geography, $2))
       RETURNING 1)
     SELECT count(*)::int AS n FROM removed`,
    [source, meters],
  );
  return row.n;
}

/** Streets of `source` to the town and suburb places of their names (the one nearest the street's addresses). */
export async function linkStreetsToPlaces(db: Queryable, source: string): Promise<void> {
  // One join on the name (hashed) instead of a sub-select per street: the sub-select read every place of
  // the kind once per street, 260 000 streets × 18 000 places at national scale.
  for (const [column, kind, name] of [
    ['town_id', 'town', 'town'],
    ['suburb_id', 'suburb', 'suburb'],
  ] as const) {
    await db.query(
      `UPDATE geo.streets s SET ${column} = m.place_id
         FROM (SELECT DISTINCT ON (s.id) s.id, p.id AS place_id
                 FROM geo.streets s
                 JOIN geo.places p ON p.kind = '${kind}' AND lower(p.name) = lower(s.${name})
                 LEFT JOIN LATERAL (SELECT a.point FROM geo.addresses a WHERE a.street_id = s.id LIMIT 1) a
                   ON true
                WHERE s.source = $1 AND s.${column} IS NULL AND s.${name} <> ''
                ORDER BY s.id, p.point <-> coalesce(a.point, p.point), p.id) m
        WHERE s.id = m.id`,
      [source],
    );
  }
}

/** POIs of `source` to the address of the same element (OSM: a named shop with addr:* tags). */
export async function linkPoisToAddresses(db: Queryable, source: string): Promise<void> {
  await db.query(
    `UPDATE geo.pois o SET address_id = a.id FROM geo.addresses a
     WHERE o.source = $1 AND a.source = $1 AND a.source_id = o.source_id AND o.address_id IS NULL`,
    [source],
  );
}
