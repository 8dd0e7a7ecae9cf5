import type { DataSource, EntityManager } from 'typeorm';
import type { Measurement, MeasurementKind, ObliquePicks } from '@portal/contracts';
import { MEASUREMENT_TEXT, type CheckedMeasurement } from './checks';

/**
 * requests.measurements (issue 21): the figures PostGIS computes for a checked measurement, and the rows.
 * Lengths, areas and perimeters are geodesic (geography, on the spheroid); a height comes from its picks
 * (checks.ts). The capture date is the survey's, copied onto the row.
 */

/** A measurement ready to write: its figures and its survey's date. */
export interface MeasuredMeasurement extends CheckedMeasurement {
  value: number;
  perimeterM: number | null;
  capturedOn: string;
}

type Queryable = Pick<EntityManager, 'query'>;

interface FiguresRow {
  valid: boolean;
  simple: boolean;
  reason: string | null;
  length_m: number;
  area_m2: number;
  perimeter_m: number;
  survey_id: string | null;
  survey_name: string | null;
  captured_on: string | null;
  covered: boolean | null;
}

/**
 * The figures of one checked measurement and the checks that need PostGIS (an outline that crosses
 * itself, a line without length, the survey and its coverage), or the problem. ST_Covers is only asked of
 * a valid geometry: GEOS may refuse an invalid one with an error.
 */
export async function measure(
  db: Queryable,
  checked: CheckedMeasurement,
): Promise<MeasuredMeasurement | { problem: string }> {
  const [row] = (await db.query(
    `WITH m AS (SELECT ST_SetSRID(ST_GeomFromGeoJSON($1::text), 4326) AS geom),
          f AS (SELECT geom, ST_IsValid(geom) AS valid FROM m)
     SELECT f.valid,
            CASE WHEN GeometryType(f.geom) = 'POLYGON' THEN ST_IsSimple(ST_ExteriorRing(f.geom)) ELSE true END AS simple,
            CASE WHEN f.valid THEN NULL ELSE ST_IsValidReason(f.geom) END AS reason,
            ST_Length(f.geom::geography) AS length_m,
            ST_Area(f.geom::geography) AS area_m2,
            ST_Perimeter(f.geom::geography) AS perimeter_m,
            s.id AS survey_id, s.name AS survey_name, to_char(s.captured_on, 'YYYY-MM-DD') AS captured_on,
            CASE WHEN s.id IS NULL OR NOT f.valid THEN NULL ELSE ST_Covers(s.geom, f.geom) END AS covered
     FROM f LEFT JOIN geo.imagery_coverage s ON s.id = $2`,
    [checked.geometry, checked.surveyId],
  )) as FiguresRow[];

  if (checked.geometryType === 'Polygon' && !row.simple) return { problem: MEASUREMENT_TEXT.crossing };
  if (checked.geometryType === 'Polygon' && !row.valid)
    return { problem: MEASUREMENT_TEXT.invalidOutline(row.reason ?? 'invalid') };
  // A line is invalid only when it has fewer than two different points.
  if (checked.geometryType === 'LineString' && (!row.valid || row.length_m === 0))
    return { problem: MEASUREMENT_TEXT.noLength };
  if (row.survey_id === null) return { problem: MEASUREMENT_TEXT.noSurvey(checked.surveyId) };
  if (!row.covered)
    return {
      problem: MEASUREMENT_TEXT.notCovered({
        id: checked.surveyId,
        name: row.survey_name ?? '',
        capturedOn: row.captured_on!,
      }),
    };

  const figures: Record<MeasurementKind, { value: number; perimeterM: number | null }> = {
    distance: { value: row.length_m, perimeterM: null },
    length: { value: row.length_m, perimeterM: null },
    area: { value: row.area_m2, perimeterM: row.perimeter_m },
    height: { value: checked.heightM ?? 0, perimeterM: null },
  };
  return { ...checked, ...figures[checked.kind], capturedOn: row.captured_on! };
}

/**
 * Several measurements measured in turn: all of them, or every problem (each numbered when `numbered`,
 * as the creation form lists them).
 */
