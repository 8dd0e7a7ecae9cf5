import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import { ADMIN_API, SESSION_COOKIE, type AdminGroup, type AdminUser, type RateRow } from '@portal/contracts';
import {
  AuditRecordEntity,
  GroupEntity,
  RateEntity,
  UserEntity,
  UserServiceEntity,
  createTestDatabase,
  type TestDatabase,
} from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor, trailingSlashProblems } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadServicesAdminConfig } from './config';
import { openDatabase } from './database';
import { keptListCount, pageForModel, parsePageQuery, settleKeptLists } from './page-for-model';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'services-admin-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'services-admin-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  const config = { ...loadServicesAdminConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' };
  // The app gets its own pool, set up as in production (database.ts).
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

// ---------------------------------------------------------------------------------------------------
// Sessions: signed here with the throwaway private key, with the claims identity would put in them.

const signSession = (user: UserEntity) => signTestSessionFor(privateKeyFile, user);

const users = () => db.dataSource.getRepository(UserEntity);
const groups = () => db.dataSource.getRepository(GroupEntity);
const userByEmail = (email: string) => users().findOneByOrFail({ email });
const groupByCode = (code: string) => groups().findOneByOrFail({ code });
const sessionOf = async (email: string) => signSession(await userByEmail(email));

const ADMIN = 'admin@portal.test';
const PLAIN = 'user@portal.test';
const RATES_EDITOR = 'rates@portal.test';

/** Calls the app as the user with that e-mail (anonymous without one). */
async function call(
  email: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  headers?: InjectOptions['headers'],
) {
  const cookies = email ? { [SESSION_COOKIE]: await sessionOf(email) } : undefined;
  return app.inject({ method, url, payload, cookies, headers });
}

const asAdmin = (method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) =>
  call(ADMIN, method, url, payload);

const latestAudit = (entity: string, entityId: string) =>
  db.dataSource
    .getRepository(AuditRecordEntity)
    .findOne({ where: { entity, entityId }, order: { id: 'DESC' } });

const query = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  ).toString();

const page = (params: Record<string, unknown>) =>
  asAdmin(
    'GET',
    `${ADMIN_API.pageForModel}?${query({ modelName: 'users', pageNumber: 1, pageSize: 10, ...params })}`,
  );

// ---------------------------------------------------------------------------------------------------

