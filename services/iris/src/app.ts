import type { DataSource } from 'typeorm';
import { PORTAL_QUEUES } from '@portal/contracts';
import { createPdfQueue } from '@portal/pdf-jobs';
import {
  authPlugin,
  createServiceApp,
  createStorage,
  readKey,
  registerHealth,
  typed,
  type Redis,
} from '@portal/server-kit';
import type { IrisConfig } from './config';
import { registerQueueDashboard } from './dashboard';
import { irisRoutes } from './routes/iris';

export interface IrisDeps {
  ds: DataSource;
  redis: Redis;
}

/** The IRiS service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: IrisConfig, deps: IrisDeps) {
  const app = createServiceApp(config);
  const ctx = { config, ds: deps.ds, redis: deps.redis };
  await app.register(authPlugin, {
    publicKey: readKey(config.jwtPublicKeyFile, 'JWT public key'),
    redis: deps.redis,
    cookieSecure: config.cookieSecure,
    sessionTtlSeconds: config.sessionTtlSeconds,
  });
  registerHealth(app, 'iris', {
    db: () => deps.ds.query('SELECT 1'),
    redis: () => deps.redis.ping(),
  });
  // The PDFs are queued here and rendered by src/worker.ts (another process, one browser each).
  const queue = createPdfQueue(PORTAL_QUEUES.irisPdf, {
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
  });
  app.addHook('onClose', async () => {
    await queue.close();
  });
  const storage = createStorage({ driver: 'local', dir: config.storageDir });
  await app.register(async (scope) => {
    await irisRoutes(typed(scope), { ...ctx, queue, storage });
  });
  await registerQueueDashboard(app, ctx);
  return app;
}
