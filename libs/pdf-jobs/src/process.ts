import {
  closeGracefully,
  closeQueue,
  createRedis,
  createStorage,
  intFromEnv,
  jobDurationHistogram,
  jsonLineLog,
  observeDatabasePool,
  observeQueues,
  observeWorker,
  processRegistry,
  type Redis,
  startWorkerEndpoints,
  type Storage,
} from '@portal/server-kit';
import { BrowserPool } from './browser';
import { Counter, Gauge, type Registry } from 'prom-client';
import { createPdfQueue, type Sql } from './jobs';
import { startPdfWorker, type PdfRenderer } from './worker';

/**
 * The browser's metrics, read from the pool when scraped: `pdf_browser_launches_total` (the first and
 * every replacement), `pdf_browser_restarts_total{reason}` (replaced after its share of jobs, over the
 * memory limit, or crashed) and `pdf_browser_memory_megabytes{reading}` (now and the highest seen).
 */
export function observeBrowserPool(registry: Registry, pool: BrowserPool): void {
  new Counter({
    name: 'pdf_browser_launches_total',
    help: 'Chromium processes started (the first, and each replacement after N jobs or the memory limit)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pool.launches);
    },
  });
  new Counter({
    name: 'pdf_browser_restarts_total',
    help: 'Chromium processes replaced, by reason: jobs (served its share), memory (over the limit), crashed',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(pool.restarts)) this.inc({ reason }, count);
    },
  });
  new Gauge({
    name: 'pdf_browser_memory_megabytes',
    help: 'Resident memory of the running Chromium (now, and the highest seen)',
    labelNames: ['reading'] as const,
    registers: [registry],
    collect() {
      this.set({ reading: 'now' }, Math.round(pool.browserMemoryMb()));
      this.set({ reading: 'peak' }, Math.round(pool.peakBrowserMb));
    },
  });
}

/** A PDF worker's settings, read from `<PREFIX>_PDF_*` and `<PREFIX>_BROWSER_*` (e.g. IRIS_PDF_TIMEOUT_MS). */
export interface PdfWorkerSettings {
  /** PDFs one process renders at once (pages of its one browser). */
  pdfConcurrency: number;
  /** A job's time limit, below the lock duration. */
  pdfJobTimeoutMs: number;
  pdfLockDurationMs: number;
  /** How often the worker looks for jobs whose worker died (their lock expired). */
  pdfStalledIntervalMs: number;
  /** Jobs one browser serves before it is replaced, and its memory limit (MB). */
  browserMaxJobs: number;
  browserMaxMemoryMb: number;
  chromiumPath: string;
}

export function loadPdfWorkerSettings(
  prefix: string,
  env: Record<string, string | undefined> = process.env,
): PdfWorkerSettings {
  return {
    pdfConcurrency: Math.max(1, intFromEnv(env, `${prefix}_PDF_CONCURRENCY`, 2)),
    pdfJobTimeoutMs: Math.max(1000, intFromEnv(env, `${prefix}_PDF_TIMEOUT_MS`, 20_000)),
    pdfLockDurationMs: Math.max(2000, intFromEnv(env, `${prefix}_PDF_LOCK_MS`, 30_000)),
    pdfStalledIntervalMs: Math.max(500, intFromEnv(env, `${prefix}_PDF_STALLED_MS`, 15_000)),
    browserMaxJobs: Math.max(1, intFromEnv(env, `${prefix}_BROWSER_MAX_JOBS`, 50)),
    browserMaxMemoryMb: Math.max(100, intFromEnv(env, `${prefix}_BROWSER_MAX_MEMORY_MB`, 600)),
    chromiumPath: env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium',
  };
}

export interface PdfWorkerProcessOptions<Db extends Sql & { destroy(): Promise<void> }> {
  /** The process's name in config/services.json and its logs ('iris-worker'). */
  name: string;
  queueName: string;
  config: PdfWorkerSettings & {
    databaseUrl: string;
    redisUrl: string;
    queuePrefix: string;
    storageDir: string;
    host: string;
    port: number;
  };
  openDatabase(url: string): Promise<Db>;
  /** The kinds of PDF this worker renders, with what they need. */
  renderers(deps: { ds: Db; storage: Storage; redis: Redis }): Record<string, PdfRenderer>;
}

/**
 * A PDF worker process (iris-worker, reportbuilder-worker): one Chromium, the BullMQ worker of its queue,
 * /health, /ready and /metrics (jobs, browser launches and memory) on its port; SIGTERM lets the running
 * jobs finish, then closes the browser and the connections. More processes on one queue share its jobs.
 */
export function runPdfWorkerProcess<Db extends Sql & { destroy(): Promise<void> }>(
  options: PdfWorkerProcessOptions<Db>,
): void {
  const log = (level: 'info' | 'error', msg: string, detail?: Record<string, unknown>) =>
    process.stdout.write(`${JSON.stringify({ level, msg, service: options.name, ...detail })}\n`);
  const start = async () => {
    const { config } = options;
    const ds = await options.openDatabase(config.databaseUrl);
    const redis = createRedis(config.redisUrl, options.name);
    const storage = createStorage({ driver: 'local', dir: config.storageDir });
    const pool = new BrowserPool({
      executablePath: config.chromiumPath,
      maxJobs: config.browserMaxJobs,
      maxMemoryMb: config.browserMaxMemoryMb,
      log: (event, detail) => log('info', event, detail),
    });
    // Metrics: the queue's depth by state (what the worker autoscaler reads), each job try's duration by
    // outcome, failed tries and stalls, the database pool, the browser's launches, restarts and memory,
    // and the process's own.
    const registry = processRegistry(options.name);
    const depthQueue = createPdfQueue(options.queueName, {
      redisUrl: config.redisUrl,
      prefix: config.queuePrefix,
    });
    observeQueues(registry, [depthQueue]);
    observeDatabasePool(registry, ds);
    const durations = jobDurationHistogram(registry);
    observeBrowserPool(registry, pool);
    const { worker } = startPdfWorker({
      queueName: options.queueName,
      redisUrl: config.redisUrl,
      prefix: config.queuePrefix,
      db: ds,
      storage,
      pool,
      renderers: options.renderers({ ds, storage, redis }),
      concurrency: config.pdfConcurrency,
      jobTimeoutMs: config.pdfJobTimeoutMs,
      lockDurationMs: config.pdfLockDurationMs,
      stalledIntervalMs: config.pdfStalledIntervalMs,
      log,
      onJobTry: (outcome, seconds) => durations.observe({ queue: options.queueName, outcome }, seconds),
    });
    observeWorker(registry, worker);
    const server = startWorkerEndpoints({
      name: options.name,
      host: config.host,
      port: config.port,
      ready: () => Promise.all([ds.query('SELECT 1'), redis.ping()]),
      metrics: registry,
    });
    // SIGTERM: no new job is taken, the PDFs being rendered finish, then the browser, the endpoints and
    // the connections close.
    closeGracefully({ name: options.name, graceMs: 60_000, log: jsonLineLog(options.name) }, async () => {
      await worker.close();
      await pool.close();
      await closeQueue(depthQueue);
      await new Promise((resolve) => server.close(resolve));
      await ds.destroy();
      await redis.quit();
    });
  };
  start().catch((err) => {
    console.error(`${options.name} failed to start:`, err);
    process.exit(1);
  });
}
