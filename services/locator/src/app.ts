import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import { authPlugin, createServiceApp, readKey, registerHealth, typed } from '@portal/server-kit';
import type { LocatorConfig } from './config';
import { avsRoutes } from './routes/avs';
import { imageryRoutes } from './routes/imagery';
import { tileRoutes } from './routes/tiles';
import { validateRoutes } from './routes/validate';

export interface LocatorDeps {
  ds: DataSource;
  redis: Redis;
}

/** The locator service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: LocatorConfig, deps: LocatorDeps) {
  const app = createServiceApp(config);
  const ctx = { config, ds: deps.ds, redis: deps.redis };
  // Verifies sessions only: identity alone holds the private key.
  await app.register(authPlugin, {
    publicKey: readKey(config.jwtPublicKeyFile, 'JWT public key'),
    redis: deps.redis,
    cookieSecure: config.cookieSecure,
    sessionTtlSeconds: config.sessionTtlSeconds,
  });
  registerHealth(app, 'locator', {
    db: () => deps.ds.query('SELECT 1'),
    redis: () => deps.redis.ping(),
  });
  await app.register(async (scope) => {
    await avsRoutes(typed(scope), ctx);
    await tileRoutes(typed(scope), ctx);
    await imageryRoutes(typed(scope), ctx);
    await validateRoutes(typed(scope), ctx);
  });
  return app;
}
