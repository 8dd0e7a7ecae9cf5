import { Worker, type Job } from 'bullmq';
import type { PDFOptions } from 'puppeteer-core';
import { bullConnection, type Storage } from '@portal/server-kit';
import type { BrowserPool } from './browser';
import {
  PDF_JOB_ATTEMPTS,
  pdfFileKey,
  readPdfJob,
  updatePdfJob,
  type PdfJobData,
  type PdfJobRow,
  type Sql,
} from './jobs';

/** What a kind of PDF contributes: the HTML of a job (from the rows it names) and what follows a success. */
export interface PdfRenderer {
  /** The whole document: inline CSS, SVG charts and images as data URLs (the page loads nothing else). */
  html(job: PdfJobRow): Promise<string>;
  /** Runs after the PDF is stored and the job marked done (e.g. the request's PDF link). */
  afterDone?(job: PdfJobRow): Promise<void>;
  pdfOptions?: PDFOptions;
}

export interface PdfWorkerOptions {
  queueName: string;
  redisUrl: string;
  prefix: string;
  db: Sql;
  storage: Storage;
  pool: BrowserPool;
  renderers: Record<string, PdfRenderer>;
  /** Jobs one process renders at once, each in its own page of the one browser (default 2). */
  concurrency?: number;
  /**
   * A job's time limit (default 20 s). It stays below the lock duration (default 30 s), so a job that hangs
   * is failed by its own worker before BullMQ would take it for stalled and hand it to another.
   */
  jobTimeoutMs?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  log?: (level: 'info' | 'error', msg: string, detail?: Record<string, unknown>) => void;
  /** Told how long each job try ran and how it ended (the worker process's duration histogram). */
  onJobTry?: (outcome: 'completed' | 'cancelled' | 'failed', seconds: number) => void;
}

export interface PdfWorkerStats {
  completed: number;
  failed: number;
  cancelled: number;
  seconds: number[];
}

export class PdfJobTimeoutError extends Error {
  constructor(ms: number) {
    super(`The PDF took longer than ${ms / 1000} s to render.`);
    this.name = 'PdfJobTimeoutError';
  }
}

const DEFAULT_PDF: PDFOptions = {
  format: 'A4',
  printBackground: true,
  margin: { top: '14mm', bottom: '16mm', left: '12mm', right: '12mm' },
};

/** Rejects after `ms` (and runs `onTimeout`, which should stop the work) unless `work` settles first. */
async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new PdfJobTimeoutError(ms));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Renders one job: marks its row running, builds the HTML, prints it in a page of the pool's browser,
 * stores the PDF under the job's own key (a rerun overwrites the same file: one PDF per job whatever
 * happened before) and records the outcome. A job cancelled meanwhile is discarded. Throws on failure so
 * BullMQ retries it (with backoff); the last try's failure is recorded as failed.
 */
export async function renderPdfJob(
  options: Pick<PdfWorkerOptions, 'db' | 'storage' | 'pool' | 'renderers' | 'jobTimeoutMs'>,
  jobId: string,
  control: { lastAttempt: boolean; progress?: (percent: number) => Promise<void> },
): Promise<PdfJobRow | null> {
  const { db, storage, pool } = options;
  const row = await readPdfJob(db, jobId);
  if (!row || row.state === 'done' || row.state === 'cancelled') return row;
  const renderer = options.renderers[row.kind];
  const progress = async (percent: number) => {
    await control.progress?.(percent);
    await updatePdfJob(db, jobId, 'progress = $2', [percent], `state = 'running'`);
  };
  const running = await updatePdfJob(
    db,
    jobId,
    `state = 'running', progress = 5, attempts = attempts + 1, started_at = now(), error = NULL`,
    [],
    `state IN ('queued', 'running')`,
  );
  if (!running) return readPdfJob(db, jobId);
  const timeoutMs = options.jobTimeoutMs ?? 20_000;
  try {
    if (!renderer) throw new Error(`No renderer for PDF kind '${row.kind}'.`);
    const html = await renderer.html(running);
    await progress(30);
    let openPage: { close(): Promise<void> } | null = null;
    const pdf = await withTimeout(
      pool.withPage(async (page) => {
        openPage = page;
        await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
        await progress(60);
        return page.pdf({ ...DEFAULT_PDF, ...renderer.pdfOptions, timeout: timeoutMs });
      }),
      timeoutMs,
      () => void openPage?.close().catch(() => undefined),
    );
    await progress(90);
    const current = await readPdfJob(db, jobId);
    if (current?.state !== 'running') return current; // cancelled while rendering: nothing is stored
    const key = pdfFileKey(row.kind, row.subject_id, row.version);
    await storage.put(key, Buffer.from(pdf), { contentType: 'application/pdf' });
    const done = await updatePdfJob(
      db,
      jobId,
      `state = 'done', progress = 100, file_key = $2, bytes = $3, finished_at = now()`,
      [key, pdf.byteLength],
      `state = 'running'`,
    );
    if (!done) {
      await storage.delete(key).catch(() => false);
      return readPdfJob(db, jobId);
    }
    await control.progress?.(100);
    await renderer.afterDone?.(done);
    return done;
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    await updatePdfJob(
      db,
      jobId,
      control.lastAttempt
        ? `state = 'failed', error = $2, finished_at = now()`
        : `state = 'queued', error = $2`,
      [message],
      `state = 'running'`,
    );
    throw err;
  }
}

/**
 * The BullMQ worker of a PDF queue. A worker killed mid-job leaves its job locked until the lock expires;
 * the stalled check then hands it to a live worker (this process after a restart, or another), which
 * renders it again under the same key. Several workers on one queue share the jobs: BullMQ gives a job to
 * one worker at a time.
 */
export function startPdfWorker(options: PdfWorkerOptions): {
  worker: Worker<PdfJobData>;
  stats: PdfWorkerStats;
} {
  const stats: PdfWorkerStats = { completed: 0, failed: 0, cancelled: 0, seconds: [] };
  const worker = new Worker<PdfJobData>(
    options.queueName,
    async (job: Job<PdfJobData>) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      let row: Awaited<ReturnType<typeof renderPdfJob>>;
      try {
        row = await renderPdfJob(options, job.data.jobId, {
          lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? PDF_JOB_ATTEMPTS),
          progress: (percent) => job.updateProgress(percent),
        });
      } catch (err) {
        options.onJobTry?.('failed', seconds());
        throw err;
      }
      if (row?.state === 'cancelled') stats.cancelled++;
      stats.seconds.push(seconds());
      if (stats.seconds.length > 1000) stats.seconds.shift();
      options.onJobTry?.(row?.state === 'cancelled' ? 'cancelled' : 'completed', seconds());
      return { state: row?.state ?? 'missing' };
    },
    {
      connection: bullConnection(options.redisUrl),
      prefix: options.prefix,
      concurrency: options.concurrency ?? 2,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 15_000,
      maxStalledCount: 2,
    },
  );
  worker.on('completed', () => stats.completed++);
  worker.on('failed', (job, err) => {
    stats.failed++;
    options.log?.('error', 'pdf job try failed', {
      jobId: job?.id,
      attempt: job?.attemptsMade,
      err: err.message,
    });
  });
  worker.on('error', (err) => options.log?.('error', 'pdf worker error', { err: err.message }));
  return { worker, stats };
}
