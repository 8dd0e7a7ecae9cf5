import type { ReportRequestInfo, ReportRow, ReportState } from '@portal/domain';

/**
 * Reads a SAVi report as it stands (libs/domain ReportState): the request with its group's pricing settings
 * and the places at its point, and the report's row. The report builder reads it for every call; services/
 * requests reads it when a report is submitted (its RVETotal and the PDF of the submitted version).
 */

const REQUEST_SQL = `
  SELECT r.id, r.grip_reference, r.request_type, r.status, r.user_id, r.address, r.lat, r.lng, r.reference,
         r.selected->>'suburb' AS selected_suburb, r.selected->>'town' AS selected_town,
         g.id AS group_id, g.name AS group_name, g.include_vat, g.include_professional_fee,
         g.professional_fee_percentage::float8 AS professional_fee_percentage,
         g.double_volume_percent::float8 AS double_volume_percent, g.extra_field,
         (SELECT p.name FROM geo.places p WHERE p.kind = 'suburb' AND p.geom IS NOT NULL AND r.point IS NOT NULL
            AND ST_Intersects(p.geom, r.point) ORDER BY p.importance DESC, p.id LIMIT 1) AS place_suburb,
         (SELECT p.name FROM geo.places p WHERE p.kind = 'town' AND p.geom IS NOT NULL AND r.point IS NOT NULL
            AND ST_Intersects(p.geom, r.point) ORDER BY p.importance DESC, p.id LIMIT 1) AS place_town,
         (SELECT p.name FROM geo.places p WHERE p.kind = 'province' AND p.geom IS NOT NULL AND r.point IS NOT NULL
            AND ST_Intersects(p.geom, r.point) ORDER BY p.importance DESC, p.id LIMIT 1) AS place_province
    FROM requests.requests r
    LEFT JOIN identity.groups g ON g.id = COALESCE(r.for_group_id, r.group_id)
   WHERE r.id = $1`;

interface RequestDbRow {
  id: string;
  grip_reference: string;
  request_type: string;
  status: string;
  user_id: string;
  address: string;
  lat: number | null;
  lng: number | null;
  reference: Record<string, unknown> | null;
  selected_suburb: string | null;
  selected_town: string | null;
  group_id: string | null;
  group_name: string | null;
  include_vat: boolean | null;
  include_professional_fee: boolean | null;
  professional_fee_percentage: number | null;
  double_volume_percent: number | null;
  extra_field: string | null;
  place_suburb: string | null;
  place_town: string | null;
  place_province: string | null;
}

const toRequestInfo = (row: RequestDbRow): ReportRequestInfo => ({
  id: row.id,
  gripReference: row.grip_reference,
  requestType: row.request_type,
  status: row.status,
  userId: row.user_id,
  address: row.address,
  lat: row.lat,
  lng: row.lng,
  selectedSuburb: row.selected_suburb,
  selectedTown: row.selected_town,
  placeSuburb: row.place_suburb,
  placeTown: row.place_town,
  placeProvince: row.place_province,
  reference: row.reference ?? {},
  group: row.group_id
    ? {
        id: row.group_id,
        name: row.group_name ?? '',
        includeVAT: row.include_vat ?? false,
        includeProfessionalFee: row.include_professional_fee ?? false,
        professionalFeePercentage: row.professional_fee_percentage ?? 0,
        doubleVolumePercent: row.double_volume_percent ?? 0,
        extraField: row.extra_field ?? '',
      }
    : null,
});

const REPORT_COLUMNS = `sections, details, extra_include, extra_description, extra_value::text AS extra_value,
  comments, comments_user_id, note, note_user_id, version, updated_by, updated_by_name, updated_at`;

/** Something that runs SQL and answers rows (a DataSource, an EntityManager, a pg client). */
export interface ReportStateReader {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * The report of request `id` as it stands, or null when there is no such request. With `lock` (inside a
 * transaction) the request's row is locked first — its status cannot change under the caller — then the
 * report's.
 */
export async function readReportState(
  db: ReportStateReader,
  id: string,
  options: { defaultVat: number; lock?: boolean },
): Promise<ReportState | null> {
  if (options.lock) {
    const locked = (await db.query('SELECT id FROM requests.requests WHERE id = $1 FOR UPDATE', [
      id,
    ])) as unknown[];
    if (locked.length === 0) return null;
  }
  const [request] = (await db.query(REQUEST_SQL, [id])) as RequestDbRow[];
  if (!request) return null;
  const [row] = (await db.query(
    `SELECT ${REPORT_COLUMNS} FROM reportbuilder.reports WHERE request_id = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [id],
  )) as ReportRow[];
  return { request: toRequestInfo(request), row: row ?? null, defaultVat: options.defaultVat };
}
