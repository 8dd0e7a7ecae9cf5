import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import { SESSION_COOKIE } from '@portal/contracts';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor } from '@portal/server-kit/testing';
import { buildApp } from '../app';
import { loadRequestsConfig } from '../config';
import { openDatabase } from '../database';

/**
 * The set-up the requests service's route tests share: a throwaway seeded database, the app on its own
 * pool (as in production) and the real Redis, sessions signed with a throwaway key, and calls as a given
 * user. A test file calls `useRequestsApp()` once at its top; `env` holds what the set-up made, from its
 * beforeAll on.
 */

const varDir = mkdtempSync(join(tmpdir(), 'requests-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
export const redisUrl = loadRequestsConfig().redisUrl;
export const redis = createRedis(redisUrl, 'requests-test');
/** The report builder's PDF queue of this run (a submission queues its PDF there), apart from any portal's. */
export const reportQueuePrefix = `requests-test-${randomUUID().slice(0, 8)}`;

export const env = {} as {
  db: TestDatabase;
  /** The app's own pool, set up as in production (database.ts). */
  appDatabase: DataSource;
  app: FastifyInstance;
};

/**
 * Builds the app over a fresh seeded database before the file's tests (after `seed` adds what the file
 * needs beyond the seed), and takes it all down after.
 */
export function useRequestsApp(options: { seed?: (db: TestDatabase) => Promise<void> } = {}): void {
  jest.setTimeout(60_000);

  beforeAll(async () => {
    ensureKeyPair(privateKeyFile, publicKeyFile);
    env.db = await createTestDatabase({ seed: true });
    await options.seed?.(env.db);
    const config = {
      ...loadRequestsConfig({
        VAR_DIR: varDir,
        NODE_ENV: 'test',
        REPORTBUILDER_QUEUE_PREFIX: reportQueuePrefix,
      }),
      logLevel: 'silent',
    };
    env.appDatabase = await openDatabase(env.db.url);
    env.app = await buildApp(config, { ds: env.appDatabase, redis });
    await env.app.ready();
  });

  afterAll(async () => {
    await env.app?.close();
    await env.appDatabase?.destroy();
    await env.db?.drop();
    await redis.quit();
  });
}

// ---------------------------------------------------------------------------------------------------
// Sessions: signed here with the throwaway private key, with the claims identity would put in them.

export const ADMIN = 'admin@portal.test';
export const OPERATOR = 'operator@portal.test';
export const QC = 'qc@portal.test';
export const PLAIN = 'user@portal.test';
export const CLAIMS = 'claims@portal.test';
export const RATES = 'rates@portal.test';

export const signSession = (user: UserEntity) => signTestSessionFor(privateKeyFile, user);

export const userByEmail = (email: string) =>
  env.db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });

/** Calls the app as the user with that e-mail (anonymous without one). */
export async function call(
  email: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  headers?: InjectOptions['headers'],
) {
  const cookies = email ? { [SESSION_COOKIE]: signSession(await userByEmail(email)) } : undefined;
  return env.app.inject({ method, url, payload, cookies, headers });
}