describe('access', () => {
  const kmiId = async () => (await groupByCode('KMI')).id;
  const someUserId = async () => (await userByEmail(PLAIN)).id;

  /** Every admin call, as [method, url, body]. */
  const adminCalls = async (): Promise<[InjectOptions['method'], string, object?][]> => {
    const groupId = await kmiId();
    const userId = await someUserId();
    return [
      ['GET', `${ADMIN_API.pageForModel}?modelName=users&pageNumber=1&pageSize=10`],
      ['GET', ADMIN_API.allServices],
      ['GET', ADMIN_API.users],
      ['GET', ADMIN_API.groups],
      ['GET', ADMIN_API.groupUsers(groupId)],
      ['GET', '/api/v1.0/group/services'],
      ['GET', ADMIN_API.userServices(userId)],
      ['GET', ADMIN_API.groupServices(groupId)],
      ['POST', ADMIN_API.groupServices(groupId), { service: 'avs' }],
      ['DELETE', ADMIN_API.groupService(groupId, 'avs')],
      ['POST', ADMIN_API.userServices(userId), { service: 'avs' }],
      ['DELETE', ADMIN_API.userService(userId, 'avs')],
      ['PUT', ADMIN_API.groups, { name: 'Nope', code: 'NOPE', admin: null }],
      ['POST', ADMIN_API.group(groupId), { name: 'Nope' }],
      ['DELETE', ADMIN_API.group(groupId)],
      ['POST', ADMIN_API.user(userId), { name: 'Nope' }],
      ['DELETE', ADMIN_API.user(userId)],
    ];
  };

  it('answers 401 without a session and 403 to anyone but an admin, on every admin call', async () => {
    for (const [method, url, body] of await adminCalls()) {
      const anonymous = await call(null, method, url, body);
      expect([method, url, anonymous.statusCode]).toEqual([method, url, 401]);
      expect(anonymous.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      for (const who of [PLAIN, RATES_EDITOR]) {
        const refused = await call(who, method, url, body);
        expect([method, url, who, refused.statusCode]).toEqual([method, url, who, 403]);
      }
    }
  });

  it('lets rates editors at their own group’s rates only, and admins at every group’s', async () => {
    const kmi = await kmiId();
    const ops = (await groupByCode('OPS')).id;
    // Saves put back what is there, so the tables stay as seeded.
    const tables: Record<string, RateRow[]> = {
      [kmi]: (await call(ADMIN, 'GET', ADMIN_API.rates(kmi))).json().rates,
      [ops]: [],
    };
    const calls: [
      InjectOptions['method'],
      (group: string) => string,
      (group: string) => object | undefined,
    ][] = [
      ['GET', ADMIN_API.rates, () => undefined],
      ['POST', () => ADMIN_API.saveRates, (group) => ({ groupID: group, rates: tables[group] })],
      ['GET', ADMIN_API.ratesExport, () => undefined],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(null, method, url(kmi), body(kmi))).statusCode).toBe(401);
      expect((await call(PLAIN, method, url(kmi), body(kmi))).statusCode).toBe(403);
      const other = await call(RATES_EDITOR, method, url(ops), body(ops));
      expect([url(ops), other.statusCode]).toEqual([url(ops), 403]);
      expect(other.json().message).toBe('You may only edit the rates of your own group.');
      expect((await call(ADMIN, method, url(ops), body(ops))).statusCode).toBe(200);
      expect((await call(RATES_EDITOR, method, url(kmi), body(kmi))).statusCode).toBe(200);
    }
  });

  it('reads the role from the database, so a demoted admin loses the API at once', async () => {
    const admin = await users().save(
      users().create({
        name: 'Temporary Admin',
        email: 'temp.admin@portal.test',
        passwordHash: 'x',
        isAdmin: true,
      }),
    );
    const session = signSession(admin);
    const get = () => app.inject({ url: ADMIN_API.allServices, cookies: { [SESSION_COOKIE]: session } });
    expect((await get()).statusCode).toBe(200);
    await users().update(admin.id, { isAdmin: false });
    expect((await get()).statusCode).toBe(403);
    await users().update(admin.id, { isAdmin: true, active: false });
    expect((await get()).statusCode).toBe(401);
    await users().delete(admin.id);
    expect((await get()).statusCode).toBe(401);
  });

  it('asks who is calling before reading the body', async () => {
    const res = await call(null, 'PUT', ADMIN_API.groups, { name: 42 });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token signed with another key', async () => {
    const res = await app.inject({
      url: ADMIN_API.allServices,
      cookies: { [SESSION_COOKIE]: (await sessionOf(ADMIN)).replace(/\.[^.]+$/, '.AAAA') },
    });
    expect(res.statusCode).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('page-for-model', () => {
  /** 45 users in two extra groups (Alpha Brokers, Zulu Assessors), a few without a group. */
  beforeAll(async () => {
    const [alpha] = await db.dataSource.query(
      `INSERT INTO identity.groups (name, code, professional_fee_percentage) VALUES ('Alpha Brokers', 'ALP', 5) RETURNING id`,
    );
    const [zulu] = await db.dataSource.query(
      `INSERT INTO identity.groups (name, code, professional_fee_percentage, active) VALUES ('Zulu Assessors', 'ZUL', 20, false) RETURNING id`,
    );
    await db.dataSource.query(
      `INSERT INTO identity.users (name, email, password_hash, group_id, active, created_at)
       SELECT 'Paging Person ' || lpad(n::text, 2, '0'), 'paging' || n || '@example.co.za', 'x',
              CASE WHEN n % 15 = 0 THEN NULL WHEN n % 2 = 0 THEN $1::uuid ELSE $2::uuid END,
              n % 3 <> 0, timestamptz '2025-03-01 10:00+02' + n * interval '1 day'
       FROM generate_series(1, 45) AS n`,
      [alpha.id, zulu.id],
    );
  });

  const pagingFilter = { name: { compareBy: 'startsWith', compareTo: 'Paging Person' } };

  it('pages, with the total of the filter', async () => {
    const first = await page({ ...pagingFilter, pageSize: 20 });
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(45);
    expect(
      first
        .json()
        .docs.map((u: AdminUser) => u.name)
        .slice(0, 3),
    ).toEqual(['Paging Person 01', 'Paging Person 02', 'Paging Person 03']);
    const third = (await page({ ...pagingFilter, pageSize: 20, pageNumber: 3 })).json();
    expect(third.docs.map((u: AdminUser) => u.name)).toEqual(
      ['41', '42', '43', '44', '45'].map((n) => `Paging Person ${n}`),
    );
    expect((await page({ ...pagingFilter, pageSize: 20, pageNumber: 4 })).json()).toEqual({
      docs: [],
      total: 45,
    });
    expect(first.json().docs[0]).toEqual({
      _id: expect.any(String),
      name: 'Paging Person 01',
      email: 'paging1@example.co.za',
      group: expect.any(String),
      groupName: 'Zulu Assessors',
      active: true,
      admin: false,
      ratesEditor: false,
      saviOperator: false,
      saviQC: false,
      claimsUser: false,
      services: [],
      createdAt: '2025-03-02T08:00:00.000Z',
    });
  });

  it('gives every page of every sort in the same order as one big page (pages past the middle included)', async () => {
    for (const sort of [
      [['name', 'asc']],
      [['name', 'desc']],
      [['email', 'desc']],
      [['groupName', 'asc']],
      [['groupName', 'desc']],
      [['createdAt', 'desc']],
      [['active', 'asc']],
    ]) {
      const all = (await page({ ...pagingFilter, sort, pageSize: 45 }))
        .json()
        .docs.map((u: AdminUser) => u._id);
      const paged: string[] = [];
      for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
        const res = await page({ ...pagingFilter, sort, pageSize: 10, pageNumber });
        paged.push(...res.json().docs.map((u: AdminUser) => u._id));
      }
      expect([sort, paged]).toEqual([sort, all]);
    }
  });

  it('reads pages the same whichever way it takes (walk from either end, or sorting the matches)', async () => {
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    const ways = [
      { concurrentWalkLimit: 0, sortedMatchesLimit: 0, checkpointStep: 0 },
      {
        concurrentWalkLimit: 1_000_000,
        sortedMatchesLimit: 1_000_000,
        checkpointStep: 0,
        keepMatches: false,
      },
      // Kept lists: checkpoints every 3 rows, a filter's sorted matches (read on the first page).
      { checkpointStep: 3, waitForKeptLists: true },
      // As requests go: the plain way until the kept lists read in the background are there.
      {},
    ];
    for (const [sort, filter] of [
      [[['createdAt', 'desc']], {}],
      [[['name', 'asc']], pagingFilter],
      [[['email', 'desc']], { groupName: { compareBy: 'contains', compareTo: 'a' } }],
      [[['groupName', 'asc']], {}],
      [[['groupName', 'desc']], { active: { compareBy: 'is', compareTo: 'true' } }],
      [[['groupName', 'asc']], pagingFilter],
      [[['groupName', 'desc']], { email: { compareBy: 'contains', compareTo: 'example' } }],
    ] as const) {
      const query = (pageNumber: number, pageSize: number) =>
        parsePageQuery({
          modelName: 'users',
          pageNumber: String(pageNumber),
          pageSize: String(pageSize),
          sort: JSON.stringify(sort),
          ...Object.fromEntries(
            Object.entries(filter).map(([field, value]) => [field, JSON.stringify(value)]),
          ),
        });
      const all = await pageForModel(appDatabase.manager, query(1, 1000));
      for (const way of ways) {
        for (let pageNumber = 1; pageNumber <= Math.ceil(all.total / 7) + 1; pageNumber++) {
          const page = await pageForModel(appDatabase.manager, query(pageNumber, 7), way);
          expect(page.total).toBe(all.total);
          expect([sort, way, pageNumber, ids(page.docs)]).toEqual([
            sort,
            way,
            pageNumber,
            ids(all.docs).slice((pageNumber - 1) * 7, pageNumber * 7),
          ]);
        }
      }
    }
  });

  it('reads pages from kept lists (checkpoints, sorted matches) as the plain way does, also after users and groups change', async () => {
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    const query = (
      sort: [string, string],
      filter: Record<string, unknown>,
      pageNumber: number,
      pageSize: number,
    ) =>
      parsePageQuery({
        modelName: 'users',
        pageNumber: String(pageNumber),
        pageSize: String(pageSize),
        sort: JSON.stringify([sort]),
        ...Object.fromEntries(Object.entries(filter).map(([field, value]) => [field, JSON.stringify(value)])),
      });
    const active = { compareBy: 'is', compareTo: 'true' };
    const cases = [
      [['name', 'asc'], {}],
      [['name', 'desc'], { active }],
      [['email', 'asc'], { active: { compareBy: 'not', compareTo: 'true' } }],
      [['email', 'desc'], {}],
      [['createdAt', 'asc'], { active, admin: { compareBy: 'is', compareTo: 'false' } }],
      [['createdAt', 'desc'], {}],
      // Kept sorted matches of a filter.
      [['name', 'asc'], { name: { compareBy: 'contains', compareTo: 'o' } }],
      [['groupName', 'desc'], { email: { compareBy: 'contains', compareTo: 'example' } }],
      [['createdAt', 'asc'], { groupName: { compareBy: 'contains', compareTo: 'alpha' } }],
      [['groupName', 'asc'], { groupName: { compareBy: 'isNotEmpty', compareTo: '' }, active }],
    ] as const;
    const compare = async (when: string) => {
      for (const [sort, filter] of cases) {
        // The plain way, without kept lists, in one page: what every smaller page must be a slice of.
        const all = await pageForModel(appDatabase.manager, query([...sort], filter, 1, 1000), {
          checkpointStep: 0,
          keepMatches: false,
        });
        for (const step of [1, 4]) {
          for (let pageNumber = 1; pageNumber <= Math.ceil(all.total / 7) + 1; pageNumber++) {
            const page = await pageForModel(appDatabase.manager, query([...sort], filter, pageNumber, 7), {
              checkpointStep: step,
              waitForKeptLists: true,
            });
            expect([when, sort, filter, step, pageNumber, page.total, ids(page.docs)]).toEqual([
              when,
              sort,
              filter,
              step,
              pageNumber,
              all.total,
              ids(all.docs).slice((pageNumber - 1) * 7, pageNumber * 7),
            ]);
          }
        }
      }
    };
    await db.dataSource.query(
      `INSERT INTO identity.users (name, email, password_hash, created_at)
       VALUES ('Checkpoint Mover', 'cp-mover@example.co.za', 'x', timestamptz '2025-03-10 10:00+02')`,
    );
    await compare('at first');
    // Each change moves users past the kept checkpoints: the revision makes them be read again.
    await db.dataSource.query(
      `UPDATE identity.users SET name = 'AAA Moved', email = 'zzz-moved@example.co.za',
              created_at = timestamptz '2001-01-01', active = NOT active
       WHERE email = 'cp-mover@example.co.za'`,
    );
    await compare('after an update');
    await db.dataSource.query(
      `INSERT INTO identity.users (name, email, password_hash) VALUES ('Checkpoint New', 'cp-new@example.co.za', 'x')`,
    );
    await compare('after an insert');
    await db.dataSource.query(
      `DELETE FROM identity.users WHERE email IN ('cp-new@example.co.za', 'zzz-moved@example.co.za')`,
    );
    await compare('after a delete');
    // A group's name places its users in the groupName sort and filters.
    await db.dataSource.query(`UPDATE identity.groups SET name = 'Aardvark Brokers' WHERE code = 'ZUL'`);
    await compare('after a group is renamed');
    await db.dataSource.query(`UPDATE identity.groups SET name = 'Zulu Assessors' WHERE code = 'ZUL'`);
    // A login (last_login_at) moves nobody: the revision stays.
    const revision = async () =>
      (await db.dataSource.query('SELECT revision::text AS r FROM identity.user_list_revision'))[0].r;
    const before = await revision();
    await db.dataSource.query(`UPDATE identity.users SET last_login_at = now() WHERE email = '${ADMIN}'`);
    expect(await revision()).toBe(before);
  });

  it('never waits for a kept list: the plain way answers while it is read, and after any change', async () => {
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    const query = (pageNumber: number) =>
      parsePageQuery({
        modelName: 'users',
        pageNumber: String(pageNumber),
        pageSize: '7',
        sort: JSON.stringify([['name', 'desc']]),
        name: JSON.stringify({ compareBy: 'contains', compareTo: 'paging person' }),
      });
    const plain = async (pageNumber: number) =>
      ids((await pageForModel(appDatabase.manager, query(pageNumber), { keepMatches: false })).docs);

    await settleKeptLists(appDatabase);
    const before = keptListCount(appDatabase);
    const first = await pageForModel(appDatabase.manager, query(2));
    expect(ids(first.docs)).toEqual(await plain(2));
    // The sorted matches were read meanwhile and are kept.
    await settleKeptLists(appDatabase);
    expect(keptListCount(appDatabase)).toBe(before + 1);
    expect(ids((await pageForModel(appDatabase.manager, query(2))).docs)).toEqual(await plain(2));

    // A user moves to the front of the sort: the kept matches are out of date, the page is right at once.
    await db.dataSource.query(
      `UPDATE identity.users SET name = 'Paging Person 99' WHERE email = 'paging3@example.co.za'`,
    );
    const moved = await pageForModel(appDatabase.manager, query(1));
    expect(moved.docs[0].name).toBe('Paging Person 99');
    expect(ids(moved.docs)).toEqual(await plain(1));
    await settleKeptLists(appDatabase);
    expect(ids((await pageForModel(appDatabase.manager, query(1))).docs)).toEqual(await plain(1));
    await db.dataSource.query(
      `UPDATE identity.users SET name = 'Paging Person 03' WHERE email = 'paging3@example.co.za'`,
    );
    await settleKeptLists(appDatabase);
  });

  it('sorts by group name, users without a group last, and by name case-insensitively', async () => {
    const byGroup = (await page({ ...pagingFilter, sort: [['groupName', 'asc']], pageSize: 45 })).json().docs;
    const names = byGroup.map((u: AdminUser) => u.groupName);
    expect(names[0]).toBe('Alpha Brokers');
    expect(names[names.length - 1]).toBe('');
    expect(names.indexOf('Zulu Assessors')).toBeGreaterThan(names.lastIndexOf('Alpha Brokers'));
    const alpha = byGroup
      .filter((u: AdminUser) => u.groupName === 'Alpha Brokers')
      .map((u: AdminUser) => u.name);
    expect(alpha).toEqual([...alpha].sort());
    const descending = (await page({ ...pagingFilter, sort: [['groupName', 'desc']], pageSize: 45 })).json()
      .docs;
    expect(descending[0].groupName).toBe('');
    expect(descending.map((u: AdminUser) => u._id)).toEqual(byGroup.map((u: AdminUser) => u._id).reverse());

    await users().insert({ name: 'aardvark Lowercase', email: 'aardvark@example.co.za', passwordHash: 'x' });
    const byName = (await page({ sort: [['name', 'asc']], pageSize: 1 })).json().docs;
    expect(byName[0].name).toBe('aardvark Lowercase');
    // A single pair is read as a list of one.
    expect((await page({ sort: ['name', 'desc'], pageSize: 1 })).json().docs[0].name).not.toBe(
      'aardvark Lowercase',
    );
  });

  it('filters with each operator', async () => {
    const total = async (filters: Record<string, unknown>, modelName = 'users') =>
      (await page({ modelName, ...filters })).json().total;
    const within = (filter: object) => ({ ...pagingFilter, ...filter });

    expect(await total(within({ email: { compareBy: 'contains', compareTo: 'PAGING4' } }))).toBe(7);
    expect(await total({ name: { compareBy: 'equals', compareTo: 'paging person 07' } })).toBe(1);
    expect(await total({ name: { compareBy: '=', compareTo: 'Paging Person 07' } })).toBe(1);
    expect(await total(within({ name: { compareBy: 'endsWith', compareTo: '5' } }))).toBe(5);
    expect(
      await total({ email: { compareBy: 'endsWith', compareTo: '@example.co.za' } }),
    ).toBeGreaterThanOrEqual(45);
    expect(await total(within({ groupName: { compareBy: 'equals', compareTo: 'alpha brokers' } }))).toBe(21);
    expect(await total(within({ groupName: { compareBy: 'contains', compareTo: 'ssess' } }))).toBe(21);
    expect(await total(within({ groupName: { compareBy: 'isEmpty' } }))).toBe(3);
    expect(await total(within({ groupName: { compareBy: 'isNotEmpty' } }))).toBe(42);
    expect(await total(within({ groupName: { compareBy: '!=', compareTo: 'Alpha Brokers' } }))).toBe(21);
    expect(await total(within({ active: { compareBy: 'is', compareTo: 'false' } }))).toBe(15);
    expect(await total(within({ active: { compareBy: 'is', compareTo: true } }))).toBe(30);
    expect(await total(within({ active: { compareBy: 'not', compareTo: true } }))).toBe(15);
    expect(await total(within({ admin: { compareBy: '=', compareTo: 'true' } }))).toBe(0);
    // A filter the grid has not filled in yet applies nothing.
    expect(await total(within({ active: { compareBy: 'is', compareTo: '' } }))).toBe(45);
    expect(await total(within({ email: { compareBy: 'contains' } }))).toBe(45);

    // Dates are South African calendar days: paging1 was created 2025-03-02 10:00 SAST.
    expect(await total(within({ createdAt: { compareBy: 'is', compareTo: '2025-03-02' } }))).toBe(1);
    expect(await total(within({ createdAt: { compareBy: 'not', compareTo: '2025-03-02' } }))).toBe(44);
    expect(await total(within({ createdAt: { compareBy: '>', compareTo: '2025-04-10' } }))).toBe(5);
    expect(await total(within({ createdAt: { compareBy: '>=', compareTo: '2025-04-10' } }))).toBe(6);
    expect(await total(within({ createdAt: { compareBy: '<', compareTo: '2025-03-04' } }))).toBe(2);
    expect(await total(within({ createdAt: { compareBy: '<=', compareTo: '2025-03-04' } }))).toBe(3);
    expect(await total(within({ createdAt: { compareBy: '<', compareTo: '2025-03-03T08:00:00Z' } }))).toBe(1);

    expect(await total({ professionalFeePercentage: { compareBy: '>', compareTo: 12.5 } }, 'groups')).toBe(1);
    expect(await total({ professionalFeePercentage: { compareBy: '>=', compareTo: '12.5' } }, 'groups')).toBe(
      2,
    );
    expect(await total({ professionalFeePercentage: { compareBy: '<', compareTo: 10 } }, 'groups')).toBe(2);
    expect(await total({ professionalFeePercentage: { compareBy: '<=', compareTo: 10 } }, 'groups')).toBe(3);
    expect(await total({ professionalFeePercentage: { compareBy: '!=', compareTo: 0 } }, 'groups')).toBe(4);
    expect(await total({ code: { compareBy: 'startsWith', compareTo: 'k' } }, 'groups')).toBe(1);
    expect(await total({ active: { compareBy: 'is', compareTo: 'false' } }, 'groups')).toBe(1);
    expect(await total({ reportNameFormat: { compareBy: 'isEmpty' } }, 'groups')).toBe(5);
  });

  it('reads the totals of no filter or one flag from the kept counts, exactly', async () => {
    const count = async (where: string) =>
      (await db.dataSource.query(`SELECT count(*)::int AS n FROM identity.users WHERE ${where}`))[0].n;
    expect((await page({})).json().total).toBe(await count('true'));
    const columns = { active: 'active', admin: 'is_admin', saviQC: 'savi_qc', claimsUser: 'claims_user' };
    for (const [field, column] of Object.entries(columns)) {
      for (const [compareBy, compareTo, where] of [
        ['is', 'true', column],
        ['is', false, `NOT ${column}`],
        ['not', true, `NOT ${column}`],
        ['!=', 'false', column],
      ] as const) {
        const res = await page({ [field]: { compareBy, compareTo } });
        expect([field, compareBy, compareTo, res.json().total]).toEqual([
          field,
          compareBy,
          compareTo,
          await count(where),
        ]);
      }
    }
  });

  it('answers groups with their admin, services and member count', async () => {
    const res = await page({ modelName: 'groups', code: { compareBy: 'equals', compareTo: 'KMI' } });
    expect(res.statusCode).toBe(200);
    const [kmi] = res.json().docs as AdminGroup[];
    expect(kmi).toMatchObject({
      name: 'Karoo Mutual Insurance',
      code: 'KMI',
      adminLabel: 'Thandiwe Nkosi (admin@portal.test)',
      professionalFeePercentage: 12.5,
      services: ['avs', 'iris', 'savi', 'spatialkey'],
      userCount: 4,
    });
    expect(kmi.references[0][1]).toBe('POLICY_NUMBER');
    const sorted = (
      await page({ modelName: 'groups', sort: [['professionalFeePercentage', 'desc']] })
    ).json();
    expect(sorted.docs.map((g: AdminGroup) => g.code).slice(0, 2)).toEqual(['ZUL', 'KMI']);
  });

  it.each([
    [{ modelName: 'requests' }, 'modelName must be one of users, groups'],
    [{ pageNumber: '0' }, 'pageNumber must be a positive integer'],
    [{ pageNumber: '-1' }, 'pageNumber must be a positive integer'],
    [{ pageNumber: '1.5' }, 'pageNumber must be a positive integer'],
    [{ pageNumber: 'abc' }, 'pageNumber must be a positive integer'],
    [{ pageSize: '0' }, 'pageSize must be a positive integer no greater than 1000'],
    [{ pageSize: '1001' }, 'pageSize must be a positive integer no greater than 1000'],
    [
      { password_hash: { compareBy: 'contains', compareTo: 'a' } },
      "Unknown filter field 'password_hash' for users.",
    ],
    [{ name: '{"compareBy":' }, "The filter of 'name' is not valid JSON"],
    [{ name: { compareBy: 'like', compareTo: 'a' } }, "Unknown operator 'like' in the filter of 'name'."],
    [{ name: { compareBy: '>', compareTo: 'a' } }, "The operator '>' does not apply to 'name'."],
    [{ active: { compareBy: 'is', compareTo: 'maybe' } }, "The filter of 'active' needs true or false."],
    [{ name: { compareBy: 'contains', compareTo: { $ne: 1 } } }, "The filter of 'name' needs text."],
    [
      { modelName: 'groups', professionalFeePercentage: { compareBy: '>', compareTo: 'lots' } },
      "The filter of 'professionalFeePercentage' needs a number.",
    ],
    [{ createdAt: { compareBy: 'is', compareTo: 'yesterday' } }, "The filter of 'createdAt' needs a date"],
    [{ sort: [['password_hash', 'asc']] }, "Cannot sort users by 'password_hash'."],
    [{ sort: [['name', 'sideways']] }, "The sort direction of 'name' must be asc or desc."],
    [{ sort: 'name asc' }, 'sort is not valid JSON'],
    [{ sort: { name: 'asc' } }, 'sort must be a JSON list'],
  ])('refuses %j with a 400 that says why', async (params, message) => {
    const res = await page(params);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('keeps SQL out: field names only through the table, values always bound', async () => {
    for (const field of ['name;DROP TABLE identity.users', 'u.name', '"name"', '1=1--']) {
      expect((await page({ [field]: { compareBy: 'contains', compareTo: 'a' } })).statusCode).toBe(400);
      expect((await page({ sort: [[field, 'asc']] })).statusCode).toBe(400);
    }
    for (const value of ["'; DROP TABLE identity.users; --", "x' OR '1'='1", '%', '_']) {
      const res = await page({ name: { compareBy: 'contains', compareTo: value } });
      expect([value, res.statusCode, res.json().total]).toEqual([value, 200, 0]);
    }
    const sorted = await page({ sort: [['name', 'asc; DROP TABLE identity.users']] });
    expect(sorted.statusCode).toBe(400);
    expect(await users().count()).toBeGreaterThan(45);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('user and group lists', () => {
  it('lists users by name in a window, with a search', async () => {
    const res = await asAdmin('GET', `${ADMIN_API.users}?search=PORTAL.TEST&limit=3&offset=1`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.total).toBe(7);
    expect(body.users).toHaveLength(3);
    const everyone = (await asAdmin('GET', `${ADMIN_API.users}?search=portal.test`)).json().users;
    expect(body.users).toEqual(everyone.slice(1, 4));
    expect(everyone.map((u: AdminUser) => u.name)).toEqual(
      [...everyone.map((u: AdminUser) => u.name)].sort(),
    );
  });

  it('never lists more than 500 users at once', async () => {
    const res = await asAdmin('GET', `${ADMIN_API.users}?limit=501`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('limit must be <= 500');
    expect((await asAdmin('GET', ADMIN_API.users)).json().users.length).toBeLessThanOrEqual(100);
  });

  it('lists groups, and the users of one group', async () => {
    const res = (await asAdmin('GET', `${ADMIN_API.groups}?search=kmi`)).json();
    expect(res).toMatchObject({ success: true, total: 1, groups: [{ code: 'KMI', userCount: 4 }] });
    const kmi = res.groups[0] as AdminGroup;
    const members = (await asAdmin('GET', `${ADMIN_API.groupUsers(kmi._id)}?limit=2`)).json();
    expect(members.total).toBe(4);
    expect(members.users.map((u: AdminUser) => u.name)).toEqual(['Johan Botha', 'Lerato Mokoena']);
    expect((await asAdmin('GET', ADMIN_API.groupUsers(randomUUID()))).statusCode).toBe(404);
    expect((await asAdmin('GET', ADMIN_API.groupUsers('not-a-uuid'))).statusCode).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('service assignment', () => {
  it('lists every service, and the admin’s own group’s', async () => {
    const all = (await asAdmin('GET', ADMIN_API.allServices)).json();
    expect(all.success).toBe(true);
    expect(all.services.map((s: { identifier: string }) => s.identifier).sort()).toEqual([
      'avs',
      'iris',
      'savi',
      'spatialkey',
    ]);
    expect(all.services[0]).toEqual({
      _id: expect.any(String),
      identifier: expect.any(String),
      name: expect.any(String),
      description: expect.any(String),
      url: expect.any(String),
      image: expect.any(String),
      active: true,
      config: { country: 'ZA', centre: expect.any(Object), zoom: 6 },
    });
    expect((await asAdmin('GET', '/api/v1.0/group/services')).json()).toEqual({
      success: true,
      services: ['avs', 'iris', 'savi', 'spatialkey'],
    });
  });

  it('adds and removes a group’s service idempotently, by identifier or id, auditing each change once', async () => {
    const hvv = await groupByCode('HVV');
    const url = ADMIN_API.groupServices(hvv.id);
    expect((await asAdmin('GET', url)).json().services).toEqual(['iris', 'savi']);

    const added = await asAdmin('POST', url, { service: 'SpatialKey' });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ success: true, services: ['iris', 'savi', 'spatialkey'] });
    const audit = await latestAudit('group', hvv.id);
    expect(audit).toMatchObject({
      message: 'Service spatialkey granted to group HVV',
      before: { services: ['iris', 'savi'] },
      after: { services: ['iris', 'savi', 'spatialkey'] },
      actorUserId: (await userByEmail(ADMIN)).id,
    });
    expect((await asAdmin('POST', url, { service: 'spatialkey' })).json().services).toHaveLength(3);
    expect((await latestAudit('group', hvv.id))!.id).toBe(audit!.id);

    const spatialKey = (await asAdmin('GET', ADMIN_API.allServices))
      .json()
      .services.find((s: { identifier: string }) => s.identifier === 'spatialkey');
    const removed = await asAdmin('DELETE', ADMIN_API.groupService(hvv.id, spatialKey._id));
    expect(removed.json()).toEqual({ success: true, services: ['iris', 'savi'] });
    expect((await asAdmin('DELETE', ADMIN_API.groupService(hvv.id, 'spatialkey'))).statusCode).toBe(200);
  });

  it('adds and removes a user’s own service', async () => {
    const user = await userByEmail(PLAIN);
    expect((await asAdmin('POST', ADMIN_API.userServices(user.id), { service: 'avs' })).json()).toEqual({
      success: true,
      services: ['avs'],
    });
    expect((await asAdmin('GET', ADMIN_API.userServices(user.id))).json().services).toEqual(['avs']);
    expect(await latestAudit('user', user.id)).toMatchObject({
      message: `Service avs granted to user ${PLAIN}`,
      after: { services: ['avs'] },
    });
    expect((await asAdmin('DELETE', ADMIN_API.userService(user.id, 'avs'))).json().services).toEqual([]);
  });

  it('answers 404 for an unknown service, group or user, and 400 for a bad body', async () => {
    const kmi = await groupByCode('KMI');
    const unknownService = await asAdmin('POST', ADMIN_API.groupServices(kmi.id), { service: 'teleport' });
    expect(unknownService.statusCode).toBe(404);
    expect(unknownService.json().message).toBe("There is no service 'teleport'.");
    expect(
      (await asAdmin('POST', ADMIN_API.groupServices(randomUUID()), { service: 'avs' })).statusCode,
    ).toBe(404);
    expect((await asAdmin('DELETE', ADMIN_API.userService(randomUUID(), 'avs'))).statusCode).toBe(404);
    expect((await asAdmin('GET', ADMIN_API.userServices('x'))).statusCode).toBe(404);
    const bad = await asAdmin('POST', ADMIN_API.groupServices(kmi.id), {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("must have required property 'service'");
  });
});

// ---------------------------------------------------------------------------------------------------

describe('groups', () => {
  const newGroup = {
    name: 'Cape Coastal Brokers',
    code: 'CCB',
    admin: null as string | null,
    references: [
      ['Policy Number', ''],
      ['Broker e-mail', ''],
      ['Branch', 'BRANCH_CODE', 7, false, '^[0-9]{3}$', 'Three digits'],
    ],
    extraField: 'Betterments',
    includeVAT: true,
    professionalFeePercentage: 7.5,
  };

  it('creates a group, completing its references, and audits it', async () => {
    const admin = await userByEmail(ADMIN);
    const res = await asAdmin('PUT', ADMIN_API.groups, {
      ...newGroup,
      admin: admin.id,
      references: [
        ['Policy Number', ''],
        ['Broker e-mail', null],
        ['Branch', 'BRANCH_CODE', 7, false, '^[0-9]{3}$', 'Three digits'],
      ],
    });
    expect(res.statusCode).toBe(201);
    const { success, group } = res.json() as { success: boolean; group: AdminGroup };
    expect(success).toBe(true);
    expect(group).toMatchObject({
      name: 'Cape Coastal Brokers',
      code: 'CCB',
      admin: admin.id,
      adminLabel: 'Thandiwe Nkosi (admin@portal.test)',
      active: true,
      includeVAT: true,
      includeProfessionalFee: false,
      professionalFeePercentage: 7.5,
      extraField: 'Betterments',
      reportNameFormat: '',
      claimsReferences: [],
      services: [],
      userCount: 0,
    });
    expect(group.references).toEqual([
      ['Policy Number', 'POLICY_NUMBER', 0, true],
      ['Broker e-mail', 'BROKER_E_MAIL', 1, true],
      ['Branch', 'BRANCH_CODE', 7, false, '^[0-9]{3}$', 'Three digits'],
    ]);
    expect(await latestAudit('group', group._id)).toMatchObject({
      message: 'Group CCB created',
      before: null,
      after: { name: 'Cape Coastal Brokers', code: 'CCB', adminUserId: admin.id },
    });
  });

  it.each([
    [{ code: 'ccb' }, 409, "A group with the code 'ccb' already exists."],
    [{ code: 'NEW', admin: randomUUID() }, 400, 'The group admin must be an existing user.'],
    [{ code: 'NEW', admin: 'someone' }, 400, 'The group admin must be an existing user.'],
    [{ code: 'NEW', name: '   ' }, 400, 'Name may not be empty.'],
    [{ code: '  ' }, 400, 'Code may not be empty.'],
    [{ code: 'NEW', references: [['  ', 'KEY', 0, true]] }, 400, 'A reference needs a label.'],
    [
      {
        code: 'NEW',
        references: [
          ['A b', ''],
          ['A-B', null],
        ],
      },
      400,
      'Two references have the key A_B.',
    ],
    [
      { code: 'NEW', references: [['Ref', 'REF', 0, true, '(']] },
      400,
      "The pattern of reference 'Ref' is not a valid regular expression.",
    ],
    [
      { code: 'NEW', references: [['Ref', 'REF', 0, 'yes']] },
      400,
      "The required flag of reference 'Ref' must be true or false.",
    ],
    [{ code: 'NEW', professionalFeePercentage: 150 }, 400, 'body/professionalFeePercentage must be <= 100'],
    [{ code: undefined }, 400, "body must have required property 'code'"],
  ])('refuses a new group with %j', async (change, status, message) => {
    const res = await asAdmin('PUT', ADMIN_API.groups, { ...newGroup, ...change });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
    expect(await groups().existsBy({ code: 'NEW' })).toBe(false);
  });

  it('updates only the fields sent, audits before and after, and keeps codes unique', async () => {
    const ccb = await groupByCode('CCB');
    const res = await asAdmin('POST', ADMIN_API.group(ccb.id), {
      active: false,
      reportNameFormat: '{ref}-{address}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().group).toMatchObject({
      name: 'Cape Coastal Brokers',
      active: false,
      reportNameFormat: '{ref}-{address}',
    });
    expect(await latestAudit('group', ccb.id)).toMatchObject({
      message: 'Group CCB updated',
      before: { active: true, reportNameFormat: '' },
      after: { active: false, reportNameFormat: '{ref}-{address}' },
    });

    expect((await asAdmin('POST', ADMIN_API.group(ccb.id), { code: 'CCB' })).statusCode).toBe(200);
    const taken = await asAdmin('POST', ADMIN_API.group(ccb.id), { code: 'kmi' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe("A group with the code 'kmi' already exists.");
    const cleared = await asAdmin('POST', ADMIN_API.group(ccb.id), {
      admin: null,
      claimsReferences: [['Claim', '']],
    });
    expect(cleared.json().group).toMatchObject({
      admin: null,
      adminLabel: '',
      claimsReferences: [['Claim', 'CLAIM', 0, true]],
    });
    expect((await asAdmin('POST', ADMIN_API.group(randomUUID()), { name: 'X' })).statusCode).toBe(404);
  });

  it('refuses to delete a group with users, and deletes an empty one with its links and rates', async () => {
    const kmi = await groupByCode('KMI');
    const refused = await asAdmin('DELETE', ADMIN_API.group(kmi.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This group still has 4 user(s). Move them to another group first.');

    const ccb = await groupByCode('CCB');
    await asAdmin('POST', ADMIN_API.groupServices(ccb.id), { service: 'avs' });
    await asAdmin('POST', ADMIN_API.saveRates, {
      groupID: ccb.id,
      rates: [{ type: 'Dwelling', standard: 1 }],
    });
    const deleted = await asAdmin('DELETE', ADMIN_API.group(ccb.id));
    expect(deleted.json()).toEqual({ success: true, message: 'Group deleted.' });
    expect(await groups().existsBy({ id: ccb.id })).toBe(false);
    expect(await db.dataSource.getRepository(RateEntity).countBy({ groupId: ccb.id })).toBe(0);
    expect(await latestAudit('group', ccb.id)).toMatchObject({
      message: 'Group CCB deleted',
      before: { code: 'CCB', services: ['avs'] },
      after: null,
    });
    expect((await asAdmin('DELETE', ADMIN_API.group(ccb.id))).statusCode).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('users', () => {
  let target: UserEntity;

  beforeAll(async () => {
    target = await users().save(
      users().create({
        name: 'Bongani Zulu',
        email: 'bongani.zulu@example.co.za',
        passwordHash: 'x',
        groupId: (await groupByCode('KMI')).id,
      }),
    );
  });

  it('updates a cell at a time, auditing before and after, without ending the user’s session', async () => {
    const hvv = await groupByCode('HVV');
    const res = await asAdmin('POST', ADMIN_API.user(target.id), { group: hvv.id, groupName: 'ignored' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      user: { group: hvv.id, groupName: 'Highveld Valuers' },
    });
    const roles = await asAdmin('POST', ADMIN_API.user(target.id), {
      admin: true,
      saviQC: true,
      claimsUser: true,
    });
    expect(roles.json().user).toMatchObject({
      admin: true,
      saviQC: true,
      claimsUser: true,
      ratesEditor: false,
    });
    expect(await latestAudit('user', target.id)).toMatchObject({
      message: 'User bongani.zulu@example.co.za updated: isAdmin, saviQC, claimsUser',
      before: { isAdmin: false, saviQC: false, claimsUser: false, groupId: hvv.id },
      after: { isAdmin: true, saviQC: true, claimsUser: true, groupId: hvv.id },
    });
    expect((await users().findOneByOrFail({ id: target.id })).tokensValidAfter).toBeNull();
    expect(await redis.get(`session:revoked-before:${target.id}`)).toBeNull();
  });

  it('finds the group by name when only groupName is sent, and clears it with null', async () => {
    const byName = await asAdmin('POST', ADMIN_API.user(target.id), { groupName: 'portal operations' });
    expect(byName.json().user.groupName).toBe('Portal Operations');
    const unknown = await asAdmin('POST', ADMIN_API.user(target.id), { groupName: 'Nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("There is no group named 'Nowhere'.");
    const none = await asAdmin('POST', ADMIN_API.user(target.id), { group: null });
    expect(none.json().user).toMatchObject({ group: null, groupName: '' });
  });

  it('normalises the e-mail address and keeps it unique', async () => {
    const res = await asAdmin('POST', ADMIN_API.user(target.id), {
      email: '  Bongani.Z@Example.CO.ZA ',
      name: ' Bongani Z ',
    });
    expect(res.json().user).toMatchObject({ email: 'bongani.z@example.co.za', name: 'Bongani Z' });
    const taken = await asAdmin('POST', ADMIN_API.user(target.id), { email: 'USER@portal.test' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('An account with this e-mail address already exists.');
  });

  it.each([
    [{ email: 'not-an-address' }, 400, 'Email must be a valid email address.'],
    [{ name: '  ' }, 400, 'Name may not be empty.'],
    [{ group: randomUUID() }, 400, 'There is no group with that id.'],
    [{ admin: 'yes please' }, 400, 'body/admin must be boolean'],
  ])('refuses %j', async (body, status, message) => {
    const res = await asAdmin('POST', ADMIN_API.user(target.id), body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('ends every session of a user it deactivates', async () => {
    const before = Date.now();
    const res = await asAdmin('POST', ADMIN_API.user(target.id), { active: false });
    expect(res.json().user.active).toBe(false);
    const stored = await users().findOneByOrFail({ id: target.id });
    expect(stored.tokensValidAfter!.getTime()).toBeGreaterThanOrEqual(before);
    expect(Number(await redis.get(`session:revoked-before:${target.id}`))).toBe(
      stored.tokensValidAfter!.getTime(),
    );
  });

  it('keeps an admin from locking themselves out', async () => {
    const admin = await userByEmail(ADMIN);
    for (const [body, message] of [
      [{ admin: false }, 'You cannot remove your own admin role.'],
      [{ active: false }, 'You cannot deactivate your own account.'],
    ] as const) {
      const res = await asAdmin('POST', ADMIN_API.user(admin.id), body);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(message);
    }
    const selfDelete = await asAdmin('DELETE', ADMIN_API.user(admin.id));
    expect(selfDelete.json().message).toBe('You cannot delete your own account.');
    expect((await asAdmin('POST', ADMIN_API.user(admin.id), { name: 'Thandiwe Nkosi' })).statusCode).toBe(
      200,
    );
  });

  it('deletes a user with their service links, keeping the audit trail', async () => {
    await asAdmin('POST', ADMIN_API.userServices(target.id), { service: 'iris' });
    const res = await asAdmin('DELETE', ADMIN_API.user(target.id));
    expect(res.json()).toEqual({ success: true, message: 'User deleted.' });
    expect(await users().existsBy({ id: target.id })).toBe(false);
    expect(await db.dataSource.getRepository(UserServiceEntity).countBy({ userId: target.id })).toBe(0);
    expect(await latestAudit('user', target.id)).toMatchObject({
      message: 'User bongani.z@example.co.za deleted',
      before: { email: 'bongani.z@example.co.za', services: ['iris'] },
      after: null,
    });
    expect((await asAdmin('DELETE', ADMIN_API.user(target.id))).statusCode).toBe(404);
    expect((await asAdmin('POST', ADMIN_API.user(target.id), { name: 'X' })).statusCode).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('rates', () => {
  const row = (values: Partial<RateRow>): Partial<RateRow> => ({
    report: 'savi',
    category: 'Buildings',
    ...values,
  });
  let kmiId: string;

  beforeAll(async () => {
    kmiId = (await groupByCode('KMI')).id;
  });

  it('reads a group’s table in order', async () => {
    const res = await call(RATES_EDITOR, 'GET', ADMIN_API.rates(kmiId));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, groupID: kmiId });
    expect(body.rates[0]).toEqual({
      report: 'savi',
      category: 'Buildings',
      type: 'Dwelling',
      class: 'Single storey',
      quantity: 'm²',
      increase: 6.5,
      standard: 9500,
      inbetween: 13500,
      expensive: 19000,
      slope: true,
      fee: true,
      vat: true,
    });
    expect((await asAdmin('GET', ADMIN_API.rates(randomUUID()))).statusCode).toBe(404);
  });

  it('lets the report builder’s operators and QC read any group’s table, but not change it', async () => {
    const other = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    for (const email of ['operator@portal.test', 'qc@portal.test']) {
      const read = await call(email, 'GET', ADMIN_API.rates(kmiId));
      expect(read.statusCode).toBe(200);
      expect(read.json().rates).toEqual(other);
      const save = await call(email, 'POST', ADMIN_API.saveRates, { groupID: kmiId, rates: [] });
      expect(save.statusCode).toBe(403);
    }
    expect((await call(PLAIN, 'GET', ADMIN_API.rates(kmiId))).statusCode).toBe(403);
  });

  it('replaces the table, converting amounts and filling blanks with the new-row defaults', async () => {
    const before = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    const res = await call(RATES_EDITOR, 'POST', ADMIN_API.saveRates, {
      groupID: kmiId,
      rates: [
        row({
          type: 'Dwelling',
          class: 'Single storey',
          quantity: 'm²',
          increase: '6,5' as never,
          standard: '9 800' as never,
        }),
        { type: 'Carport' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().rates).toEqual([
      {
        ...row({ type: 'Dwelling', class: 'Single storey', quantity: 'm²' }),
        type: 'Dwelling',
        increase: 6.5,
        standard: 9800,
        inbetween: 0,
        expensive: 0,
        slope: true,
        fee: true,
        vat: true,
      },
      {
        report: '',
        category: '',
        type: 'Carport',
        class: '',
        quantity: 'no',
        increase: 0,
        standard: 0,
        inbetween: 0,
        expensive: 0,
        slope: true,
        fee: true,
        vat: true,
      },
    ]);
    const audit = await latestAudit('rates', kmiId);
    expect(audit).toMatchObject({
      message: 'Rates of group KMI saved (2 rows)',
      actorUserId: (await userByEmail(RATES_EDITOR)).id,
    });
    expect(audit!.before).toEqual(before);
    expect(audit!.after).toEqual(res.json().rates);
    // Restore the seeded table for the tests below.
    expect((await asAdmin('POST', ADMIN_API.saveRates, { groupID: kmiId, rates: before })).statusCode).toBe(
      200,
    );
  });

  it('refuses bad amounts naming the row and column, and saves nothing', async () => {
    const before = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    const res = await asAdmin('POST', ADMIN_API.saveRates, {
      groupID: kmiId,
      rates: [
        row({}),
        row({}),
        row({ standard: -1 }),
        row({ increase: 'soon' as never, expensive: 'R lots' as never }),
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().messages).toEqual([
      'Row 3: Standard rate must be a non-negative number.',
      'Row 4: % annual increase must be a number.',
      'Row 4: Expensive must be a non-negative number.',
    ]);
    expect(res.json().message).toBe(
      '3 problems in the rates, first: Row 3: Standard rate must be a non-negative number.',
    );
    const single = await asAdmin('POST', ADMIN_API.saveRates, {
      groupID: kmiId,
      rates: [row({ inbetween: -5 })],
    });
    expect(single.json().message).toBe('Row 1: In-between rate must be a non-negative number.');
    expect((await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates).toEqual(before);
    const unknownGroup = await asAdmin('POST', ADMIN_API.saveRates, { groupID: randomUUID(), rates: [] });
    expect(unknownGroup.statusCode).toBe(404);
    const noRates = await asAdmin('POST', ADMIN_API.saveRates, { groupID: kmiId });
    expect(noRates.json().message).toContain("must have required property 'rates'");
  });

  async function exported(groupId = kmiId) {
    const res = await asAdmin('GET', ADMIN_API.ratesExport(groupId));
    expect(res.statusCode).toBe(200);
    return res;
  }

  const multipart = (content: Buffer, field = 'file', filename = 'rates.xlsx') => {
    const boundary = `----portal${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  };

  const importFile = async (content: Buffer, who = ADMIN, field?: string) => {
    const { payload, headers } = multipart(content, field);
    return call(who, 'POST', ADMIN_API.ratesImport(kmiId), payload, headers);
  };

  it('exports the table as a workbook with the editor’s columns, a frozen header and Y/N flags', async () => {
    const res = await exported();
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe('attachment; filename="rates-KMI.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Primary category (report)',
      'Category',
      'Type',
      'Class',
      'Units (quantity)',
      '% annual increase',
      'Standard rate',
      'In-between rate',
      'Expensive',
      'Slope(%)',
      'Prof. fee (Y/N)',
      'VAT (Y/N)',
    ]);
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      'savi',
      'Buildings',
      'Dwelling',
      'Single storey',
      'm²',
      6.5,
      9500,
      13500,
      19000,
      'Y',
      'Y',
      'Y',
    ]);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getColumn(1).width).toBeGreaterThan(20);
  });

  it('imports an exported workbook back to the same rows, without saving', async () => {
    const rates = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    const res = await importFile((await exported()).rawPayload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, groupID: kmiId, rates });
    expect((await latestAudit('rates', kmiId))!.message).not.toMatch(/import/i);
  });

  /** A workbook as a quantity surveyor might make it: columns in another order, headers in any case. */
  async function workbookOf(header: string[], rows: unknown[][]): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('My rates');
    sheet.addRow(header);
    for (const values of rows) sheet.addRow(values);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  const HEADERS = [
    'Primary category (report)',
    'Category',
    'Type',
    'Class',
    'Units (quantity)',
    '% annual increase',
    'Standard rate',
    'In-between rate',
    'Expensive',
    'Slope(%)',
    'Prof. fee (Y/N)',
    'VAT (Y/N)',
  ];

  it('reads columns by header in any order and case, skipping empty rows', async () => {
    const file = await workbookOf(
      ['vat (y/n)', ...HEADERS.slice(0, 11).reverse()],
      [
        ['N', 'yes', 'n', 2000, '1 500,50', 1000, 5, 'no', 'Paving', 'Driveway', 'Improvements', 'savi'],
        [],
        ['', '', '', '', '', '', '', '', '', 'Walls', '', ''],
      ],
    );
    const imported = await importFile(file, RATES_EDITOR);
    expect(imported.statusCode).toBe(200);
    expect(imported.json().rates).toEqual([
      {
        report: 'savi',
        category: 'Improvements',
        type: 'Driveway',
        class: 'Paving',
        quantity: 'no',
        increase: 5,
        standard: 1000,
        inbetween: 1500.5,
        expensive: 2000,
        slope: false,
        fee: true,
        vat: false,
      },
      {
        report: '',
        category: '',
        type: 'Walls',
        class: '',
        quantity: 'no',
        increase: 0,
        standard: 0,
        inbetween: 0,
        expensive: 0,
        slope: true,
        fee: true,
        vat: true,
      },
    ]);
  });

  it('refuses a workbook with bad rows, naming the sheet rows, or missing columns', async () => {
    const bad = await importFile(
      await workbookOf(HEADERS, [
        ['savi', 'Buildings', 'Dwelling', 'Single storey', 'm²', 6.5, 9500, 13500, 19000, 'Y', 'Y', 'Y'],
        ['savi', 'Buildings', 'Dwelling', 'Double storey', 'm²', 'six', -1, 13500, 19000, 'Y', 'maybe', 'Y'],
      ]),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages).toEqual([
      'Row 3: % annual increase must be a number.',
      'Row 3: Standard rate must be a non-negative number.',
      'Row 3: Prof. fee (Y/N) must be Y or N.',
    ]);
    const missing = await importFile(await workbookOf(HEADERS.slice(0, 10), []));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      "The sheet has no column 'Prof. fee (Y/N)', 'VAT (Y/N)'. The first row must hold the column names of the rates editor.",
    );
  });

  it('takes only an xlsx file of at most 5 MB, sent as multipart', async () => {
    const notXlsx = await importFile(Buffer.from('report,category\nsavi,Buildings\n'));
    expect(notXlsx.statusCode).toBe(400);
    expect(notXlsx.json().message).toBe('The file is not an Excel workbook (.xlsx).');
    const zipButNotWorkbook = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]);
    expect((await importFile(zipButNotWorkbook)).json().message).toBe(
      'The workbook could not be read. Save it as an Excel workbook (.xlsx) and try again.',
    );
    const tooLarge = await importFile(
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(5 * 1024 * 1024)]),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe('The file is larger than 5 MB.');
    // A workbook whose parts claim to unpack to 64 MB (a "zip bomb") is refused before it is unpacked.
    const bomb = Buffer.from((await exported()).rawPayload);
    const directory = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(64 * 1024 * 1024, directory + 24);
    expect((await importFile(bomb)).json().message).toBe('The workbook is too large once unpacked.');
    const wrongField = await importFile((await exported()).rawPayload, ADMIN, 'upload');
    expect(wrongField.json().message).toBe("Send the workbook as multipart/form-data, in the field 'file'.");
    const json = await asAdmin('POST', ADMIN_API.ratesImport(kmiId), { rates: [] });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe("Send the workbook as multipart/form-data, in the field 'file'.");
    expect((await importFile((await exported()).rawPayload, PLAIN)).statusCode).toBe(403);
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to services-admin', async () => {
    expect(await trailingSlashProblems(app, { service: 'services-admin' })).toEqual([]);
  });
});
