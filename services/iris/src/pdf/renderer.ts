import type { DataSource } from 'typeorm';
import { imageDataUrl, pageFooterOptions, type PdfRenderer } from '@portal/pdf-jobs';
import { recordRequestUsage, type Redis, type Storage } from '@portal/server-kit';
import { finaliseRequest, readReport } from '../store';
import { irisReportHtml } from './template';

/**
 * The IRiS kind of PDF: the HTML of a report (its stored data and, when there is one, the chosen aerial
 * picture) and, once the PDF is stored, the request's link and status (finaliseRequest).
 */
export function irisPdfRenderer(deps: {
  ds: DataSource;
  storage: Storage;
  redis: Redis | null;
  /** The portal's Redis prefix (its channels). */
  redisPrefix: string;
}): PdfRenderer {
  return {
    async html(job) {
      const report = await readReport(deps.ds, job.subject_id);
      if (!report) throw new Error(`IRiS report ${job.subject_id} does not exist.`);
      const aerial = report.aerial_key ? await deps.storage.get(report.aerial_key) : null;
      return irisReportHtml({
        gripReference: report.grip_reference,
        address: report.address,
        data: report.data,
        version: job.version,
        aerialDataUrl: aerial ? imageDataUrl(aerial) : null,
        aerialView: aerial ? report.aerial_view : null,
        aerialCapturedOn: aerial ? report.aerial_captured_on : null,
        highResStatus: report.high_res_status,
        madeAt: new Date().toISOString(),
      });
    },
    afterDone: async (job) => {
      await finaliseRequest(deps.ds, deps.redis && { redis: deps.redis, redisPrefix: deps.redisPrefix }, job);
      // Usage metering: one PDF generated, for the request's group (docs/architecture.md "Usage metering").
      const [report] = (await deps.ds
        .query(`SELECT request_id FROM iris.reports WHERE id = $1`, [job.subject_id])
        .catch(() => [])) as { request_id: string }[];
      if (report) await recordRequestUsage(deps.ds, report.request_id, 'iris', 'pdf');
    },
    pdfOptions: pageFooterOptions('IRiS risk report'),
  };
}
