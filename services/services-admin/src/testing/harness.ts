import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import { ADMIN_API, SESSION_COOKIE } from '@portal/contracts';
import {
  AuditRecordEntity,
  GroupEntity,
  UserEntity,
  createTestDatabase,
  type TestDatabase,
} from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor } from '@portal/server-kit/testing';
import { buildApp } from '../app';
import { loadServicesAdminConfig } from '../config';
import { openDatabase } from '../database';

/**
 * The set-up every services-admin test file shares: a throwaway seeded database, the app on its own pool
 * (as in production), sessions signed with a throwaway key, and calls as a given user. A test file calls
 * `useServicesAdminApp()` once at its top; `env` holds what the set-up made, from its beforeAll on.
 */

const varDir = mkdtempSync(join(tmpdir(), 'services-admin-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
export const redis = createRedis(loadServicesAdminConfig().redisUrl, 'services-admin-test');

export const env = {} as {
  db: TestDatabase;
  /** The app's own pool, set up as in production (database.ts). */
  appDatabase: DataSource;
  app: FastifyInstance;
};

/** Builds the app over a fresh seeded database before the file's tests, and takes it all down after. */
export function useServicesAdminApp(): void {
  jest.setTimeout(60_000);

  beforeAll(async () => {
    ensureKeyPair(privateKeyFile, publicKeyFile);
    env.db = await createTestDatabase({ seed: true });
    const config = { ...loadServicesAdminConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' };
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

export const signSession = (user: UserEntity) => signTestSessionFor(privateKeyFile, user);

export const users = () => env.db.dataSource.getRepository(UserEntity);
export const groups = () => env.db.dataSource.getRepository(GroupEntity);
export const userByEmail = (email: string) => users().findOneByOrFail({ email });
export const groupByCode = (code: string) => groups().findOneByOrFail({ code });
export const sessionOf = async (email: string) => signSession(await userByEmail(email));

export const ADMIN = 'admin@portal.test';
export const PLAIN = 'user@portal.test';
export const RATES_EDITOR = 'rates@portal.test';

/** Calls the app as the user with that e-mail (anonymous without one). */
export async function call(
  email: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  headers?: InjectOptions['headers'],
) {
  const cookies = email ? { [SESSION_COOKIE]: await sessionOf(email) } : undefined;
  return env.app.inject({ method, url, payload, cookies, headers });
}

export const asAdmin = (method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) =>
  call(ADMIN, method, url, payload);

// The group admin the API keys, webhooks and usage tests share (issue 22).

/** Johan Botha (PLAIN, a plain user of KMI) made KMI's admin; answers KMI's and HVV's (another group's) ids. */
export async function makePlainAdminOfKmi(): Promise<{ kmi: string; hvv: string }> {
  const kmi = (await groupByCode('KMI')).id;
  const hvv = (await groupByCode('HVV')).id;
  await groups().update(kmi, { adminUserId: (await userByEmail(PLAIN)).id });
  return { kmi, hvv };
}

/**
 * Calls the app as PLAIN with the session identity would sign for a group's admin (libs/domain
 * sessionClaimsOf: the role comes from the group), whether or not PLAIN is admin of his group just now.
 */
export async function asGroupAdmin(
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
) {
  const user = await userByEmail(PLAIN);
  const session = await signSession(Object.assign(user, { groupAdmin: true }));
  return env.app.inject({ method, url, payload, cookies: { [SESSION_COOKIE]: session } });
}

export const latestAudit = (entity: string, entityId: string) =>
  env.db.dataSource
    .getRepository(AuditRecordEntity)
    .findOne({ where: { entity, entityId }, order: { id: 'DESC' } });

const query = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  ).toString();

/** A page of the users grid (or of `modelName`), as an admin; params as the grid sends them. */
export const page = (params: Record<string, unknown>) =>
  asAdmin(
    'GET',
    `${ADMIN_API.pageForModel}?${query({ modelName: 'users', pageNumber: 1, pageSize: 10, ...params })}`,
  );
