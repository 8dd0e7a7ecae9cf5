import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import { SESSION_COOKIE, type ReportSectionBody } from '@portal/contracts';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair, type Redis } from '@portal/server-kit';
import { signTestSessionFor } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadReportBuilderConfig, type ReportBuilderConfig } from './config';
import { openDatabase } from './database';

/** The seeded users the report builder's tests act as. */
export const USERS = {
  owner: 'user@portal.test',
  other: 'claims@portal.test',
  operator: 'operator@portal.test',
  qc: 'qc@portal.test',
  admin: 'admin@portal.test',
} as const;

/**
 * The report builder on a throwaway seeded database and the real Redis, for a test file: set up in its
 * beforeAll, taken down in its afterAll (`beforeClose` first: a test's own workers). `env` adds settings to
 * the test's own VAR_DIR and key pair. The fields are read inside tests, once beforeAll has run.
 */
export function reportBuilderTestApp(
  name: string,
  env: Record<string, string> = {},
  beforeClose?: () => Promise<void>,
) {
  const varDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
  const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const test = {
    varDir,
    redisUrl,
    redis: createRedis(redisUrl, name) as Redis,
    db: undefined as unknown as TestDatabase,
    appDatabase: undefined as unknown as DataSource,
    app: undefined as unknown as FastifyInstance,
    config: undefined as unknown as ReportBuilderConfig,
    /** The session cookie of a seeded user (none for null). */
    async cookiesOf(email: string | null): Promise<Record<string, string>> {
      if (!email) return {};
      const user = await test.db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
      return { [SESSION_COOKIE]: signTestSessionFor(privateKeyFile, user) };
    },
    /** A call as `email` (null: without a session). */
    async call(email: string | null, method: InjectOptions['method'], url: string, payload?: object) {
      return test.app.inject({ method, url, payload, cookies: await test.cookiesOf(email) });
    },
  };

  beforeAll(async () => {
    ensureKeyPair(privateKeyFile, publicKeyFile);
    test.db = await createTestDatabase({ seed: true });
    test.appDatabase = await openDatabase(test.db.url);
    test.config = {
      ...loadReportBuilderConfig({
        VAR_DIR: varDir,
        NODE_ENV: 'test',
        JWT_PUBLIC_KEY_FILE: publicKeyFile,
        ...env,
      }),
      logLevel: 'silent',
    };
    test.app = await buildApp(test.config, { ds: test.appDatabase, redis: test.redis });
    await test.app.ready();
  });

  afterAll(async () => {
    await beforeClose?.();
    await test.app?.close();
    await test.appDatabase?.destroy();
    await test.db?.drop();
    await test.redis.quit();
  });

  return test;
}

// A report's sections as a client sends them (the save call's body), each builder filling in what a test
// does not care about; a section has no marker unless given one.
export const sectionBody = (name: string, fields: Partial<ReportSectionBody> = {}): ReportSectionBody => ({
  name,
  type: 'residential',
  includeImage: true,
  comment: '',
  marker: null,
  buildings: [],
  improvements: [],
  groups: [],
  ...fields,
});
export const buildingBody = (name: string, fields: Partial<ReportSectionBody['buildings'][number]> = {}) => ({
  name,
  improvements: [],
  category: 'buildings',
  type: 'dwelling',
  class: 'A-s',
  constructionType: 'Brick and Plaster',
  rate: 0 as number | string | null,
  unit: 'no',
  numberOfUnits: null,
  floors: [] as { size: number | null; doubleVolume: boolean; location: string }[],
  group: '',
  slope: false,
  slopePercentage: null as number | null,
  comment: '',
  ...fields,
});
export const improvementBody = (name: string, numberOfUnits: number, rate: number | string) => ({
  name,
  category: 'improvements',
  type: 'paving',
  class: 'A-s',
  rate,
  numberOfUnits,
});
export const floorBody = (size: number, doubleVolume = false) => ({ size, doubleVolume, location: '' });
