import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  REQUEST_ADMIN_API,
  REQUEST_UPDATED_CHANNEL,
  SESSION_COOKIE,
  type ConflictAnswer,
  type NearAnswer,
  type RequestChangeAnswer,
  type RequestHistoryAnswer,
  type RequestPagerAnswer,
  type RequestRow,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import { OVERRIDE_QUERY_COMMENT, QC_CHECKS, QS_CHECKS } from '@portal/domain';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadRequestsConfig } from './config';
import { openDatabase } from './database';

// The request queue's calls (spec 02 §7.2, spec 03 §7) on a throwaway PostgreSQL/PostGIS database and the
// real Redis: roles, transitions, versions and concurrency, history, the pager, the stream and the
// duplicate check. Requests are written straight into the table (their creation is requests.test.ts's).

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'queue-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis(redisUrl, 'queue-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

const ADMIN = 'admin@portal.test';
const OPERATOR = 'operator@portal.test';
const QC = 'qc@portal.test';
const PLAIN = 'user@portal.test';
const CLAIMS = 'claims@portal.test';

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  const config = { ...loadRequestsConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' };
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

const users = new Map<string, UserEntity>();
async function userByEmail(email: string) {
  if (!users.has(email))
    users.set(email, await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email }));
  return users.get(email)!;
}

async function call(email: string | null, method: InjectOptions['method'], url: string, payload?: object) {
  let cookies: Record<string, string> | undefined;
  if (email) {
    const user = await userByEmail(email);
    cookies = {
      [SESSION_COOKIE]: signTestSessionFor(privateKeyFile, user),
    };
  }
  return app.inject({ method, url, payload, cookies });
}

let made = 0;
/** A request of `email` straight into the table; answers its id. */
async function request(
  email: string,
  fields: Partial<{
    status: string;
    request_type: string;
    priority: boolean;
    lat: number;
    lng: number;
    address: string;
    created_at: string;
    cant_locate: boolean;
    rve_total: number;
    date_finalised: string;
  }> = {},
): Promise<string> {
  const user = await userByEmail(email);
  const row = {
    status: 'New',
    request_type: 'SAVI',
    priority: false,
    lat: -33.9321,
    lng: 18.8602,
    address: `${++made} Church Street, Stellenbosch`,
    created_at: new Date(Date.UTC(2026, 0, 1) + made * 60_000).toISOString(),
    cant_locate: false,
    rve_total: null as number | null,
    date_finalised: null as string | null,
    ...fields,
  };
  const [{ id }] = (await db.dataSource.query(
    `INSERT INTO requests.requests
       (request_type, status, user_id, user_name, user_email, group_id, group_name, address, lat, lng, point,
        priority, created_at, cant_locate, rve_total, date_finalised, reference, reference_string)
     SELECT $1, $2, u.id, u.name, u.email, g.id, g.name, $3, $4::float8, $5::float8,
            ST_SetSRID(ST_MakePoint($5::float8, $4::float8), 4326), $6, $7, $8, $9, $10,
            '{"POLICY_NUMBER":"KM123456"}', '{"POLICY_NUMBER":"KM123456"}'
       FROM identity.users u LEFT JOIN identity.groups g ON g.id = u.group_id WHERE u.id = $11
     RETURNING id`,
    [
      row.request_type,
      row.status,
      row.address,
      row.lat,
      row.lng,
      row.priority,
      row.created_at,
      row.cant_locate,
      row.rve_total,
      row.date_finalised,
      user.id,
    ],
  )) as { id: string }[];
  return id;
}

const statusOf = async (id: string) =>
  (
    (await db.dataSource.query('SELECT status FROM requests.requests WHERE id = $1', [id])) as {
      status: string;
    }[]
  )[0].status;
const historyOf = async (id: string) =>
  (await db.dataSource.query(
    `SELECT user_name, field, from_value, to_value, comment FROM requests.request_history
      WHERE request_id = $1 ORDER BY id`,
    [id],
  )) as {
    user_name: string;
    field: string;
    from_value: string | null;
    to_value: string | null;
    comment: string | null;
  }[];
