import type { DataSource } from 'typeorm';
import { recordRequestEvents } from '@portal/db';
import { formatSaIsoDate } from '@portal/domain';
import { SAVI_PDF_KIND, saviReportPdfKey, type PdfJobRow } from '@portal/pdf-jobs';
import { readReport, totalsOf, type ReportRow, type ReportState } from '../store';

/**
 * The SAVi report PDF (spec 02 §1, §7.1; issue 13) over libs/pdf-jobs: kind 'savi', one job per report
 * version (`savi-{requestID}-v{version}`, the file `pdfReports/savi/{requestID}/v{version}.pdf`), rendered by
 * src/worker.ts from the queue 'reportbuilder-pdf'. After a PDF is stored the worker copies it to the key
 * services/requests' zip reads and gives the request its link and RVE total (finaliseReportPdf).
 */

// The kind, the zip's key and the jobs of a version: libs/pdf-jobs savi.ts (services/requests queues them too).
export { SAVI_PDF_KIND, currentSaviJob, latestDoneSaviPdf, saviReportPdfKey } from '@portal/pdf-jobs';

// ------------------------------------------------------------------------------------------- file name

/** What a group's report name format may name (besides its reference keys). */
export interface ReportNameValues {
  gripReference: string;
  address: string;
  groupName: string;
  groupCode: string;
  /** The request's references, keyed by the group's reference keys (POLICY_NUMBER …). */
  references: Record<string, string>;
  /** YYYY-MM-DD (South African time) of the PDF. */
  date: string;
}

/** Characters a file name never carries (path separators, quotes, control characters, Windows' reserved). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/**
 * The download's file name from the group's report name format (spec 03 §3 group reportNameFormat; the
 * groups grid edits it as free text, e.g. `{ref}-{address}`). Placeholders, case-insensitive:
 * `{ref}`, `{grip}`, `{gripReference}` → the GRiP reference; `{address}` → the report's address;
 * `{group}` → the group's name; `{code}` → the group's code; `{date}` → the PDF's date (YYYY-MM-DD); any
 * reference key of the group (`{POLICY_NUMBER}`, …) → the request's value of it (empty when not given).
 * An unknown placeholder is left out. Characters a file name cannot hold become '-', white space is
 * collapsed, the name is cut to 150 characters and '.pdf' added. An empty format, or one that leaves
 * nothing, gives `SAVi-{GRiP}.pdf`.
 */
export function reportFileName(format: string | null | undefined, values: ReportNameValues): string {
  const fallback = `SAVi-${values.gripReference}.pdf`;
  const text = (format ?? '').trim();
  if (text === '') return fallback;
  const references = new Map(
    Object.entries(values.references).map(([key, value]) => [key.toUpperCase(), String(value ?? '')]),
  );
  const named: Record<string, string> = {
    REF: values.gripReference,
    GRIP: values.gripReference,
    GRIPREFERENCE: values.gripReference,
    ADDRESS: values.address,
    GROUP: values.groupName,
    CODE: values.groupCode,
    DATE: values.date,
  };
  const filled = text.replace(/\{\s*([A-Za-z0-9_ ]+?)\s*\}/g, (_, name: string) => {
    const key = name.toUpperCase();
    return named[key.replace(/[\s_]/g, '')] ?? named[key] ?? references.get(key) ?? '';
  });
  const cleaned = filled
    .replace(/\.pdf$/i, '')
    .replace(UNSAFE, '-')
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-')
    .replace(/^[\s.\-,]+|[\s.\-,]+$/g, '')
    .slice(0, 150)
    .trim();
  return cleaned === '' ? fallback : `${cleaned}.pdf`;
}

/** A Content-Disposition header for a file name (ASCII fallback plus the UTF-8 name, RFC 6266). */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The request's naming data and its group's report name format (the group the totals use). */
export async function reportNameInput(
  ds: DataSource,
  state: ReportState,
  date: Date,
): Promise<{ format: string; values: ReportNameValues }> {
  const [row] = (await ds.query(
    `SELECT g.report_name_format, g.code, r.reference
       FROM requests.requests r
       LEFT JOIN identity.groups g ON g.id = COALESCE(r.for_group_id, r.group_id)
      WHERE r.id = $1`,
    [state.request.id],
  )) as {
    report_name_format: string | null;
    code: string | null;
    reference: Record<string, unknown> | null;
  }[];
  return {
    format: row?.report_name_format ?? '',
    values: {
      gripReference: state.request.gripReference,
      address: state.row?.details.location || state.request.address,
      groupName: state.request.group?.name ?? '',
      groupCode: row?.code ?? '',
      references: Object.fromEntries(
        Object.entries(row?.reference ?? {}).map(([key, value]) => [key, String(value ?? '')]),
      ),
      date: formatSaIsoDate(date),
    },
  };
}

/** The file name of a request's report PDF (dated `date`, the PDF's). */
export async function saviFileName(ds: DataSource, state: ReportState, date = new Date()): Promise<string> {
  const { format, values } = await reportNameInput(ds, state, date);
  return reportFileName(format, values);
}

// -------------------------------------------------------------------------------------------- snapshot

/**
 * What a job renders: the report as it was when the job was queued (its row is kept in the job's payload,
 * so the PDF of version n shows version n even when the report was saved again meanwhile), with the
 * request, its group's settings and places as they are now.
 */
export async function jobState(ds: DataSource, job: PdfJobRow, defaultVat: number): Promise<ReportState> {
  const now = await readReport(ds, job.subject_id, defaultVat);
  const saved = (job.payload as { row?: (ReportRow & { updated_at: string | Date | null }) | null }).row;
  if (saved === undefined) return now;
  return {
    ...now,
    row: saved ? { ...saved, updated_at: saved.updated_at ? new Date(saved.updated_at) : null } : null,
  };
}

// ------------------------------------------------------------------------------------------- after done

/**
 * After a PDF is stored (the worker's afterDone), in one transaction under the request's row lock: the
 * request's report_pdf_url (the zip's key, which holds 'savi') and rve_total (the grand total of the
 * version the PDF shows, libs/domain reportTotals). The status is not touched: submission moves it
 * (services/requests). A PDF of an older version than one already recorded changes nothing.
 */
export async function finaliseReportPdf(
  ds: DataSource,
  job: PdfJobRow,
  defaultVat: number,
): Promise<{ grandTotal: number } | null> {
  const { grandTotal } = totalsOf(await jobState(ds, job, defaultVat));
  return ds.transaction(async (em) => {
    const locked = (await em.query('SELECT id FROM requests.requests WHERE id = $1 FOR UPDATE', [
      job.subject_id,
    ])) as { id: string }[];
    if (locked.length === 0) return null;
    // Only the newest finished version speaks for the request.
    const newer = (await em.query(
      `SELECT 1 FROM pdf.jobs WHERE kind = $1 AND subject_id = $2 AND state = 'done' AND version > $3 LIMIT 1`,
      [SAVI_PDF_KIND, job.subject_id, job.version],
    )) as unknown[];
    if (newer.length > 0) return null;
    await em.query(
      `UPDATE requests.requests SET report_pdf_url = $2, rve_total = $3, version = version + 1, updated_at = now()
        WHERE id = $1`,
      [job.subject_id, saviReportPdfKey(job.subject_id), grandTotal],
    );
    // The webhook event with the change (the outbox).
    await recordRequestEvents(em, 'report.ready', [job.subject_id]);
    return { grandTotal };
  });
}
