import type { DataSource } from 'typeorm';
import { badRequest } from '@portal/server-kit';

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * South Africa's mainland and its coast with some sea around it, for when no country outline has been
 * loaded (geo.places kind 'country'). Includes Lesotho and eSwatini: a box cannot cut them out.
 */
export const SOUTH_AFRICA_BBOX = { west: 16.3, south: -35.0, east: 33.0, north: -22.1 } as const;

/**
 * How far outside the loaded outline a point may lie and still count (degrees, ~5 km): outlines such as
 * Natural Earth's are generalised, and a house on the shore must not fall "into the sea".
 */
export const COASTLINE_TOLERANCE_DEGREES = 0.05;

/** The row that outlines South Africa, however an importer named it. */
export const SOUTH_AFRICA_ROW = `kind = 'country' AND geom IS NOT NULL
  AND (upper(code) IN ('ZA', 'ZAF', '710') OR lower(name) = 'south africa')`;

/**
 * Throws a 400 unless the point lies in South Africa: inside the country outline in geo.places when one
 * is loaded (within the coastline tolerance), else inside SOUTH_AFRICA_BBOX.
 */
export async function assertInSouthAfrica(ds: DataSource, point: GeoPoint): Promise<void> {
  if (!Number.isFinite(point.lat) || !Number.isFinite(point.lng))
    throw badRequest('lat and lng must be numbers (decimal degrees).');
  const [row] = (await ds.query(
    `SELECT bool_or(ST_DWithin(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326), $3)) AS inside
     FROM geo.places WHERE ${SOUTH_AFRICA_ROW}`,
    [point.lng, point.lat, COASTLINE_TOLERANCE_DEGREES],
  )) as { inside: boolean | null }[];
  const inside = row?.inside ?? insideBox(point);
  if (!inside)
    throw badRequest(
      `The location ${point.lat}, ${point.lng} is outside South Africa: imagery is only available there.`,
    );
}

function insideBox({ lat, lng }: GeoPoint): boolean {
  const box = SOUTH_AFRICA_BBOX;
  return lng >= box.west && lng <= box.east && lat >= box.south && lat <= box.north;
}
