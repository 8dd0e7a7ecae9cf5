import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { rolesOf as rolesOfFlags } from '@portal/domain';
import { ensureKeyPair, type RegisteredRoute } from '@portal/server-kit';
import { sessionCookieHeader, signTestSessionFor } from '@portal/server-kit/testing';
import { buildApp as buildAvsEditor } from '../../services/avs-editor/src/app';
import { loadAvsEditorConfig } from '../../services/avs-editor/src/config';
import { openDatabase as openAvsEditorDatabase } from '../../services/avs-editor/src/database';
import { buildApp as buildIdentity } from '../../services/identity/src/app';
import { loadIdentityConfig } from '../../services/identity/src/config';
import type { Mailer } from '../../services/identity/src/mailer';
import { buildApp as buildIris } from '../../services/iris/src/app';
import { loadIrisConfig } from '../../services/iris/src/config';
import { openDatabase as openIrisDatabase } from '../../services/iris/src/database';
import { buildApp as buildLocator } from '../../services/locator/src/app';
import { loadLocatorConfig } from '../../services/locator/src/config';
import { openDatabase as openLocatorDatabase } from '../../services/locator/src/database';
import { buildApp as buildReportBuilder } from '../../services/reportbuilder/src/app';
import { loadReportBuilderConfig } from '../../services/reportbuilder/src/config';
import { openDatabase as openReportBuilderDatabase } from '../../services/reportbuilder/src/database';
import { buildApp as buildRequests } from '../../services/requests/src/app';
import { loadRequestsConfig } from '../../services/requests/src/config';
import { openDatabase as openRequestsDatabase } from '../../services/requests/src/database';
import { buildApp as buildServicesAdmin } from '../../services/services-admin/src/app';
import { loadServicesAdminConfig } from '../../services/services-admin/src/config';
import { openDatabase as openServicesAdminDatabase } from '../../services/services-admin/src/database';
import { makeFixtures, type AuditFixtures } from './fixtures';

/**
 * The portal's back end in one process, for the audit suites: every HTTP service's real app (its own
 * buildApp and config loader) on one throwaway seeded database and the real Redis, with a session for each
 * audited role. Nothing listens: calls go through `app.inject`.
 */

export const AUDIT_ROLES = ['anonymous', 'user', 'operator', 'admin'] as const;
export type AuditRole = (typeof AUDIT_ROLES)[number];

export interface AuditedService {
  /** As in config/services.json. */
  name: string;
  /** Ready, not listening; call with app.inject. */
  app: FastifyInstance;
  /** app.registeredRoutes minus HEAD. */
  routes: RegisteredRoute[];
  /** Schema-qualified tables this service writes (for row counts). */
  tables: string[];
}

export interface AuditPortal {
  services: AuditedService[];
  /** The Cookie header for a role, undefined for anonymous. */
  cookie(role: AuditRole): string | undefined;
  /** The role names (JWT roles) a role's session carries, null for anonymous. */
  rolesOf(role: AuditRole): string[] | null;
  /** One query: total row count over the given tables. */
  rowCount(tables: string[]): Promise<number>;
  /** API keys and rows that exist (fixtures.ts), when asked for with `{ fixtures: true }`. */
  fixtures?: AuditFixtures;
  /** The run's Redis prefix (PORTAL_REDIS_PREFIX and the shared client's key prefix). */
  redisPrefix: string;
  close(): Promise<void>;
}

/** The seeded demo account behind each signed-in role (libs/db/src/seed-data.ts). */
const ACCOUNTS: Record<Exclude<AuditRole, 'anonymous'>, string> = {
  // A plain user of KMI, whose group has every service (savi, iris, avs, spatialkey).
  user: 'user@portal.test',
  operator: 'operator@portal.test',
  admin: 'admin@portal.test',
};

/** The database schemas each service writes: its tables are every base table in them. */
const SCHEMAS: Record<string, string[]> = {
  identity: ['identity'],
  'services-admin': ['identity'],
  locator: ['geo'],
  requests: ['requests', 'notifications'],
  reportbuilder: ['reportbuilder', 'pdf'],
  iris: ['iris', 'pdf'],
  'avs-editor': ['avs_editor', 'geo'],
};

/** Mails are not sent: the audit only counts that nothing happens it should not. */
const NO_MAIL: Mailer = { send: async () => undefined };

interface Built {
  app: FastifyInstance;
  ds?: DataSource;
}

