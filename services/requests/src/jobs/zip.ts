import { PassThrough } from 'node:stream';
import archiver from 'archiver';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { isReportSubmittedStatus } from '@portal/contracts';
import { ensureSubmittedPdf, waitForPdfJob, type PdfJobData } from '@portal/pdf-jobs';
import type { Storage } from '@portal/server-kit';
import type { ZipParams } from './consoleJobs';

/**
 * Where a submitted report's PDF comes from when the zip needs one that is not made yet: the report
 * builder's queue, and how long the zip waits for it.
 */
export interface ReportPdfSource {
  queue: Queue<PdfJobData>;
  defaultVat: number;
  waitMs: number;
}

export const ZIP_TEXT = {
  pdfNotReady: (grip: string) =>
    `The PDF of ${grip}'s report is not made yet; the zip is tried again once it is.`,
} as const;

interface ZipRequest {
  id: string;
  grip_reference: string;
  status: string;
  request_type: string;
}

/**
 * A request's report PDF as a stream, or null when it has none. A submitted SAVI report (QC check and
 * later) always has one: its current version's, queued here should it be missing and waited for; one not
 * made within the wait fails this try of the zip (BullMQ tries it again) rather than leave it out.
 */
async function reportPdf(ds: DataSource, storage: Storage, request: ZipRequest, pdfs?: ReportPdfSource) {
  if (pdfs && request.request_type === 'SAVI' && isReportSubmittedStatus(request.status)) {
    let job = await ensureSubmittedPdf(ds, pdfs.queue, request.id, {
      defaultVat: pdfs.defaultVat,
      userId: null,
    });
    if (job && job.state !== 'done') job = await waitForPdfJob(ds, job, pdfs.waitMs);
    const file = job?.state === 'done' && job.file_key ? await storage.stream(job.file_key) : null;
    if (!file) throw new Error(ZIP_TEXT.pdfNotReady(request.grip_reference));
    return file;
  }
  return storage.stream(reportPdfKey(request.id));
}

/** Where the report builder keeps a request's report PDF (docs/decisions.md "The zip of reports"). */
export const reportPdfKey = (requestId: string) => `reports/savi/${requestId}.pdf`;

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Spec 02 §7.2 createzip: the selected requests' report PDFs in one zip, streamed into the storage (each
 * PDF read as a stream, one at a time), with manifest.csv listing every selected request and whether its
 * report is in the zip (a submitted report's always is: `pdfs` makes a missing one). Answers how many
 * reports it holds.
 */
export async function writeReportsZip(
  ds: DataSource,
  storage: Storage,
  key: string,
  params: ZipParams,
  onProgress: (done: number, total: number) => Promise<void>,
  pdfs?: ReportPdfSource,
): Promise<number> {
  const requests = (await ds.query(
    `SELECT id, grip_reference, status, request_type FROM requests.requests WHERE id = ANY($1::uuid[])
      ORDER BY grip_reference`,
    [params.ids],
  )) as ZipRequest[];
  const output = new PassThrough();
  const stored = storage.put(key, output, { contentType: 'application/zip' });
  const archive = archiver('zip', { zlib: { level: 6 } });
  const failed = new Promise<never>((_resolve, reject) => archive.on('error', reject));
  failed.catch(() => undefined);
  archive.pipe(output);

  const manifest = ['GRiP reference,request id,status,report'];
  let included = 0;
  for (const [index, request] of requests.entries()) {
    const pdf = await reportPdf(ds, storage, request, pdfs);
    if (pdf) {
      const added = new Promise((resolve) => archive.once('entry', resolve));
      archive.append(pdf.stream, { name: `${request.grip_reference}.pdf` });
      await Promise.race([added, failed]);
      included++;
    }
    manifest.push(
      [
        request.grip_reference,
        request.id,
        request.status,
        pdf ? `${request.grip_reference}.pdf` : 'no report yet',
      ]
        .map(csvCell)
        .join(','),
    );
    await onProgress(index + 1, requests.length);
  }
  const missing = params.ids.filter((id) => !requests.some((request) => request.id === id));
  for (const id of missing) manifest.push(['', id, '', 'no such request'].map(csvCell).join(','));
  archive.append(`${manifest.join('\n')}\n`, { name: 'manifest.csv' });
  await Promise.race([archive.finalize(), failed]);
  await stored;
  return included;
}
