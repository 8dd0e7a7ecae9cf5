import { PORTAL_QUEUES } from '@portal/contracts';
import { createPdfQueue } from '@portal/pdf-jobs';
import {
  authPlugin,
  closeQueue,
  createServiceApp,
  createStorage,
  readKey,
  registerHealth,
  type Storage,
  typed,
  type ServiceDeps,
} from '@portal/server-kit';
import type { ReportBuilderConfig } from './config';
import { imageRoutes } from './routes/images';
import { pdfRoutes } from './routes/pdf';
import { reportRoutes } from './routes/reports';

export interface ReportBuilderDeps extends ServiceDeps {
  /** Images' storage (default: local disk at config.storageDir). */
  storage?: Storage;
}

/** A report's sections travel whole with every save (a farm's report may hold hundreds of buildings). */
const BODY_LIMIT = 4 * 1024 * 1024;

/** The report builder as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: ReportBuilderConfig, deps: ReportBuilderDeps) {
  const app = createServiceApp(config, { bodyLimit: BODY_LIMIT }, { routeAccess: config.serviceName });
  const ctx = { config, ds: deps.ds, redis: deps.redis };
  // Verifies sessions only: identity alone holds the private key.
  await app.register(authPlugin, {
    publicKey: readKey(config.jwtPublicKeyFile, 'JWT public key'),
    redis: deps.redis,
    cookieSecure: config.cookieSecure,
    sessionTtlSeconds: config.sessionTtlSeconds,
    apiKeys: deps.ds,
    redisPrefix: config.redisPrefix,
  });
  registerHealth(app, 'reportbuilder', {
    db: () => deps.ds.query('SELECT 1'),
    redis: () => deps.redis.ping(),
  });
  await app.register(async (scope) => {
    await reportRoutes(typed(scope), ctx);
  });
  const storage = deps.storage ?? createStorage({ driver: 'local', dir: config.storageDir });
  const limits = { maxBytes: config.imageMaxBytes, maxPixels: config.imageMaxPixels };
  await app.register(async (scope) => {
    await imageRoutes(typed(scope), { ...ctx, storage, limits, bodyLimit: config.imageBodyLimit });
  });
  // The report PDFs are queued here and rendered by src/worker.ts (another process, one browser each).
  const pdfQueue = createPdfQueue(PORTAL_QUEUES.reportbuilderPdf, {
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
  });
  app.addHook('onClose', async () => {
    await closeQueue(pdfQueue);
  });
  await app.register(async (scope) => {
    await pdfRoutes(typed(scope), { ...ctx, queue: pdfQueue, storage });
  });
  return app;
}
