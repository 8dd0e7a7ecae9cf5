import type { Queue } from 'bullmq';
import {
  DEFAULT_VAT_PERCENTAGE,
  REPORT_SUBMITTED_STATUSES,
  isReportSubmittedStatus,
} from '@portal/contracts';
import { readReportState } from '@portal/db';
import { totalsOf, versionOf, type ReportState } from '@portal/domain';
import {
  ensurePdfJob,
  pdfJobId,
  readPdfJob,
  recordPdfJob,
  type PdfJobData,
  type PdfJobInput,
  type PdfJobRow,
  type Sql,
} from './jobs';

/**
 * The SAVi report's PDF jobs (spec 02 §4.4 "Submitting the report generates the report"): kind 'savi', one
 * job per report version (`savi-{requestID}-v{version}`), rendered by services/reportbuilder's worker from
 * the queue 'reportbuilder-pdf'. The report builder queues them when asked (preview, ready poll, download);
 * services/requests when a report is submitted, and its worker when a zip needs one — so a submitted
 * report always has the PDF and RVETotal of its current version, whatever the browser does.
 */

/** The PDF kind of SAVi reports in pdf.jobs (and the folder of their files: pdfReports/savi/…). */
export const SAVI_PDF_KIND = 'savi';

/**
 * Where the newest PDF of a request's report is also kept (the report builder's worker copies it there):
 * the request's report_pdf_url, which holds 'savi', so the request list links it to the download.
 */
export const saviReportPdfKey = (requestId: string) => `reports/savi/${requestId}.pdf`;

/**
 * REPORTBUILDER_VAT_PERCENTAGE: the VAT rate (percent) a report starts with, as the report builder and
 * services/requests (pricing a report submitted before its first save) both read it; 15 % by default.
 */
export function reportVatFromEnv(env: Record<string, string | undefined>): number {
  const vat = Number(env.REPORTBUILDER_VAT_PERCENTAGE ?? DEFAULT_VAT_PERCENTAGE);
  return Number.isFinite(vat) && vat >= 0 && vat <= 100 ? vat : DEFAULT_VAT_PERCENTAGE;
}

/** The job of a report's current version: the report's row kept in its payload (the PDF shows that version). */
export const saviJobInput = (state: ReportState, userId: string | null): PdfJobInput => ({
  kind: SAVI_PDF_KIND,
  subjectId: state.request.id,
  version: versionOf(state),
  userId,
  payload: { row: state.row },
});

/** The job of the report's current version, or null when it was never asked for. */
export const currentSaviJob = (db: Sql, state: ReportState) =>
  readPdfJob(db, pdfJobId(SAVI_PDF_KIND, state.request.id, versionOf(state)));

/**
 * Submission's part, inside the change's transaction (the request's row locked by the caller): the report's
 * grand total (libs/domain totalsOf, as GET reportbuilder/totals prices it) for the request's RVETotal, and
 * the PDF job of the submitted version recorded (queued once the change commits: ensureSubmittedPdf).
 * Null for a request that has no SAVi report (another type, or no such request).
 */
export async function recordSubmittedReport(
  db: Sql,
  requestId: string,
  options: { defaultVat: number; userId: string | null },
): Promise<{ rveTotal: number; job: PdfJobRow } | null> {
  const state = await readReportState(db, requestId, { defaultVat: options.defaultVat });
  if (!state || state.request.requestType !== 'SAVI') return null;
  const job = await recordPdfJob(db, saviJobInput(state, options.userId));
  return { rveTotal: totalsOf(state).grandTotal, job };
}

/**
 * Makes sure a submitted SAVi report's current version has its PDF (queued, running or done): queues it when
 * it is missing, failed or lost from the queue. Null when the request is not a submitted SAVI request.
 * Cheap when the PDF is done (two short queries), so it can follow every change of a submitted request.
 */
export async function ensureSubmittedPdf(
  db: Sql,
  queue: Queue<PdfJobData>,
  requestId: string,
  options: { defaultVat: number; userId: string | null },
): Promise<PdfJobRow | null> {
  const [known] = (await db.query(
    `SELECT r.request_type, r.status, COALESCE(rep.version, 0) AS version
       FROM requests.requests r LEFT JOIN reportbuilder.reports rep ON rep.request_id = r.id
      WHERE r.id = $1`,
    [requestId],
  )) as { request_type: string; status: string; version: number }[];
  if (!known || known.request_type !== 'SAVI' || !isReportSubmittedStatus(known.status)) return null;
  const done = await readPdfJob(db, pdfJobId(SAVI_PDF_KIND, requestId, known.version));
  if (done?.state === 'done') return done;
  const state = await readReportState(db, requestId, { defaultVat: options.defaultVat });
  return state && ensurePdfJob(db, queue, saviJobInput(state, options.userId));
}

/**
 * ensureSubmittedPdf for several requests (after a change of many): one query finds those submitted SAVI
 * requests whose current version's PDF is not done, and only they are looked at. Answers their jobs.
 */
export async function ensureSubmittedPdfs(
  db: Sql,
  queue: Queue<PdfJobData>,
  requestIds: string[],
  options: { defaultVat: number; userId: string | null },
): Promise<PdfJobRow[]> {
  if (requestIds.length === 0) return [];
  const pending = (await db.query(
    `SELECT r.id FROM requests.requests r
       LEFT JOIN reportbuilder.reports rep ON rep.request_id = r.id
      WHERE r.id = ANY($1::uuid[]) AND r.request_type = 'SAVI' AND r.status = ANY($2::text[])
        AND NOT EXISTS (SELECT 1 FROM pdf.jobs j
                         WHERE j.id = $3 || '-' || r.id || '-v' || COALESCE(rep.version, 0) AND j.state = 'done')
      ORDER BY r.id`,
    [requestIds, [...REPORT_SUBMITTED_STATUSES], SAVI_PDF_KIND],
  )) as { id: string }[];
  const jobs: PdfJobRow[] = [];
  for (const { id } of pending) {
    const job = await ensureSubmittedPdf(db, queue, id, options);
    if (job) jobs.push(job);
  }
  return jobs;
}

/** The newest finished PDF of a request's report (any version). */
export async function latestDoneSaviPdf(db: Sql, requestId: string): Promise<PdfJobRow | null> {
  const rows = (await db.query(
    `SELECT * FROM pdf.jobs WHERE kind = $1 AND subject_id = $2 AND state = 'done'
     ORDER BY version DESC, finished_at DESC NULLS LAST LIMIT 1`,
    [SAVI_PDF_KIND, requestId],
  )) as PdfJobRow[];
  return rows[0] ?? null;
}

const FINISHED: readonly string[] = ['done', 'failed', 'cancelled'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a job's row until it is finished (done, failed, cancelled) or `timeoutMs` has passed; answers it. */
export async function waitForPdfJob(db: Sql, job: PdfJobRow, timeoutMs: number): Promise<PdfJobRow> {
  const deadline = Date.now() + timeoutMs;
  let current = job;
  while (!FINISHED.includes(current.state) && Date.now() < deadline) {
    await sleep(Math.min(200, Math.max(0, deadline - Date.now())));
    current = (await readPdfJob(db, job.id)) ?? current;
  }
  return current;
}