export async function measureAll(
  db: Queryable,
  checked: CheckedMeasurement[],
  numbered: boolean,
): Promise<{ measured: MeasuredMeasurement[]; problems: string[] }> {
  const measured: MeasuredMeasurement[] = [];
  const problems: string[] = [];
  for (const [index, one] of checked.entries()) {
    const result = await measure(db, one);
    if ('problem' in result)
      problems.push(numbered ? MEASUREMENT_TEXT.numbered(index, result.problem) : result.problem);
    else measured.push(result);
  }
  return { measured, problems };
}

const MEASUREMENT_COLUMNS = `id, request_id, kind, label, survey_id, to_char(captured_on, 'YYYY-MM-DD') AS captured_on,
  ST_AsGeoJSON(geom)::jsonb AS geometry, oblique, value, perimeter_m, created_by, created_by_email, created_at`;

interface MeasurementRow {
  id: string;
  request_id: string;
  kind: MeasurementKind;
  label: string;
  survey_id: string;
  captured_on: string;
  geometry: Measurement['geometry'];
  oblique: ObliquePicks | null;
  value: number;
  perimeter_m: number | null;
  created_by: string;
  created_by_email: string;
  created_at: Date;
}

const toMeasurement = (row: MeasurementRow): Measurement => ({
  id: row.id,
  requestId: row.request_id,
  kind: row.kind,
  label: row.label,
  surveyId: Number(row.survey_id),
  capturedOn: row.captured_on,
  geometry: row.geometry,
  oblique: row.oblique,
  value: row.value,
  unit: row.kind === 'area' ? 'm²' : 'm',
  perimeterM: row.perimeter_m,
  createdBy: { id: row.created_by, email: row.created_by_email },
  createdAt: row.created_at.toISOString(),
});

/**
 * Writes measured measurements against a request, in the caller's transaction. One statement each, with
 * the clock's time, so those written together (a new request's) still list in the order they were sent.
 */
export async function insertMeasurements(
  db: Queryable,
  requestId: string,
  createdBy: { id: string; email: string },
  measured: MeasuredMeasurement[],
): Promise<Measurement[]> {
  const written: Measurement[] = [];
  for (const one of measured) {
    const [row] = (await db.query(
      `INSERT INTO requests.measurements (request_id, kind, label, survey_id, captured_on, geom, oblique, value,
         perimeter_m, created_by, created_by_email, created_at)
       VALUES ($1, $2, $3, $4, $5::date, ST_SetSRID(ST_GeomFromGeoJSON($6::text), 4326), $7::jsonb, $8, $9, $10,
         $11, clock_timestamp())
       RETURNING ${MEASUREMENT_COLUMNS}`,
      [
        requestId,
        one.kind,
        one.label,
        one.surveyId,
        one.capturedOn,
        one.geometry,
        one.oblique === null ? null : JSON.stringify(one.oblique),
        one.value,
        one.perimeterM,
        createdBy.id,
        createdBy.email,
      ],
    )) as MeasurementRow[];
    written.push(toMeasurement(row));
  }
  return written;
}

/** A request's owner, read (and share-locked, in a transaction) before its measurements are touched; null when none. */
export async function requestOwnerForMeasurements(db: Queryable, requestId: string, lock = false) {
  const [row] = (await db.query(
    `SELECT user_id FROM requests.requests WHERE id = $1${lock ? ' FOR SHARE' : ''}`,
    [requestId],
  )) as { user_id: string }[];
  return row ? row.user_id : null;
}

/** A request's measurements, oldest first. */
export async function listMeasurements(ds: DataSource, requestId: string): Promise<Measurement[]> {
  const rows = (await ds.query(
    `SELECT ${MEASUREMENT_COLUMNS} FROM requests.measurements WHERE request_id = $1 ORDER BY created_at, id`,
    [requestId],
  )) as MeasurementRow[];
  return rows.map(toMeasurement);
}

/** Deletes one measurement of the request; false when the request has no such measurement. */
export async function deleteMeasurement(ds: DataSource, requestId: string, measurementId: string) {
  // TypeORM answers a DELETE … RETURNING as [rows, count].
  const [deleted] = (await ds.query(
    'DELETE FROM requests.measurements WHERE id = $1 AND request_id = $2 RETURNING id',
    [measurementId, requestId],
  )) as [unknown[], number];
  return deleted.length > 0;
}
