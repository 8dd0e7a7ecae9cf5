import type { FastifyBaseLogger } from 'fastify';
import type { EntityManager } from 'typeorm';
import { isReportSubmittedStatus, type RequestRow } from '@portal/contracts';
import { ensureSubmittedPdfs, recordSubmittedReport } from '@portal/pdf-jobs';
import type { RequestsContext } from '../context';
import type { RowChange } from './changes';
import type { RequestDbRow } from './rows';

/**
 * Spec 02 §4.4 "Submitting the report generates the report", done by the server (issue 22): a SAVI request
 * that enters a submitted status (QC check, Dispatch, Delivered, Finalised — by submit or by a status
 * change) gets, in the change's transaction, its RVETotal (the report's grand total, priced as GET
 * reportbuilder/totals prices it) and the PDF job of its report's current version; once the change commits
 * the job is queued for the report builder's worker. The browser asks for nothing.
 */

/**
 * The columns a change into `to` adds (inside its transaction, the row locked): rve_total when the request
 * enters a submitted status; nothing otherwise (or for a request with no SAVi report).
 */
export async function submissionChange(
  em: EntityManager,
  ctx: RequestsContext,
  input: { row: RequestDbRow; to: string; userId: string },
): Promise<RowChange> {
  const { row, to } = input;
  if (!isReportSubmittedStatus(to) || isReportSubmittedStatus(row.status)) return {};
  const submitted = await recordSubmittedReport(em, row.id, {
    defaultVat: ctx.config.reportVatPercentage,
    userId: input.userId,
  });
  return submitted ? { rve_total: submitted.rveTotal } : {};
}

/**
 * After a change commits: the changed requests that are submitted and lack their current PDF get it queued.
 * A failure here (Redis away) does not undo the committed change: the report builder's ready poll and
 * download, and the zip, queue a missing PDF again.
 */
export async function queueSubmittedPdfs(
  ctx: RequestsContext,
  rows: RequestRow[],
  userId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const ids = rows.filter((row) => isReportSubmittedStatus(row.status)).map((row) => row.requestID);
  if (ids.length === 0) return;
  try {
    await ensureSubmittedPdfs(ctx.ds, ctx.pdfQueue, ids, {
      defaultVat: ctx.config.reportVatPercentage,
      userId,
    });
  } catch (err) {
    log.error({ err, ids }, 'the PDFs of submitted reports could not be queued');
  }
}