export async function openAuditPortal(options: { fixtures?: boolean } = {}): Promise<AuditPortal> {
  const varDir = mkdtempSync(join(tmpdir(), 'api-audit-'));
  const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
  const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
  ensureKeyPair(privateKeyFile, publicKeyFile);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // Every key the services write through the shared client (revocations, rate limits, attempt counters,
  // holds) and every queue lives under this run's prefix: parallel runs and the other suites never meet.
  const prefix = `audit-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const redis = new Redis(redisUrl, {
    connectionName: 'api-audit',
    keyPrefix: `${prefix}:`,
    maxRetriesPerRequest: 2,
  });
  const env = {
    VAR_DIR: varDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    REDIS_URL: redisUrl,
    JWT_PUBLIC_KEY_FILE: publicKeyFile,
    JWT_PRIVATE_KEY_FILE: privateKeyFile,
    // The services' own keys (API keys' cache, rate limits) and queues: the run's prefix too.
    PORTAL_REDIS_PREFIX: prefix,
    REQUEST_QUEUE_PREFIX: prefix,
    IRIS_QUEUE_PREFIX: prefix,
    REPORTBUILDER_QUEUE_PREFIX: prefix,
    STORAGE_DIR: join(varDir, 'storage'),
  };
  let db: TestDatabase | undefined;
  const built: { name: string; built: Built }[] = [];
  const close = async () => {
    for (const { built: one } of built.reverse()) {
      await one.app.close().catch(() => undefined);
      if (one.ds?.isInitialized) await one.ds.destroy().catch(() => undefined);
    }
    await db?.drop().catch(() => undefined);
    await cleanRedis(redis, prefix).catch(() => undefined);
    redis.disconnect();
    rmSync(varDir, { recursive: true, force: true });
  };

  try {
    db = await createTestDatabase({ seed: true });
    const url = db.url;
    const silent = <T extends object>(config: T) => ({ ...config, logLevel: 'silent' });
    const builders: Record<string, () => Promise<Built>> = {
      identity: async () => {
        const ds = db!.dataSource;
        const app = await buildIdentity(silent(loadIdentityConfig(env)), { ds, redis, mailer: NO_MAIL });
        return { app };
      },
      'services-admin': async () => {
        const ds = await openServicesAdminDatabase(url);
        return { app: await buildServicesAdmin(silent(loadServicesAdminConfig(env)), { ds, redis }), ds };
      },
      locator: async () => {
        const ds = await openLocatorDatabase(url);
        return { app: await buildLocator(silent(loadLocatorConfig(env)), { ds, redis }), ds };
      },
      requests: async () => {
        const ds = await openRequestsDatabase(url);
        return { app: await buildRequests(silent(loadRequestsConfig(env)), { ds, redis }), ds };
      },
      reportbuilder: async () => {
        const ds = await openReportBuilderDatabase(url);
        return { app: await buildReportBuilder(silent(loadReportBuilderConfig(env)), { ds, redis }), ds };
      },
      iris: async () => {
        const ds = await openIrisDatabase(url);
        return { app: await buildIris(silent(loadIrisConfig(env)), { ds, redis }), ds };
      },
      'avs-editor': async () => {
        const ds = await openAvsEditorDatabase(url);
        return { app: await buildAvsEditor(silent(loadAvsEditorConfig(env)), { ds, redis }), ds };
      },
    };
    for (const [name, build] of Object.entries(builders)) {
      const one = await build();
      built.push({ name, built: one });
      await one.app.ready();
    }

    const tablesOf = new Map<string, string[]>();
    const rows = (await db.dataSource.query(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema = ANY($1) ORDER BY 1, 2`,
      [[...new Set(Object.values(SCHEMAS).flat())]],
    )) as { table_schema: string; table_name: string }[];
    for (const row of rows) {
      const list = tablesOf.get(row.table_schema) ?? [];
      list.push(`${row.table_schema}.${row.table_name}`);
      tablesOf.set(row.table_schema, list);
    }

    const users = db.dataSource.getRepository(UserEntity);
    const accounts = new Map<AuditRole, UserEntity>();
    for (const [role, email] of Object.entries(ACCOUNTS) as [AuditRole, string][])
      accounts.set(role, await users.findOneByOrFail({ email }));

    const quoted = (table: string) =>
      table
        .split('.')
        .map((part) => `"${part.replace(/"/g, '""')}"`)
        .join('.');
    const database = db.dataSource;
    // Signed afresh on every call: a logout (GET /api/v1.0/logout revokes the user's sessions issued
    // before it) or another revocation by an earlier call does not end the later calls' sessions.
    const cookie = (role: AuditRole) => {
      const user = accounts.get(role);
      return user && sessionCookieHeader(signTestSessionFor(privateKeyFile, user));
    };
    const fixtures = options.fixtures
      ? await makeFixtures({
          apps: new Map(built.map(({ name, built: { app } }) => [name, app])),
          ds: database,
          redis,
          redisPrefix: prefix,
          cookie,
        })
      : undefined;

    return {
      services: built.map(({ name, built: { app } }) => ({
        name,
        app,
        routes: app.registeredRoutes.filter((route) => route.method !== 'HEAD'),
        tables: [...new Set(SCHEMAS[name].flatMap((schema) => tablesOf.get(schema) ?? []))],
      })),
      cookie,
      fixtures,
      redisPrefix: prefix,
      rolesOf: (role) => {
        const user = accounts.get(role);
        return user ? rolesOfFlags(user) : null;
      },
      rowCount: async (tables) => {
        if (tables.length === 0) return 0;
        const sql = `SELECT (${tables.map((table) => `(SELECT count(*) FROM ${quoted(table)})`).join(' + ')})::bigint AS n`;
        const [{ n }] = (await database.query(sql)) as { n: string }[];
        return Number(n);
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Deletes the run's keys (queues included: BullMQ writes `<prefix>:<queue>:…`). */
async function cleanRedis(redis: Redis, prefix: string): Promise<void> {
  // SCAN's pattern is not prefixed by ioredis, and the keys it answers carry the prefix: delete through a
  // client without one.
  const plain = redis.duplicate({ keyPrefix: '' });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await plain.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await plain.del(...keys);
    } while (cursor !== '0');
  } finally {
    plain.disconnect();
  }
}
