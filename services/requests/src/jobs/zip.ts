import { PassThrough } from 'node:stream';
import archiver from 'archiver';
import type { DataSource } from 'typeorm';
import type { Storage } from '@portal/server-kit';
import type { ZipParams } from './consoleJobs';

/** Where the report builder keeps a request's report PDF (docs/decisions.md "The zip of reports"). */
export const reportPdfKey = (requestId: string) => `reports/savi/${requestId}.pdf`;

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Spec 02 §7.2 createzip: the selected requests' report PDFs in one zip, streamed into the storage (each
 * PDF read as a stream, one at a time), with manifest.csv listing every selected request and whether its
 * report is in the zip. Answers how many reports it holds.
 */
export async function writeReportsZip(
  ds: DataSource,
  storage: Storage,
  key: string,
  params: ZipParams,
  onProgress: (done: number, total: number) => Promise<void>,
): Promise<number> {
  const requests = (await ds.query(
    `SELECT id, grip_reference, status FROM requests.requests WHERE id = ANY($1::uuid[]) ORDER BY grip_reference`,
    [params.ids],
  )) as { id: string; grip_reference: string; status: string }[];
  const output = new PassThrough();
  const stored = storage.put(key, output, { contentType: 'application/zip' });
  const archive = archiver('zip', { zlib: { level: 6 } });
  const failed = new Promise<never>((_resolve, reject) => archive.on('error', reject));
  failed.catch(() => undefined);
  archive.pipe(output);

  const manifest = ['GRiP reference,request id,status,report'];
  let included = 0;
  for (const [index, request] of requests.entries()) {
    const pdf = await storage.stream(reportPdfKey(request.id));
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
