import {
  closeQueue,
  createSessionServiceApp,
  createStorage,
  installMetering,
  typed,
  type ServiceDeps,
} from '@portal/server-kit';
import { PORTAL_QUEUES } from '@portal/contracts';
import { createPdfQueue } from '@portal/pdf-jobs';
import type { RequestsConfig } from './config';
import { createConsoleQueue } from './jobs/consoleJobs';
import { notificationRoutes } from './notifications/routes';
import { attachRealtime } from './realtime';
import { exportRoutes } from './routes/exports';
import { insightRoutes } from './routes/insight';
import { measurementRoutes } from './routes/measurements';
import { queueRoutes } from './routes/queue';
import { requestRoutes } from './routes/requests';

export type RequestsDeps = ServiceDeps;

/** The requests service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: RequestsConfig, deps: RequestsDeps) {
  // Sessions verified (identity alone signs them), /health and /ready for the pool and Redis; every route
  // gated by the route table (libs/domain/src/routeAccess.ts).
  const app = await createSessionServiceApp(config, deps, {}, { routeAccess: config.serviceName });
  // SAVi requests created are counted per group (docs/architecture.md "Usage metering").
  await installMetering(app, config, deps);
  // A submitted report's PDF is queued here, rendered by the report builder's worker (reportbuilder-worker).
  const pdfQueue = createPdfQueue(PORTAL_QUEUES.reportbuilderPdf, {
    redisUrl: config.redisUrl,
    prefix: config.reportbuilderQueuePrefix,
  });
  app.addHook('onClose', async () => {
    await closeQueue(pdfQueue);
  });
  const ctx = { config, ds: deps.ds, redis: deps.redis, pdfQueue };
  await app.register(async (scope) => {
    await requestRoutes(typed(scope), ctx);
  });
  await app.register(async (scope) => {
    await queueRoutes(typed(scope), ctx);
  });
  await app.register(async (scope) => {
    await measurementRoutes(typed(scope), ctx);
  });
  // A person's notifications and their preferences (issue 24).
  await app.register(async (scope) => {
    await notificationRoutes(typed(scope), ctx);
  });
  // The console's jobs are queued here and run by src/worker.ts (another process).
  const queue = createConsoleQueue(config.redisUrl, config.queuePrefix);
  app.addHook('onClose', async () => {
    await closeQueue(queue);
  });
  const storage = createStorage({ driver: 'local', dir: config.storageDir });
  await app.register(async (scope) => {
    await exportRoutes(typed(scope), { ...ctx, queue, storage });
  });
  // The operations dashboard (issue 24) reads both queues' counts.
  await app.register(async (scope) => {
    await insightRoutes(typed(scope), { ...ctx, queues: { pdf: pdfQueue, export: queue } });
  });
  await attachRealtime(app, config.redisUrl, config.redisPrefix);
  return app;
}
