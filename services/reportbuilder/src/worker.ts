import 'reflect-metadata';
import closeWithGrace from 'close-with-grace';
import { PORTAL_QUEUES } from '@portal/contracts';
import { BrowserPool, startPdfWorker } from '@portal/pdf-jobs';
import { createRedis, createStorage, prometheusText, startWorkerEndpoints } from '@portal/server-kit';
import { loadReportBuilderConfig } from './config';
import { openDatabase } from './database';
import { SAVI_PDF_KIND } from './pdf/report';
import { saviPdfRenderer } from './pdf/renderer';

const log = (level: 'info' | 'error', msg: string, detail?: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ level, msg, service: 'reportbuilder-worker', ...detail })}\n`);

/**
 * The report PDF worker (a process of its own, config/services.json `reportbuilder-worker`): renders the
 * queue 'reportbuilder-pdf' with one Chromium (puppeteer-core, Debian's /usr/bin/chromium), a page per job.
 * Start more processes to scale out: BullMQ hands each job to one of them. /health, /ready and /metrics on
 * its port.
 */
async function main() {
  const config = loadReportBuilderConfig();
  const ds = await openDatabase(config.databaseUrl);
  const redis = createRedis(config.redisUrl, 'reportbuilder-worker');
  const storage = createStorage({ driver: 'local', dir: config.storageDir });
  const pool = new BrowserPool({
    executablePath: config.chromiumPath,
    maxJobs: config.browserMaxJobs,
    maxMemoryMb: config.browserMaxMemoryMb,
    log: (event, detail) => log('info', event, detail),
  });
  const { worker, stats } = startPdfWorker({
    queueName: PORTAL_QUEUES.reportbuilderPdf,
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
    db: ds,
    storage,
    pool,
    renderers: { [SAVI_PDF_KIND]: saviPdfRenderer({ ds, storage, defaultVat: config.vatPercentage }) },
    concurrency: config.pdfConcurrency,
    jobTimeoutMs: config.pdfJobTimeoutMs,
    lockDurationMs: config.pdfLockDurationMs,
    stalledIntervalMs: config.pdfStalledIntervalMs,
    log,
  });

  const server = startWorkerEndpoints({
    name: 'reportbuilder-worker',
    host: config.host,
    port: config.port,
    ready: () => Promise.all([ds.query('SELECT 1'), redis.ping()]),
    metrics: () =>
      prometheusText([
        ['pdf_jobs_completed_total', 'counter', stats.completed],
        ['pdf_jobs_failed_total', 'counter', stats.failed],
        ['pdf_jobs_cancelled_total', 'counter', stats.cancelled],
        ['pdf_job_seconds_last', 'gauge', stats.seconds.at(-1) ?? 0],
        ['pdf_browser_launches_total', 'counter', pool.launches],
        ['pdf_browser_memory_mb', 'gauge', Math.round(pool.browserMemoryMb())],
        ['pdf_browser_memory_peak_mb', 'gauge', Math.round(pool.peakBrowserMb)],
        ['process_resident_memory_bytes', 'gauge', process.memoryUsage().rss],
      ]),
  });

  // SIGTERM: the running jobs finish (worker.close waits for them), then the browser and connections close.
  closeWithGrace({ delay: 60_000 }, async () => {
    await worker.close();
    await pool.close();
    server.close();
    await ds.destroy();
    await redis.quit();
  });
}

main().catch((err) => {
  console.error('reportbuilder-worker failed to start:', err);
  process.exit(1);
});
