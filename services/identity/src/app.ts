import { join } from 'node:path';
import {
  AttemptLimiter,
  authPlugin,
  createServiceApp,
  rateLimitPlugin,
  readKey,
  registerHealth,
  typed,
  type ServiceDeps,
} from '@portal/server-kit';
import type { IdentityConfig } from './config';
import { folderMailer, smtpMailer, type Mailer } from './mailer';
import { sessionRoutes } from './routes/session';
import { passwordRoutes } from './routes/password';
import { portalRoutes } from './routes/portal';

export interface IdentityDeps extends ServiceDeps {
  mailer?: Mailer;
}

/** The identity service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: IdentityConfig, deps: IdentityDeps) {
  const app = createServiceApp(config, {}, { routeAccess: config.serviceName });
  const mailer =
    deps.mailer ??
    (config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : folderMailer(join(config.varDir, 'mail'), config.mailFrom, app.log));
  const ctx = {
    config,
    ds: deps.ds,
    redis: deps.redis,
    mailer,
    emailAttempts: new AttemptLimiter(
      deps.redis,
      'email',
      config.attemptsPerEmail,
      config.attemptWindowSeconds,
    ),
  };
  await app.register(authPlugin, {
    publicKey: readKey(config.jwtPublicKeyFile, 'JWT public key'),
    privateKey: readKey(config.jwtPrivateKeyFile, 'JWT private key'),
    redis: deps.redis,
    cookieSecure: config.cookieSecure,
    sessionTtlSeconds: config.sessionTtlSeconds,
    apiKeys: deps.ds,
    redisPrefix: config.redisPrefix,
  });
  await app.register(rateLimitPlugin, { redis: deps.redis });
  registerHealth(app, 'identity', { db: () => deps.ds.query('SELECT 1'), redis: () => deps.redis.ping() });
  await app.register(async (scope) => {
    await sessionRoutes(typed(scope), ctx);
    await passwordRoutes(typed(scope), ctx);
    await portalRoutes(typed(scope), ctx);
  });
  return app;
}
