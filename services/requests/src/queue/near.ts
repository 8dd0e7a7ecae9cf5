import type { DataSource } from 'typeorm';
import type { NearRequest } from '@portal/contracts';

interface NearRow {
  id: string;
  user_id: string;
  grip_reference: string;
  address: string;
  lat: number;
  lng: number;
  group_name: string | null;
  reference_string: string;
  reference: Record<string, unknown> | null;
  status: string;
  created_at: Date;
  date_finalised: Date | null;
  rve_total: number | null;
  preliminary_rve: number | null;
  distance: number;
}

const COLUMNS = `r.id, r.user_id, r.grip_reference, r.address, r.lat, r.lng, r.group_name, r.reference_string,
  r.reference, r.status, r.created_at, r.date_finalised, r.rve_total::float8 AS rve_total,
  r.preliminary_rve::float8 AS preliminary_rve`;

/** The popup's reference: the client's reference values, else the GRiP reference. */
function referenceText(row: NearRow): string {
  const values = Object.values(row.reference ?? {})
    .map((value) => String(value ?? '').trim())
    .filter(Boolean);
  return values.length > 0 ? values.join(', ') : row.grip_reference;
}

function toNear(row: NearRow): NearRequest {
  const finalised = row.status === 'Finalised' && row.date_finalised !== null;
  return {
    requestID: row.id,
    gripReference: row.grip_reference,
    location: row.address,
    lat: row.lat,
    lng: row.lng,
    client: row.group_name,
    reference: referenceText(row),
    status: row.status,
    date: new Date(finalised ? row.date_finalised! : row.created_at).toISOString(),
    dateKind: finalised ? 'finalised' : 'created',
    finalRve: row.status === 'Finalised' ? row.rve_total : null,
    preliminaryRve: row.preliminary_rve ?? (row.status === 'Finalised' ? null : row.rve_total),
    distance: Math.round(row.distance * 10) / 10,
  };
}

/**
 * Spec 03 "Duplicate check": the requests within `radius` metres of a request, nearest first (PostGIS
 * KNN on the point index, then the exact distance on the spheroid), at most `limit`. `ownerId` restricts
 * the neighbours to one user's own requests. Null when the request does not exist or has no location.
 */
export async function nearRequests(
  ds: DataSource,
  input: { id: string; radius: number; ownerId: string | null; limit: number },
): Promise<{ centre: NearRequest; centreOwner: string; requests: NearRequest[]; truncated: boolean } | null> {
  const [centre] = (await ds.query(
    `SELECT ${COLUMNS}, 0::float8 AS distance FROM requests.requests r WHERE r.id = $1 AND r.point IS NOT NULL`,
    [input.id],
  )) as NearRow[];
  if (!centre) return null;
  // The index finds candidates in a box of the radius in degrees (a degree of longitude shrinks with the
  // latitude; the box is widened to hold the whole circle); the spheroid distance then keeps the exact ones.
  const latDegrees = input.radius / 110_574;
  const lngDegrees =
    input.radius /
    (111_320 * Math.max(0.01, Math.cos((Math.abs(centre.lat) + latDegrees) * (Math.PI / 180))));
  const params: unknown[] = [
    centre.lng,
    centre.lat,
    input.radius,
    input.limit + 1,
    input.id,
    Math.max(latDegrees, lngDegrees),
  ];
  if (input.ownerId) params.push(input.ownerId);
  // Nearest first straight from the point index (a KNN walk that stops at the limit): at 5 000 000 requests
  // a dense place has over a million within 100 km. Written so that PostgreSQL takes that walk: the centre
  // a constant of the statement (not a CTE, whose value the planner cannot see), the order by the index's
  // distance alone (with the id after it the rows were all fetched and sorted), and the radius as
  // ST_Distance (ST_DWithin's estimate of a few rows made sorting them look cheaper: 50 s in Johannesburg,
  // bench/request-duplicates.mjs). Ties at the limit are as the index finds them.
  const point = 'ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326)';
  // One user's own requests are found by their owner (the user's index, then sorted): with the box as well,
  // PostgreSQL ANDed both indexes' bitmaps, and the box alone holds a million rows in a dense place.
  const ownerOrBox = input.ownerId
    ? 'r.user_id = $7 AND $6::float8 > 0'
    : 'r.point && ST_Expand(' + point + ', $6::float8)';
  const rows = (await ds.query(
    `SELECT ${COLUMNS}, ST_Distance(r.point::geography, ${point}::geography) AS distance
       FROM requests.requests r
      WHERE r.id <> $5 AND ${ownerOrBox}
        AND ST_Distance(r.point::geography, ${point}::geography) <= $3::float8
      ORDER BY r.point <-> ${point}
      LIMIT $4`,
    params,
  )) as NearRow[];
  const truncated = rows.length > input.limit;
  const requests = rows
    .slice(0, input.limit)
    .map(toNear)
    .sort((a, b) => a.distance - b.distance || (a.requestID < b.requestID ? -1 : 1));
  return { centre: toNear(centre), centreOwner: centre.user_id, requests, truncated };
}
