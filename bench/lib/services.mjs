// What the benchmarks share to measure a service in this process: its build, the service itself started
// as in production (its own pool, Redis, listening on a free port), and sessions signed as identity signs
// them (the bench has identity's key in var/keys, as `npm start` leaves it).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { jwtKeyFiles, redisUrl } from '../../scripts/lib/settings.mjs';
import { bin, NX_ENV, ROOT, run } from '../../scripts/lib/system.mjs';

const require = createRequire(import.meta.url);

/**
 * The settings every benchmark portal runs with: one address logs in many times (the limits would measure
 * themselves), quiet logs, and queues of their own beside a running portal.
 */
export const BENCH_PROCESS_ENV = {
  AUTH_ATTEMPTS_PER_IP: '100000',
  AUTH_ATTEMPTS_PER_EMAIL: '100000',
  LOG_LEVEL: 'warn',
  REQUEST_QUEUE_PREFIX: 'bench',
  IRIS_QUEUE_PREFIX: 'bench',
  REPORTBUILDER_QUEUE_PREFIX: 'bench',
};

/** Builds a project (and what it needs); Nx skips what has not changed. */
export async function buildProject(project) {
  const { code } = await run(bin('nx'), ['run', `${project}:build`, '--outputStyle=stream'], {
    env: NX_ENV,
    onLine: () => undefined,
  });
  if (code !== 0) throw new Error(`The build of ${project} failed.`);
}

/** The Cookie header of a session with these claims (sub and email at least; a plain user otherwise). */
export function benchSessionCookie(claims) {
  const { ensureKeyPair } = require(join(ROOT, 'libs/server-kit/dist/index.js'));
  const { signTestSession, sessionCookieHeader } = require(join(ROOT, 'libs/server-kit/dist/testing.js'));
  const { privateKeyFile, publicKeyFile } = jwtKeyFiles();
  ensureKeyPair(privateKeyFile, publicKeyFile);
  return sessionCookieHeader(signTestSession(privateKeyFile, claims, 4 * 3600));
}

/**
 * Starts a built service (services/<name>/dist: app.js buildApp, database.js openDatabase, config.js
 * `loadConfig`) against `databaseUrl` on a free port. Answers its base URL, its pool and stop().
 */
export async function startService(name, loadConfig, databaseUrl) {
  const dist = (file) => require(join(ROOT, 'services', name, 'dist', file));
  const { buildApp } = dist('app.js');
  const { openDatabase } = dist('database.js');
  const config = {
    ...dist('config.js')[loadConfig]({ ...process.env, DATABASE_URL: databaseUrl }),
    logLevel: 'warn',
  };
  const { createRedis } = require(join(ROOT, 'libs/server-kit/dist/index.js'));
  const redis = createRedis(redisUrl(), `bench-${name}`);
  const ds = await openDatabase(databaseUrl);
  const app = await buildApp(config, { ds, redis });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    base: `http://127.0.0.1:${app.server.address().port}`,
    ds,
    stop: async () => {
      await app.close();
      await ds.destroy();
      await redis.quit();
    },
  };
}