const pager = async (email: string, query: Record<string, string> = {}) => {
  const answer = await call(email, 'GET', `${REQUEST_ADMIN_API.pager}?${new URLSearchParams(query)}`);
  expect(answer.statusCode).toBe(200);
  return answer.json<RequestPagerAnswer>();
};

const allChecks = (n: number) => Array.from({ length: n }, () => true);

describe('the pager', () => {
  let own: string[];
  beforeAll(async () => {
    own = [await request(PLAIN), await request(PLAIN, { status: 'Query' }), await request(PLAIN)];
    await request(CLAIMS, { priority: true });
    await request(CLAIMS, { request_type: 'AVS', cant_locate: true });
  });

  it('gives a plain user their own requests, oldest first, whatever user_id they name', async () => {
    const answer = await pager(PLAIN, { limit: '100' });
    expect(answer.docs.map((row) => row.requestID)).toEqual(own);
    expect(answer.total).toBe(3);
    const claims = await userByEmail(CLAIMS);
    expect((await pager(PLAIN, { user_id: claims.id })).total).toBe(0);
  });

  it('gives staff every request, priority first then newest, with the grid row of spec 02 §3', async () => {
    const answer = await pager(ADMIN, { limit: '100' });
    expect(answer.total).toBeGreaterThanOrEqual(5);
    expect(answer.docs[0].priority).toBe('Yes');
    const rest = answer.docs.slice(1).map((row) => row.created);
    expect(rest).toEqual([...rest].sort().reverse());
    const row = answer.docs.find((doc) => doc.requestID === own[0])!;
    expect(row).toMatchObject({
      type: 'SAVI',
      priority: 'No',
      status: 'New',
      user: 'Johan Botha',
      cantlocate: 'No',
      downloaded: 'No',
      disputed: 'No',
      clientReference: '{"POLICY_NUMBER":"KM123456"}',
      reportFee: null,
      version: 1,
    });
    expect(Number.isInteger(row.timeInQueue)).toBe(true);
    expect(row.timeInQueue).toBeGreaterThan(24 * 300);
  });

  it('filters (type, can’t locate, status, address, dates) and sorts, pages without overlap', async () => {
    const savi = await pager(ADMIN, { request_type: 'SAVI', cantlocate: 'No', limit: '100' });
    expect(savi.docs.every((row) => row.type === 'SAVI' && row.cantlocate === 'No')).toBe(true);
    expect((await pager(ADMIN, { status: 'Query' })).docs.map((row) => row.requestID)).toContain(own[1]);
    expect((await pager(ADMIN, { filters: JSON.stringify({ status: 'Query' }) })).total).toBe(
      (await pager(ADMIN, { status: 'Query' })).total,
    );
    const address = (await pager(ADMIN, { address: `${made} church`, limit: '100' })).docs;
    expect(address.every((row) => row.address.toLowerCase().includes(`${made} church`))).toBe(true);
    const day = await pager(ADMIN, { start_date: '2026-01-01', end_date: '2026-01-01', limit: '100' });
    expect(day.total).toBe(5);
    const all = await pager(ADMIN, { sort_object: JSON.stringify({ address: 1 }), limit: '100' });
    const pages = [];
    for (let page = 1; page <= Math.ceil(all.total / 2); page++)
      pages.push(
        ...(
          await pager(ADMIN, { sort_object: JSON.stringify({ address: 1 }), limit: '2', page: String(page) })
        ).docs,
      );
    expect(pages.map((row) => row.requestID)).toEqual(all.docs.map((row) => row.requestID));
  });

  it('answers bad pages, sorts and filters with a clear 400', async () => {
    for (const [query, message] of [
      [{ page: '0' }, /page/],
      [{ limit: '5000' }, /limit/],
      [{ sort_object: '{"password":1}' }, /Cannot sort by 'password'/],
      [{ sort_object: 'not json' }, /sort_object must be/],
      [{ status: 'Lost' }, /Unknown status 'Lost'/],
      [{ start_date: 'yesterday' }, /start_date must be/],
      [{ filters: '{"colour":"red"}' }, /Unknown filter 'colour'/],
    ] as const) {
      const answer = await call(ADMIN, 'GET', `${REQUEST_ADMIN_API.pager}?${new URLSearchParams(query)}`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toMatch(message);
    }
    expect((await call(null, 'GET', REQUEST_ADMIN_API.pager)).statusCode).toBe(401);
  });

  it('answers the path with and without its trailing slash', async () => {
    expect((await call(PLAIN, 'GET', REQUEST_ADMIN_API.pager.replace(/\/$/, ''))).statusCode).toBe(200);
    expect((await call(PLAIN, 'GET', `${REQUEST_ADMIN_API.statusCounts}/`)).statusCode).toBe(200);
  });

  it('streams every match to the console (the same rows as the pager), and refuses plain users', async () => {
    const answer = await call(OPERATOR, 'GET', `${REQUEST_ADMIN_API.all}?request_type=SAVI`);
    expect(answer.statusCode).toBe(200);
    const rows = answer.json<RequestRow[]>();
    expect(rows.length).toBe((await pager(OPERATOR, { request_type: 'SAVI' })).total);
    expect((await call(PLAIN, 'GET', REQUEST_ADMIN_API.all)).statusCode).toBe(403);
  });

  it('counts per status for the filters, scoped like the pager', async () => {
    const mine = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.statusCounts)).json();
    expect(mine).toEqual({ total: 3, counts: { New: 2, Query: 1 } });
  });
});

