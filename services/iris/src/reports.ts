import type { DataSource } from 'typeorm';
import {
  IRIS_PREPARE_TIMEOUT_MS,
  REQUEST_UPDATED_CHANNEL,
  type CanGenerateAnswer,
  type HighResStatus,
  type IrisReport,
  type IrisReportData,
  type PdfState,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import { latestPdfJob, readPdfJob, pdfJobId, type PdfJobRow } from '@portal/pdf-jobs';
import type { Redis } from '@portal/server-kit';

/** The PDF kind of IRiS reports in pdf.jobs (and the folder of their files: pdfReports/iris/…). */
export const IRIS_PDF_KIND = 'iris';

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
  imagery_at: Date | null;
  version: number;
  created_at: Date;
  grip_reference: string;
  address: string | null;
}

const REPORT_COLUMNS = `rep.*, req.grip_reference, req.address`;

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

export { latestPdfJob };

/**
 * Spec 03 §4 step 2: the PDF can be generated once the imagery step is done — the high-resolution status
 * reported and, when imagery is available, the chosen aerial picture received. Progress: 0 before the
 * status, 50 with it, 100 done. Past IRIS_PREPARE_TIMEOUT_MS the answer is timeout: true and the PDF may
 * be made without the picture (the PDF says so).
 */
export function canGenerate(report: ReportRow, now = Date.now()): CanGenerateAnswer {
  const statusKnown = report.high_res_status !== null;
  const imageryDone = statusKnown && (report.high_res_status !== 0 || report.aerial_key !== null);
  const progress = imageryDone ? 100 : statusKnown ? 50 : 0;
  const timedOut = !imageryDone && now - new Date(report.created_at).getTime() > IRIS_PREPARE_TIMEOUT_MS;
  return { success: true, progress, canGeneratePdf: imageryDone || timedOut, timeout: timedOut };
}

export function toIrisReport(report: ReportRow, job: PdfJobRow | null): IrisReport {
  return {
    _id: report.id,
    requestId: report.request_id,
    gripReference: report.grip_reference,
    address: report.address,
    created: new Date(report.created_at).toISOString(),
    data: report.data,
    highResStatus: report.high_res_status,
    aerialView: report.aerial_view,
    version: report.version,
    pdf: {
      state: (job?.state ?? 'none') as PdfState,
      progress: job ? Math.round(job.progress) : 0,
      error: job?.error ?? null,
    },
  };
}

/**
 * After a PDF is stored (the worker's afterDone): the request gets its link (a 'pdfReports' key, which the
 * request list turns into the IRiS download) and the report id, and — the first time — moves to Finalised
 * with the date, recorded in its history, in one transaction; then the grids hear of it.
 */
export async function finaliseRequest(ds: DataSource, redis: Redis | null, job: PdfJobRow): Promise<void> {
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
    return request;
  });
  if (!changed || !redis) return;
  const event: RequestUpdatedEvent = { ids: [changed.id], userIds: [changed.user_id] };
  await redis.publish(REQUEST_UPDATED_CHANNEL, JSON.stringify(event)).catch(() => undefined);
}
