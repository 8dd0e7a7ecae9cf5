import type { DataSource } from 'typeorm';
import type { PdfRenderer } from '@portal/pdf-jobs';
import type { Redis, Storage } from '@portal/server-kit';
import { finaliseRequest, readReport } from '../reports';
import { irisReportHtml } from './template';

/**
 * The IRiS kind of PDF: the HTML of a report (its stored data and, when there is one, the chosen aerial
 * picture) and, once the PDF is stored, the request's link and status (finaliseRequest).
 */
export function irisPdfRenderer(deps: {
  ds: DataSource;
  storage: Storage;
  redis: Redis | null;
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
        aerialDataUrl: aerial
          ? `data:${aerial.info.contentType};base64,${aerial.data.toString('base64')}`
          : null,
        aerialView: aerial ? report.aerial_view : null,
        highResStatus: report.high_res_status,
        madeAt: new Date().toISOString(),
      });
    },
    afterDone: (job) => finaliseRequest(deps.ds, deps.redis, job),
    pdfOptions: {
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate:
        '<div style="font-size:7pt;width:100%;text-align:center;color:#777">IRiS risk report · page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    },
  };
}