describe('the workflow', () => {
  it('QS checklist → start report → submit → QC approval → Delivered, each recorded in the history', async () => {
    const id = await request(PLAIN);
    const qs = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qsChecklist, {
      _id: id,
      priority: 'Yes',
      checks: allChecks(QS_CHECKS.length),
      version: 1,
    });
    expect(qs.statusCode).toBe(200);
    expect(qs.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'Ready for QS',
      priority: 'Yes',
      firstQS: 'Pieter van der Merwe',
      version: 2,
    });
    const started = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateStatus, {
      _id: id,
      status: 'In progress',
    });
    expect(started.json<RequestChangeAnswer>().request.status).toBe('In progress');
    const submitted = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, {
      _id: id,
      lat: -33.93,
      lng: 18.86,
    });
    expect(submitted.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'QC check',
      coordinates: { lat: -33.93, lng: 18.86 },
    });

    // Approval: the 7 checks, buildings and price; only saviQC.
    const qc = { _id: id, propertyType: 'RESIDENTIAL', numberOfBuildings: 2, price: 1750 };
    const operator = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      ...qc,
      checks: allChecks(QC_CHECKS.length),
    });
    expect(operator.statusCode).toBe(403);
    expect(operator.json().message).toBe('QC approval needs the saviQC role.');
    const six = await call(QC, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      ...qc,
      checks: [...allChecks(QC_CHECKS.length - 1), false],
    });
    expect(six.statusCode).toBe(400);
    expect(await statusOf(id)).toBe('QC check');
    const approved = await call(QC, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      ...qc,
      checks: allChecks(QC_CHECKS.length),
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'Dispatch',
      rveType: 'RESIDENTIAL',
      numberOfBuildings: 2,
      unitPrice: 1750,
      reportFee: 3500,
    });

    const delivered = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [id] });
    expect(delivered.json()).toEqual({ success: true, updated: 1 });
    expect(await statusOf(id)).toBe('Delivered');

    const history = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.history(id))).json<RequestHistoryAnswer>();
    const statuses = history.history
      .filter((line) => line.field === 'status')
      .map((line) => `${line.from}→${line.to}`);
    expect(statuses.reverse()).toEqual([
      'New→Ready for QS',
      'Ready for QS→In progress',
      'In progress→QC check',
      'QC check→Dispatch',
      'Dispatch→Delivered',
    ]);
    expect(history.history.find((line) => line.field === 'unitPrice')).toMatchObject({
      user: 'Ayesha Patel',
      from: null,
      to: 'R 1 750.00',
    });
  });

  it('refuses transitions the status machine does not allow with 409 and the row as it is', async () => {
    const id = await request(PLAIN);
    const answer = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, { _id: id, lat: -33.9, lng: 18.8 });
    expect(answer.statusCode).toBe(409);
    expect(answer.json<ConflictAnswer>()).toMatchObject({
      message: "A request in 'New' cannot move to 'QC check'.",
      current: { requestID: id, status: 'New' },
    });
    const jump = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateStatus, {
      _id: id,
      status: 'Delivered',
    });
    expect(jump.statusCode).toBe(409);
    expect(await historyOf(id)).toEqual([]);
  });

  it("lets an admin override the status; Query set so records 'Override from Request Admin page'", async () => {
    const id = await request(PLAIN);
    const answer = await call(ADMIN, 'POST', REQUEST_ADMIN_API.updateStatus, { _id: id, status: 'Query' });
    expect(answer.statusCode).toBe(200);
    expect(await historyOf(id)).toEqual([
      {
        user_name: 'Thandiwe Nkosi',
        field: 'status',
        from_value: 'New',
        to_value: 'Query',
        comment: OVERRIDE_QUERY_COMMENT,
      },
    ]);
  });

  it('needs a comment for a query and a dispute; a dispute marks the request disputed', async () => {
    const id = await request(PLAIN, { status: 'Delivered' });
    const empty = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.query, { _id: id, comment: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('A comment is required.');
    const other = await call(CLAIMS, 'POST', REQUEST_ADMIN_API.dispute, { _id: id, comment: 'Wrong house' });
    expect(other.statusCode).toBe(403);
    const disputed = await call(PLAIN, 'POST', REQUEST_ADMIN_API.dispute, {
      _id: id,
      comment: 'Wrong house',
    });
    expect(disputed.json<RequestChangeAnswer>().request).toMatchObject({ status: 'Query', disputed: 'Yes' });
    expect((await historyOf(id)).at(-1)).toMatchObject({ field: 'dispute', comment: 'Wrong house' });
  });

  it('keeps every console call from plain users (403) and unknown ids answer 404, bad ids 400', async () => {
    const id = await request(PLAIN);
    for (const [url, body] of [
      [REQUEST_ADMIN_API.updateStatus, { _id: id, status: 'Ready for QS' }],
      [REQUEST_ADMIN_API.priority, { id, priority: true }],
      [REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 1 }],
      [REQUEST_ADMIN_API.allToDelivered, { ids: [id] }],
      [REQUEST_ADMIN_API.markInvoiced, { requestids: [id], invoiceNumber: 'INV-1' }],
      [REQUEST_ADMIN_API.qsChecklist, { _id: id, priority: false, checks: allChecks(3) }],
    ] as const) {
      const answer = await call(PLAIN, 'POST', url, body);
      expect([url, answer.statusCode]).toEqual([url, 403]);
    }
    expect(await statusOf(id)).toBe('New');
    const missing = await call(ADMIN, 'POST', REQUEST_ADMIN_API.priority, {
      id: '00000000-0000-4000-8000-000000000000',
      priority: true,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.priority, {
      id: 'x; DROP TABLE',
      priority: true,
    });
    expect(bad.statusCode).toBe(400);
    const negative = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: -1 });
    expect(negative.statusCode).toBe(400);
  });
});

