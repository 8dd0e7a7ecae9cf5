import 'reflect-metadata';
import { Worker } from 'bullmq';
import {
  closeGracefully,
  closeQueue,
  createRedis,
  createStorage,
  jobDurationHistogram,
  jsonLineLog,
  observeDatabasePool,
  observeQueues,
  observeWorker,
  portalMailer,
  processRegistry,
  startWorkerEndpoints,
} from '@portal/server-kit';
import { PORTAL_QUEUES } from '@portal/contracts';
import { createPdfQueue } from '@portal/pdf-jobs';
import { loadRequestsConfig } from './config';
import { openDatabase } from './database';
import { CONSOLE_QUEUE, bullConnection, createConsoleQueue } from './jobs/consoleJobs';
import { processConsoleJob } from './jobs/run';
import { startNotificationWorkers } from './notifications/worker';
import { startWebhookWorkers } from './webhooks/workers';

/**
 * The request console's worker (a process of its own, config/services.json `requests-worker`): runs the
 * xlsx exports and zips of the BullMQ queue 'request-console'. A job killed with its worker is taken up
 * again by another (BullMQ's stalled-job check: the lock expires), and reruns write the same file. A small
 * HTTP server answers /health, /ready and /metrics on PORT: the queue's depth by state, each job try's
 * duration by outcome, failed tries and stalls, the database pool and the process's own metrics.
 */
async function main() {
  const config = loadRequestsConfig();
  const ds = await openDatabase(config.databaseUrl);
  const redis = createRedis(config.redisUrl, 'requests-worker');
  const storage = createStorage({ driver: 'local', dir: config.storageDir });
  const registry = processRegistry('requests-worker');
  const depthQueue = createConsoleQueue(config.redisUrl, config.queuePrefix);
  // Webhook delivery (issue 22): the outbox's listener, fan-out, deliveries and sweeper (webhooks/workers.ts).
  const log = jsonLineLog('requests-worker');
  const webhooks = await startWebhookWorkers({
    ds,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
    settings: config.webhooks,
    mailer: portalMailer(config.webhooks, log),
    log: (level, msg, detail) => log[level](detail ?? {}, msg),
  });
  // Notifications for people (issue 24): pushes and mails of the notifications, the late sweep (notifications/).
  const notifications = await startNotificationWorkers({
    ds,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
    redisPrefix: config.redisPrefix,
    publisher: redis,
    settings: config.notifications,
    ageingTargets: config.ageingTargets,
    mailer: portalMailer(config.webhooks, log),
    log: (level, msg, detail) => log[level](detail ?? {}, msg),
  });
  observeQueues(registry, [depthQueue, webhooks.dispatchQueue, webhooks.deliveryQueue, notifications.queue]);
  observeDatabasePool(registry, ds);
  const durations = jobDurationHistogram(registry);
  // A zip's submitted reports whose PDF is missing are queued to the report builder's worker and waited for.
  const pdfQueue = createPdfQueue(PORTAL_QUEUES.reportbuilderPdf, {
    redisUrl: config.redisUrl,
    prefix: config.reportbuilderQueuePrefix,
  });
  const reportPdfs = {
    queue: pdfQueue,
    defaultVat: config.reportVatPercentage,
    waitMs: config.zipPdfWaitMs,
  };

  const worker = new Worker(
    CONSOLE_QUEUE,
    async (job) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        await processConsoleJob({ ds, storage, redis, redisPrefix: config.redisPrefix, reportPdfs })(job);
      } catch (err) {
        durations.observe({ queue: CONSOLE_QUEUE, outcome: 'failed' }, seconds());
        throw err;
      }
      durations.observe({ queue: CONSOLE_QUEUE, outcome: 'completed' }, seconds());
    },
    {
      connection: bullConnection(config.redisUrl),
      prefix: config.queuePrefix,
      concurrency: config.jobConcurrency,
      // A job's lock is renewed while it runs; a killed worker's lock expires within lockDuration and the
      // stalled check hands the job to another worker.
      lockDuration: 30_000,
      stalledInterval: 15_000,
      maxStalledCount: 2,
    },
  );
  observeWorker(registry, worker);
  // The webhook and notification workers do not time their jobs: their durations come from the events.
  for (const eventTimed of [webhooks.dispatchWorker, webhooks.deliveryWorker, notifications.worker])
    observeWorker(registry, eventTimed, { durations });
  worker.on('failed', (job, err) => {
    console.error(
      JSON.stringify({ level: 'error', msg: 'console job failed', jobId: job?.id, err: err.message }),
    );
  });

  const server = startWorkerEndpoints({
    name: 'requests-worker',
    host: config.host,
    port: config.port,
    ready: () => Promise.all([ds.query('SELECT 1'), redis.ping()]),
    metrics: registry,
  });

  // SIGTERM: no new job is taken, running jobs finish (worker.close waits for them), then the endpoints and
  // connections close.
  closeGracefully({ name: 'requests-worker', graceMs: 60_000, log }, async () => {
    await worker.close();
    await webhooks.close();
    await notifications.close();
    await closeQueue(depthQueue);
    await closeQueue(pdfQueue);
    await new Promise((resolve) => server.close(resolve));
    await ds.destroy();
    await redis.quit();
  });
}

main().catch((err) => {
  console.error('requests-worker failed to start:', err);
  process.exit(1);
});
