import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { observeDatabasePool } from './metrics';
import { createRedis } from './redis';
import { closeGracefully, drainAndClose } from './shutdown';

/**
 * Listens and shuts down gracefully (closeGracefully, drainAndClose): on SIGTERM/SIGINT /ready answers 503
 * and each answer closes its connection, the server stops accepting connections, answers the requests in
 * flight and those still arriving on open connections, and closes its pools through onClose hooks; 10 s
 * at most.
 */
export async function runServer(app: FastifyInstance, host: string, port: number, name = 'service') {
  const shutdown = closeGracefully({ name, graceMs: 10_000, log: app.log }, () => drainAndClose(app));
  try {
    await app.listen({ host, port });
  } catch (err) {
    app.log.error({ err }, `could not listen on ${host}:${port}`);
    process.exit(1);
  }
  return shutdown;
}

/** What a service's main file is made of. */
export interface ServiceParts<
  Config extends { serviceName: string; host: string; port: number; databaseUrl: string; redisUrl: string },
  Db extends { destroy(): Promise<void> },
> {
  config: Config;
  openDatabase(url: string): Promise<Db>;
  buildApp(config: Config, deps: { ds: Db; redis: Redis }): Promise<FastifyInstance>;
}

/**
 * A service's main: opens its database pool and Redis, builds the app (its /metrics also report the pool's
 * use), closes both when the app closes, listens (runServer); a failure to start is printed and ends the
 * process with code 1.
 */
export function startService<
  Config extends { serviceName: string; host: string; port: number; databaseUrl: string; redisUrl: string },
  Db extends { destroy(): Promise<void> },
>({ config, openDatabase, buildApp }: ServiceParts<Config, Db>): void {
  const start = async () => {
    const ds = await openDatabase(config.databaseUrl);
    const redis = createRedis(config.redisUrl, config.serviceName);
    const app = await buildApp(config, { ds, redis });
    // Pool usage (in use, idle, waiting) beside the request durations on /metrics.
    observeDatabasePool(app.metrics, ds);
    app.addHook('onClose', async () => {
      // Hooks close in reverse order: the meter's last flush (metering.ts) needs the pool still open.
      if (app.hasDecorator('usageMeter')) await app.usageMeter?.close();
      await ds.destroy();
      await redis.quit();
    });
    await runServer(app, config.host, config.port, config.serviceName);
  };
  start().catch((err) => {
    console.error(`${config.serviceName} failed to start:`, err);
    process.exit(1);
  });
}