describe('edits, versions and bulk changes', () => {
  it('saves each inline edit with its own call and refuses a stale version with the latest row', async () => {
    const id = await request(PLAIN);
    const first = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.numberOfBuildings, {
      id,
      numberOfBuildings: 3,
      version: 1,
    });
    expect(first.json<RequestChangeAnswer>().request).toMatchObject({ numberOfBuildings: 3, version: 2 });
    const stale = await call(QC, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 2000, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ConflictAnswer>().current).toMatchObject({
      numberOfBuildings: 3,
      unitPrice: null,
      version: 2,
    });
    const type = await call(QC, 'POST', REQUEST_ADMIN_API.propertyType, {
      id,
      propertyType: 'COMMERCIAL',
      version: 2,
    });
    expect(type.json<RequestChangeAnswer>().request.rveType).toBe('COMMERCIAL');
  });

  it('of two operators saving the same row at once, one wins and the other gets 409', async () => {
    const id = await request(PLAIN);
    const answers = await Promise.all([
      call(OPERATOR, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 1000, version: 1 }),
      call(QC, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 2000, version: 1 }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json<RequestChangeAnswer>().request;
    const loser = answers.find((answer) => answer.statusCode === 409)!.json<ConflictAnswer>();
    expect(loser.current).toMatchObject({ unitPrice: winner.unitPrice, version: 2 });
    expect((await historyOf(id)).length).toBe(1);
  });

  it('refuses "all to Delivered" whole when one request is not dispatched, listing it', async () => {
    const dispatched = await request(PLAIN, { status: 'Dispatch' });
    const fresh = await request(PLAIN);
    const answer = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, {
      ids: [dispatched, fresh],
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json<ConflictAnswer>().refused).toEqual([
      expect.objectContaining({ id: fresh, status: 'New' }),
    ]);
    expect(await statusOf(dispatched)).toBe('Dispatch');
  });

  it('prioritises, prices and invoices a selection, announcing the change on Redis', async () => {
    const ids = [await request(PLAIN), await request(CLAIMS)];
    const subscriber = redis.duplicate();
    const heard: RequestUpdatedEvent[] = [];
    await subscriber.subscribe(REQUEST_UPDATED_CHANNEL);
    subscriber.on('message', (_channel, message) => heard.push(JSON.parse(message)));
    try {
      expect((await call(OPERATOR, 'POST', REQUEST_ADMIN_API.prioritiseAll, { ids })).statusCode).toBe(403);
      expect((await call(ADMIN, 'POST', REQUEST_ADMIN_API.prioritiseAll, { ids })).json()).toEqual({
        success: true,
        updated: 2,
      });
      const fees = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateAllFees, {
        ids,
        type: 'AGRICULTURAL',
        buildings: 4,
        price: 1250.5,
      });
      expect(fees.statusCode).toBe(200);
      const invoiced = await call(OPERATOR, 'POST', `${REQUEST_ADMIN_API.markInvoiced}/`, {
        requestids: ids,
        invoiceNumber: 'INV-2026-001',
      });
      expect(invoiced.statusCode).toBe(200);
      const rows = (await pager(ADMIN, { invoiceNumber: 'INV-2026-001' })).docs;
      expect(rows.map((row) => [row.priority, row.rveType, row.reportFee])).toEqual([
        ['Yes', 'AGRICULTURAL', 5002],
        ['Yes', 'AGRICULTURAL', 5002],
      ]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard.length).toBe(3);
      expect(heard[0].ids.sort()).toEqual([...ids].sort());
      expect(heard[0].userIds.length).toBe(2);
      expect(heard[0].row).toBeUndefined();
    } finally {
      await subscriber.quit();
    }
  });
});

