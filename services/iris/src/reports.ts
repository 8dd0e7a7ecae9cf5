import {
  IRIS_PREPARE_TIMEOUT_MS,
  type CanGenerateAnswer,
  type IrisReport,
  type PdfState,
} from '@portal/contracts';
import type { PdfJobRow } from '@portal/pdf-jobs';
import type { ReportRow } from './store';

/** The PDF kind of IRiS reports in pdf.jobs (and the folder of their files: pdfReports/iris/…). */
export const IRIS_PDF_KIND = 'iris';

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
