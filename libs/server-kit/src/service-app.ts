import type { FastifyServerOptions } from 'fastify';
import { createServiceApp, type ServiceAppOptions } from './app';
import { authPlugin } from './auth';
import type { BaseConfig } from './config';
import { registerHealth } from './health';
import { readKey } from './keys';
import type { Redis } from './redis';

/**
 * A back-end service's common start: the Fastify ground of `createServiceApp`, sessions verified with the
 * public key (identity alone holds the private key and signs them) with revocations read from Redis, and
 * /health and /ready answering for the service's pool and Redis. Routes are registered on what it answers.
 */
export async function createSessionServiceApp(
  config: BaseConfig,
  deps: { ds: { query(sql: string, params?: unknown[]): Promise<unknown> }; redis: Redis },
  overrides: FastifyServerOptions = {},
  options: ServiceAppOptions = {},
) {
  const app = createServiceApp(config, overrides, options);
  await app.register(authPlugin, {
    publicKey: readKey(config.jwtPublicKeyFile, 'JWT public key'),
    redis: deps.redis,
    cookieSecure: config.cookieSecure,
    sessionTtlSeconds: config.sessionTtlSeconds,
    apiKeys: deps.ds,
    redisPrefix: config.redisPrefix,
  });
  registerHealth(app, config.serviceName, {
    db: () => deps.ds.query('SELECT 1'),
    redis: () => deps.redis.ping(),
  });
  return app;
}
