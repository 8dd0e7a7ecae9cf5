import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { buildApp } from '../app';
import { loadIdentityConfig } from '../config';

/** What startIdentityApp made: the app, its database, its var folder (keys, mail) and the way to stop. */
export interface IdentityTestApp {
  app: FastifyInstance;
  db: TestDatabase;
  /** Holds keys/jwt-private.pem (to sign sessions as identity does) and mail/ (the mails sent). */
  varDir: string;
  close(): Promise<void>;
}

/**
 * The set-up identity's test files share: a throwaway var folder with a fresh key pair, a throwaway seeded
 * database, Redis under the file's own prefix (`name`), and the app on them; `env` adds settings (e.g.
 * AUTH_ATTEMPTS_PER_EMAIL). Call it in a beforeAll and `close()` in the afterAll.
 */
export async function startIdentityApp(
  name: string,
  env: Record<string, string> = {},
): Promise<IdentityTestApp> {
  const varDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', name);
  ensureKeyPair(join(varDir, 'keys/jwt-private.pem'), join(varDir, 'keys/jwt-public.pem'));
  let db: TestDatabase | undefined;
  let app: FastifyInstance | undefined;
  try {
    db = await createTestDatabase({ seed: true });
    const config = {
      ...loadIdentityConfig({ VAR_DIR: varDir, NODE_ENV: 'test', ...env }),
      logLevel: 'silent',
    };
    app = await buildApp(config, { ds: db.dataSource, redis });
    await app.ready();
  } catch (error) {
    // Nothing is left open when the set-up fails, so the file's own failure is what Jest reports.
    await app?.close();
    await db?.drop();
    await redis.quit();
    throw error;
  }
  return {
    app,
    db,
    varDir,
    close: async () => {
      await app.close();
      await db.drop();
      await redis.quit();
    },
  };
}
