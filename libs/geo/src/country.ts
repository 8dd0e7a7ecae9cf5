import type { Queryable } from './load/upsert';

/**
 * Whether a point lies in South Africa, for the services that take a point from a user (the address
 * service's reverse look-up, the address editor's edits): inside the country outline in geo.places when
 * one is loaded, else inside the country's extent.
 */

/**
 * How far outside the stored country outline a point may be and still count: outlines are simplified
 * (Natural Earth), and a coastal or border property must not be refused for it. About 5 km.
 */
const COUNTRY_TOLERANCE_DEGREES = 0.05;

/** Used when no country outline is loaded: South Africa's extent with the same tolerance. */
export const SOUTH_AFRICA_BOUNDS = { west: 16.3, east: 33.0, south: -35.0, north: -22.0 } as const;

const POINT = 'ST_SetSRID(ST_MakePoint($1, $2), 4326)';

export async function insideSouthAfrica(db: Queryable, lat: number, lng: number): Promise<boolean> {
  const [row]: { outlines: number; inside: boolean | null }[] = await db.query(
    `SELECT count(*)::int AS outlines,
            bool_or(ST_Intersects(geom, ${POINT}) OR ST_DWithin(geom, ${POINT}, $3)) AS inside
     FROM geo.places WHERE kind = 'country' AND geom IS NOT NULL`,
    [lng, lat, COUNTRY_TOLERANCE_DEGREES],
  );
  if (row.outlines > 0) return !!row.inside;
  const b = SOUTH_AFRICA_BOUNDS;
  return lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east;
}