describe('references, history, the duplicate check and saved views', () => {
  it('reads and edits client references with the group’s labels and rules', async () => {
    const id = await request(PLAIN);
    const read = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.referencesOf(id))).json();
    expect(read.clientReferences).toEqual({ POLICY_NUMBER: 'KM123456' });
    expect(read.fields.map((field: { label: string }) => field.label)).toContain('Policy Number');
    const bad = await call(PLAIN, 'POST', REQUEST_ADMIN_API.references, {
      _id: id,
      clientReferences: { POLICY_NUMBER: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    const saved = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.references, {
      _id: id,
      clientReferences: { POLICY_NUMBER: 'KM654321' },
    });
    expect(saved.json<RequestChangeAnswer>().request.clientReference).toBe('{"POLICY_NUMBER":"KM654321"}');
    expect((await historyOf(id)).map((line) => line.field)).toEqual(['references']);
    expect((await call(CLAIMS, 'GET', REQUEST_ADMIN_API.referencesOf(id))).statusCode).toBe(403);
  });

  it('finds the requests near a request, nearest first, within the radius', async () => {
    const centre = await request(PLAIN, {
      lat: -25.7479,
      lng: 28.2293,
      rve_total: 1_500_000,
      status: 'Finalised',
      date_finalised: '2026-02-01T10:00:00Z',
    });
    const near = await request(CLAIMS, { lat: -25.7485, lng: 28.2299 });
    const nearer = await request(PLAIN, { lat: -25.748, lng: 28.2294 });
    await request(PLAIN, { lat: -26.2041, lng: 28.0473 }); // Johannesburg, ~54 km
    const answer = await call(OPERATOR, 'GET', REQUEST_ADMIN_API.near(centre, 1000));
    expect(answer.statusCode).toBe(200);
    const body = answer.json<NearAnswer>();
    expect(body.centre).toMatchObject({ requestID: centre, finalRve: 1_500_000, dateKind: 'finalised' });
    expect(body.requests.map((row) => row.requestID)).toEqual([nearer, near]);
    expect(body.requests[0].distance).toBeLessThan(body.requests[1].distance);
    const wide = (await call(OPERATOR, 'GET', REQUEST_ADMIN_API.near(centre, 100000))).json<NearAnswer>();
    expect(wide.requests.length).toBe(3);
    // A plain user sees only their own requests around their own request.
    const own = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.near(centre, 1000))).json<NearAnswer>();
    expect(own.requests.map((row) => row.requestID)).toEqual([nearer]);
    expect((await call(CLAIMS, 'GET', REQUEST_ADMIN_API.near(centre, 1000))).statusCode).toBe(403);
    expect((await call(OPERATOR, 'GET', REQUEST_ADMIN_API.near(centre, 0))).statusCode).toBe(400);
    expect((await call(OPERATOR, 'GET', `${REQUEST_ADMIN_API.near(centre, 1000)}/`)).statusCode).toBe(200);
  });

  it('keeps saved views per user, a name saved again replacing the view', async () => {
    const save = (name: string, state: object) =>
      call(OPERATOR, 'POST', REQUEST_ADMIN_API.views, { name, state });
    await save('Queries', { status: 'Query' });
    const views = (await save('queries', { status: 'Query', priority: 'Yes' })).json().views;
    expect(views).toEqual([
      expect.objectContaining({ name: 'queries', state: { status: 'Query', priority: 'Yes' } }),
    ]);
    expect((await call(QC, 'GET', REQUEST_ADMIN_API.views)).json().views).toEqual([]);
    expect((await call(QC, 'DELETE', REQUEST_ADMIN_API.view(views[0].id))).statusCode).toBe(404);
    expect((await call(OPERATOR, 'DELETE', REQUEST_ADMIN_API.view(views[0].id))).statusCode).toBe(204);
  });

  it('numbers GRiP references past the millionth request without repeating one', async () => {
    await db.dataSource.query("SELECT setval('requests.grip_reference_seq', 999998)");
    const ids = [await request(PLAIN), await request(PLAIN)];
    const rows = (await db.dataSource.query(
      'SELECT grip_reference FROM requests.requests WHERE id = ANY($1::uuid[]) ORDER BY grip_reference',
      [ids],
    )) as { grip_reference: string }[];
    expect(rows.map((row) => row.grip_reference.replace(/^GRP-\d{4}-/, ''))).toEqual(['1000000', '999999']);
  });

  it('serves the console settings (ageing targets, statuses, page sizes)', async () => {
    const settings = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.settings)).json();
    expect(settings.pageSizes).toEqual([10, 20, 50, 100, 500, 1000]);
    expect(settings.ageingTargets['QC check']).toBeGreaterThan(0);
  });
});
