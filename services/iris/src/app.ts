import { PORTAL_QUEUES } from '@portal/contracts';
import { createPdfQueue } from '@portal/pdf-jobs';
import {
  closeQueue,
  createSessionServiceApp,
  createStorage,
  installMetering,
  typed,
  type ServiceDeps,
} from '@portal/server-kit';
import type { IrisConfig } from './config';
import { registerQueueDashboard } from './dashboard';
import { irisRoutes } from './routes/iris';

export type IrisDeps = ServiceDeps;

/** The IRiS service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: IrisConfig, deps: IrisDeps) {
  // Sessions verified (identity alone signs them), /health and /ready for the pool and Redis; every route
  // gated by the route table (libs/domain/src/routeAccess.ts).
  const app = await createSessionServiceApp(config, deps, {}, { routeAccess: config.serviceName });
  // IRiS reports created are counted per group (docs/architecture.md "Usage metering").
  await installMetering(app, config, deps);
  const ctx = { config, ds: deps.ds, redis: deps.redis };
  // The PDFs are queued here and rendered by src/worker.ts (another process, one browser each).
  const queue = createPdfQueue(PORTAL_QUEUES.irisPdf, {
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
  });
  app.addHook('onClose', async () => {
    await closeQueue(queue);
  });
  const storage = createStorage({ driver: 'local', dir: config.storageDir });
  await app.register(async (scope) => {
    await irisRoutes(typed(scope), { ...ctx, queue, storage });
  });
  await registerQueueDashboard(app, ctx);
  return app;
}
