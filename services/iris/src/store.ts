import type { DataSource } from 'typeorm';
import {
  requestUpdatedChannel,
  type HighResStatus,
  type IrisReportData,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import { recordNotifications, recordRequestEvents } from '@portal/db';
import { readPdfJob, pdfJobId, type PdfJobRow } from '@portal/pdf-jobs';
import type { Redis } from '@portal/server-kit';
import { IRIS_PDF_KIND } from './reports';

// The IRiS service's SQL: its reports (iris.reports), the requests they belong to, their PDF jobs.

export interface ReportRow {
  id: string;
  request_id: string;
  user_id: string;
  lat: number;
  lng: number;
  data: IrisReportData;
  high_res_status: HighResStatus | null;
  high_res_counts: Record<string, number> | null;
  aerial_view: string | null;
  aerial_key: string | null;
  /** The survey (geo.imagery_coverage) the chosen aerial picture came from, and its capture date (YYYY-MM-DD). */
  aerial_survey_id: string | null;
  aerial_captured_on: string | null;
  imagery_at: Date | null;
  version: number;
  created_at: Date;
  grip_reference: string;
  address: string | null;
}

// The capture date as text (YYYY-MM-DD): a calendar date, never shifted by a time zone.
const REPORT_COLUMNS = `rep.*, rep.aerial_captured_on::text AS aerial_captured_on, req.grip_reference, req.address`;

export async function readReport(ds: DataSource, id: string): Promise<ReportRow | null> {
  const [row] = (await ds.query(
    `SELECT ${REPORT_COLUMNS} FROM iris.reports rep JOIN requests.requests req ON req.id = rep.request_id
     WHERE rep.id = $1`,
    [id],
  )) as ReportRow[];
  return row ?? null;
}

export async function readReportOfRequest(ds: DataSource, requestId: string): Promise<ReportRow | null> {
  const [row] = (await ds.query(
    `SELECT ${REPORT_COLUMNS} FROM iris.reports rep JOIN requests.requests req ON req.id = rep.request_id
     WHERE rep.request_id = $1`,
    [requestId],
  )) as ReportRow[];
  return row ?? null;
}

/** The job of the report's current version, or null when it was never asked for. */
export const currentJob = (ds: DataSource, report: Pick<ReportRow, 'id' | 'version'>) =>
  readPdfJob(ds, pdfJobId(IRIS_PDF_KIND, report.id, report.version));

/** The newest finished PDF of the report (any version): what download serves. */
export async function latestDonePdf(ds: DataSource, reportId: string): Promise<PdfJobRow | null> {
  const [row] = (await ds.query(
    `SELECT * FROM pdf.jobs WHERE kind = $1 AND subject_id = $2 AND state = 'done' ORDER BY version DESC LIMIT 1`,
    [IRIS_PDF_KIND, reportId],
  )) as PdfJobRow[];
  return row ?? null;
}

/** The request a report is asked for (PUT /api/v1.0/iris): what the checks and the answer need. */
export interface IrisRequestRow {
  id: string;
  grip_reference: string;
  request_type: string;
  user_id: string;
  address: string;
  created_at: Date;
  status: string;
  lat: number | null;
  lng: number | null;
}

export async function readIrisRequest(ds: DataSource, requestId: string): Promise<IrisRequestRow | null> {
  const [row] = (await ds.query(
    `SELECT id, grip_reference, request_type, user_id, address, created_at, status,
              ST_Y(point) AS lat, ST_X(point) AS lng
       FROM requests.requests WHERE id = $1`,
    [requestId],
  )) as IrisRequestRow[];
  return row ?? null;
}

/** Stores a request's report (one per request: a second insert of the same request changes nothing). */
export async function insertReport(
  ds: DataSource,
  report: { requestId: string; userId: string; lat: number; lng: number; data: IrisReportData },
): Promise<void> {
  await ds.query(
    `INSERT INTO iris.reports (request_id, user_id, lat, lng, data) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (request_id) DO NOTHING`,
    [report.requestId, report.userId, report.lat, report.lng, JSON.stringify(report.data)],
  );
}

/** A new version of the report (regenerate: its PDF is made anew). */
export async function bumpReportVersion(ds: DataSource, reportId: string): Promise<void> {
  await ds.query('UPDATE iris.reports SET version = version + 1, updated_at = now() WHERE id = $1', [
    reportId,
  ]);
}

/** The report's aerial picture is gone (imagery/clean). */
export async function clearAerial(ds: DataSource, reportId: string): Promise<void> {
  await ds.query(
    `UPDATE iris.reports SET aerial_key = NULL, aerial_survey_id = NULL, aerial_captured_on = NULL, updated_at = now()
       WHERE id = $1`,
    [reportId],
  );
}

/** The high-resolution imagery status the screen found, with the counts it was chosen from. */
export async function saveHighResStatus(
  ds: DataSource,
  reportId: string,
  status: HighResStatus,
  counts: Record<string, number>,
): Promise<void> {
  await ds.query(
    `UPDATE iris.reports SET high_res_status = $2, high_res_counts = $3, imagery_at = now(), updated_at = now()
       WHERE id = $1`,
    [reportId, status, JSON.stringify(counts)],
  );
}

/** The aerial view the user chose, stored under `key`, with the survey it was taken in (null: none known). */
export async function saveAerial(
  ds: DataSource,
  reportId: string,
  aerial: { viewId: string; key: string; survey: AerialSurvey | null },
): Promise<void> {
  await ds.query(
    `UPDATE iris.reports SET aerial_view = $2, aerial_key = $3, aerial_survey_id = $4, aerial_captured_on = $5,
            updated_at = now()
       WHERE id = $1`,
    [reportId, aerial.viewId, aerial.key, aerial.survey?.id ?? null, aerial.survey?.capturedOn ?? null],
  );
}

/** An imagery survey (a row of the locator's geo.imagery_coverage) as far as a report's picture needs it. */
export interface AerialSurvey {
  id: string;
  /** YYYY-MM-DD. */
  capturedOn: string;
  /** Whether its coverage holds the report's point. */
  covers: boolean;
}

/**
 * The survey a picture of `point` came from: `surveyId` when the screen named one (null when there is no
 * such survey), else the newest survey covering the point — what the locator's imagery calls answer from
 * without `survey` (null outside coverage). Read from the locator's table, not taken from the browser: the
 * PDF prints the date the portal knows.
 */
export async function readAerialSurvey(
  ds: DataSource,
  surveyId: number | null,
  point: { lat: number; lng: number },
): Promise<AerialSurvey | null> {
  const covers = 'ST_Intersects(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326))';
  const [row] = (await ds.query(
    surveyId === null
      ? `SELECT id::text, captured_on::text AS "capturedOn", true AS covers FROM geo.imagery_coverage
          WHERE ${covers} ORDER BY captured_on DESC, id DESC LIMIT 1`
      : `SELECT id::text, captured_on::text AS "capturedOn", ${covers} AS covers FROM geo.imagery_coverage
          WHERE id = $3`,
    surveyId === null ? [point.lng, point.lat] : [point.lng, point.lat, surveyId],
  )) as AerialSurvey[];
  return row ?? null;
}

/**
 * After a PDF is stored (the worker's afterDone): the request gets its link (a 'pdfReports' key, which the
 * request list turns into the IRiS download) and the report id, and — the first time — moves to Finalised
 * with the date, recorded in its history, in one transaction; then the grids hear of it.
 */
export async function finaliseRequest(
  ds: DataSource,
  bus: { redis: Redis; redisPrefix: string } | null,
  job: PdfJobRow,
): Promise<void> {
  const changed = await ds.transaction(async (em) => {
    const [request] = (await em.query(
      `SELECT id, status, user_id FROM requests.requests
       WHERE id = (SELECT request_id FROM iris.reports WHERE id = $1) FOR UPDATE`,
      [job.subject_id],
    )) as { id: string; status: string; user_id: string }[];
    if (!request) return null;
    const finalising = request.status !== 'Finalised';
    await em.query(
      `UPDATE requests.requests
       SET report_pdf_url = $2, report_id = $3, version = version + 1,
           status = 'Finalised', date_finalised = COALESCE(date_finalised, now())
       WHERE id = $1`,
      [request.id, job.file_key, job.subject_id],
    );
    if (finalising)
      await em.query(
        `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value, comment)
         VALUES ($1, NULL, 'IRiS', 'status', $2, 'Finalised', $3)`,
        [request.id, request.status, `Risk report PDF ready (version ${job.version}).`],
      );
    // Webhook events with the change (the outbox): the PDF, and the status when it moved.
    if (finalising) await recordRequestEvents(em, 'request.status_changed', [request.id]);
    await recordRequestEvents(em, 'report.ready', [request.id]);
    // The requester is told the report is ready (issue 24): once, when the first PDF finalises the request.
    if (finalising)
      await recordNotifications(em, {
        kind: 'report.ready',
        requestIds: [request.id],
        to: 'requester',
        actorId: null,
      });
    return request;
  });
  if (!changed || !bus) return;
  const event: RequestUpdatedEvent = { ids: [changed.id], userIds: [changed.user_id] };
  await bus.redis
    .publish(requestUpdatedChannel(bus.redisPrefix), JSON.stringify(event))
    .catch(() => undefined);
}
