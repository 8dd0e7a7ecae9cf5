import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import {
  IRIS_API,
  PORTAL_QUEUES,
  QUEUE_DASHBOARD_PATH,
  SESSION_COOKIE,
  type CanGenerateAnswer,
  type IrisCreateAnswer,
  type ReadyAnswer,
} from '@portal/contracts';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { findSharedDataDir, importRiskLayers } from '@portal/geo';
import { pdfText } from '@portal/pdf-jobs';
import { PdfTestWorkers } from '@portal/pdf-jobs/testing';
import { createRedis, createStorage, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor, trailingSlashProblems } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadIrisConfig, type IrisConfig } from './config';
import { openDatabase } from './database';
import { irisPdfRenderer } from './pdf/renderer';
import { IRIS_PDF_KIND } from './reports';
import { IRIS_TEXT } from './routes/iris';

// The IRiS calls on a throwaway seeded database with the risk layers of ../shared/data, the real Redis
// (a queue prefix of this run) and Debian's Chromium: the report, the imagery step, the polled PDF flow of
// spec 03 §4 with a worker, the download and the request's link, roles and bad input, cancel and
// regenerate, polls answered while no worker runs, and a worker process killed mid-job (SIGKILL).

jest.setTimeout(120_000);

const WORKSPACE = resolve(__dirname, '../../..');
const varDir = mkdtempSync(join(tmpdir(), 'iris-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis(redisUrl, 'iris-test');
const prefix = `iris-test-${randomUUID().slice(0, 8)}`;
const sharedData = findSharedDataDir();
/**
 * A Stellenbosch address (Dorp Street): in the Stellenbosch precinct, soil sites within reach; just west of the
 * elevation model (it starts at 18.9° E), so that section says so.
 */
const STELLENBOSCH = { lat: -33.9376, lng: 18.8603 };

let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
let config: IrisConfig;

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  if (sharedData) await importRiskLayers(db.dataSource, sharedData);
  else
    console.warn('../shared/data is absent: the risk layers are empty, the report says so in every section');
  config = {
    ...loadIrisConfig({
      VAR_DIR: varDir,
      NODE_ENV: 'test',
      IRIS_QUEUE_PREFIX: prefix,
      JWT_PUBLIC_KEY_FILE: publicKeyFile,
      IRIS_SUPPORT_EMAIL: 'help@portal.test',
    }),
    logLevel: 'silent',
  };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.ready();
});

afterAll(async () => {
  await pdfWorkers.close();
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const storage = () => createStorage({ driver: 'local', dir: config.storageDir });

const pdfWorkers = new PdfTestWorkers(() => ({
  queueName: PORTAL_QUEUES.irisPdf,
  redisUrl,
  prefix,
  db: appDatabase,
  storage: storage(),
  renderers: {
    [IRIS_PDF_KIND]: irisPdfRenderer({ ds: appDatabase, storage: storage(), redis, redisPrefix: 'portal' }),
  },
  lockDurationMs: 3000,
  stalledIntervalMs: 500,
}));
const startWorker = () => pdfWorkers.start();

async function call(
  email: string | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object | Buffer,
  headers: Record<string, string> = {},
) {
  let cookies: Record<string, string> = {};
  if (email) {
    const user = await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
    const token = signTestSessionFor(privateKeyFile, user);
    cookies = { [SESSION_COOKIE]: token };
  }
  return app.inject({ method, url, payload, cookies, headers });
}

/** An IRIS request of `email` at a point, as PUT /api/v1.0/request/ stores it. */
async function irisRequest(email: string, point = STELLENBOSCH, type = 'IRIS'): Promise<string> {
  const [row] = (await db.dataSource.query(
    `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, address, point)
     SELECT $2, 'New', u.id, u.name, u.email, '12 Dorp Street, Stellenbosch', ST_SetSRID(ST_MakePoint($3, $4), 4326)
       FROM identity.users u WHERE u.email = $1
     RETURNING id`,
    [email, type, point.lng, point.lat],
  )) as { id: string }[];
  return row.id;
}

async function createReport(email = 'user@portal.test', point = STELLENBOSCH) {
  const requestId = await irisRequest(email, point);
  const answer = await call(email, 'PUT', IRIS_API.create, { requestId });
  expect(answer.statusCode).toBe(201);
  return answer.json<IrisCreateAnswer>();
}

/** The imagery step done the way the screen does it when no high-resolution imagery covers the point. */
const noCoverage = (reportId: string, email = 'user@portal.test') =>
  call(email, 'POST', IRIS_API.highres(reportId, 1), { counts: { 0: 0, 1: 5, 2: 0 } });

async function untilReady(reportId: string, state: ReadyAnswer['state'] = 'done'): Promise<ReadyAnswer> {
  for (let i = 0; i < 300; i++) {
    const ready = (await call('user@portal.test', 'GET', IRIS_API.ready(reportId))).json<ReadyAnswer>();
    if (ready.state === state) return ready;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`report ${reportId} never reached ${state}`);
}

it('creates the report of an IRIS request from its point, once', async () => {
  const { success, request, report } = await createReport();
  expect(success).toBe(true);
  expect(request.gripReference).toMatch(/^GRP-\d{4}-\d{6,}$/);
  expect(report.requestId).toBe(request._id);
  expect(report.data.coordinates).toEqual(STELLENBOSCH);
  expect(report.pdf).toEqual({ state: 'none', progress: 0, error: null });
  for (const section of ['crimeData', 'elevation', 'waterBodyData', 'fireServicesData', 'soilData'] as const)
    expect(report.data[section].source.name).not.toBe('');
  if (sharedData) {
    expect(report.data.crimeData.precinctName).toBe('Stellenbosch');
    expect(report.data.crimeData.match).toBe('precinct');
    expect(report.data.crimeData.burglaryResidential.length).toBeGreaterThan(10);
    expect(report.data.elevation.ele).toBeNull();
    expect(report.data.elevation.unavailable).toMatch(/elevation model/i);
  }
  // Asking again answers the same report.
  const again = await call('user@portal.test', 'PUT', IRIS_API.create, { requestId: request._id });
  expect(again.statusCode).toBe(200);
  expect(again.json<IrisCreateAnswer>().report._id).toBe(report._id);
  const got = await call('user@portal.test', 'GET', IRIS_API.report(report._id));
  expect(got.json<{ report: { data: unknown } }>().report.data).toEqual(report.data);
});

it('refuses bad input and other people, per role', async () => {
  const { report, request } = await createReport();
  expect((await call(null, 'GET', IRIS_API.report(report._id))).statusCode).toBe(401);
  const stranger = await call('claims@portal.test', 'GET', IRIS_API.report(report._id));
  expect([stranger.statusCode, stranger.json().message]).toEqual([403, IRIS_TEXT.notYours]);
  expect((await call('operator@portal.test', 'GET', IRIS_API.report(report._id))).statusCode).toBe(200);
  expect((await call('admin@portal.test', 'GET', IRIS_API.download(report._id))).statusCode).toBe(404);
  expect((await call('claims@portal.test', 'GET', IRIS_API.download(report._id))).statusCode).toBe(403);
  expect((await call('user@portal.test', 'GET', IRIS_API.report(randomUUID()))).statusCode).toBe(404);
  expect((await call('user@portal.test', 'GET', '/api/v1.0/iris/not-a-uuid/pdf/ready/')).statusCode).toBe(
    400,
  );
  expect((await call('user@portal.test', 'PUT', IRIS_API.create, { requestId: 'x' })).statusCode).toBe(400);
  expect((await call('user@portal.test', 'PUT', IRIS_API.create, {})).statusCode).toBe(400);
  expect(
    (await call('user@portal.test', 'PUT', IRIS_API.create, { requestId: randomUUID() })).statusCode,
  ).toBe(404);
  const otherUsers = await call('claims@portal.test', 'PUT', IRIS_API.create, { requestId: request._id });
  expect(otherUsers.statusCode).toBe(403);
  const savi = await irisRequest('user@portal.test', STELLENBOSCH, 'SAVI');
  const notIris = await call('user@portal.test', 'PUT', IRIS_API.create, { requestId: savi });
  expect([notIris.statusCode, notIris.json().message]).toEqual([400, IRIS_TEXT.notIris('SAVI')]);
  // A user whose group no longer gives the iris service.
  await db.dataSource.query(`UPDATE identity.users SET group_id = NULL WHERE email = 'rates@portal.test'`);
  const own = await irisRequest('rates@portal.test');
  const noService = await call('rates@portal.test', 'PUT', IRIS_API.create, { requestId: own });
  expect([noService.statusCode, noService.json().message]).toEqual([403, IRIS_TEXT.noService]);
  // Generate for another request's id.
  await noCoverage(report._id);
  const wrong = await call('user@portal.test', 'GET', IRIS_API.generate(report._id, savi));
  expect([wrong.statusCode, wrong.json().message]).toEqual([400, IRIS_TEXT.wrongRequest]);
});

it('waits for the imagery step: canGenerate, the high-resolution status and the aerial view', async () => {
  const { report, request } = await createReport();
  const id = report._id;
  const first = (await call('user@portal.test', 'GET', IRIS_API.canGenerate(id))).json<CanGenerateAnswer>();
  expect(first).toEqual({ success: true, progress: 0, canGeneratePdf: false, timeout: false });
  const early = await call('user@portal.test', 'GET', IRIS_API.generate(id, request._id));
  expect([early.statusCode, early.json().message]).toEqual([409, IRIS_TEXT.notPrepared]);
  // The status sent must be the most common of the counts.
  const contradicted = await call('user@portal.test', 'POST', IRIS_API.highres(id, 2), {
    counts: { 0: 4, 2: 1 },
  });
  expect([contradicted.statusCode, contradicted.json().message]).toEqual([400, IRIS_TEXT.notMostCommon(2)]);
  expect(
    (await call('user@portal.test', 'POST', '/api/v1.0/iris/' + id + '/imagery/highres/7', {})).statusCode,
  ).toBe(400);
  expect(
    (await call('user@portal.test', 'POST', IRIS_API.highres(id, 0), { counts: { 0: 4, 1: 1 } })).statusCode,
  ).toBe(200);
  // The report is young (the imagery step's 30 s wait has not run out), however long the steps above took
  // on a busy machine.
  await db.dataSource.query('UPDATE iris.reports SET created_at = now() WHERE id = $1', [id]);
  const half = (
    await call('user@portal.test', 'GET', IRIS_API.canGenerate(id).replace(/\/$/, ''))
  ).json<CanGenerateAnswer>();
  expect(half).toMatchObject({ progress: 50, canGeneratePdf: false });
  // Not a picture, a picture of the wrong type, then a real one.
  const garbage = await call(
    'user@portal.test',
    'POST',
    IRIS_API.aerial(id, 'o'),
    Buffer.from('not a jpeg'),
    {
      'content-type': 'image/jpeg',
    },
  );
  expect([garbage.statusCode, garbage.json().message]).toEqual([400, IRIS_TEXT.badImage]);
  const text = await call('user@portal.test', 'POST', IRIS_API.aerial(id, 'o'), Buffer.from('hello'), {
    'content-type': 'text/plain',
  });
  expect([text.statusCode, text.json().message]).toEqual([400, IRIS_TEXT.badImage]);
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4a7' } })
    .png()
    .toBuffer();
  const ok = await call('user@portal.test', 'POST', IRIS_API.aerial(id, 'o'), png, {
    'content-type': 'image/png',
  });
  expect(ok.statusCode).toBe(200);
  expect(await storage().exists(`iris/${id}/aerial-o.jpg`)).toBe(true);
  const done = (await call('user@portal.test', 'GET', IRIS_API.canGenerate(id))).json<CanGenerateAnswer>();
  expect(done).toEqual({ success: true, progress: 100, canGeneratePdf: true, timeout: false });
  // Closing the report deletes the server's images.
  expect((await call('user@portal.test', 'GET', IRIS_API.clean(id))).statusCode).toBe(200);
  expect(await storage().exists(`iris/${id}/aerial-o.jpg`)).toBe(false);
});

/** Two surveys over the test's point (2019 and 2024) and one elsewhere, as the locator's table holds them. */
async function surveysAtStellenbosch(): Promise<{ older: number; newer: number; elsewhere: number }> {
  const square = (lng: number, lat: number) =>
    `ST_Multi(ST_Expand(ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326), 0.01))`;
  const rows = (await db.dataSource.query(
    `INSERT INTO geo.imagery_coverage (kind, name, captured_on, geom, source, source_id, provider) VALUES
       ('high_resolution', 'Stellenbosch 2019', '2019-03-12', ${square(STELLENBOSCH.lng, STELLENBOSCH.lat)}, 'iris-test', 's2019', 'Test'),
       ('ortho', 'Stellenbosch 2024', '2024-11-05', ${square(STELLENBOSCH.lng, STELLENBOSCH.lat)}, 'iris-test', 's2024', 'Test'),
       ('ortho', 'Durban 2025', '2025-01-20', ${square(31.02, -29.85)}, 'iris-test', 'd2025', 'Test')
     RETURNING id`,
  )) as { id: string }[];
  const [older, newer, elsewhere] = rows.map((row) => Number(row.id));
  return { older, newer, elsewhere };
}

const aerialRow = async (reportId: string) =>
  (
    (await db.dataSource.query(
      `SELECT aerial_view, aerial_key, aerial_survey_id::int AS survey, aerial_captured_on::text AS captured
         FROM iris.reports WHERE id = $1`,
      [reportId],
    )) as {
      aerial_view: string | null;
      aerial_key: string | null;
      survey: number | null;
      captured: string | null;
    }[]
  )[0];

it('keeps the survey and capture date of the chosen picture, and prints the date in the PDF (issue 21)', async () => {
  const surveys = await surveysAtStellenbosch();
  const { report, request } = await createReport();
  const id = report._id;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#7a4' } })
    .jpeg()
    .toBuffer();
  const post = (query: string) =>
    call('user@portal.test', 'POST', `${IRIS_API.aerial(id, 'o')}${query}`, jpeg, {
      'content-type': 'image/jpeg',
    });
  // A survey that is not there, one that does not cover the point, and not a number: 400s, nothing saved.
  const missing = await post('?survey=2000000000');
  expect([missing.statusCode, missing.json().message]).toEqual([400, IRIS_TEXT.noSurvey(2_000_000_000)]);
  const elsewhere = await post(`?survey=${surveys.elsewhere}`);
  expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([
    400,
    IRIS_TEXT.surveyMissesPoint(surveys.elsewhere),
  ]);
  expect((await post('?survey=abc')).statusCode).toBe(400);
  expect((await post('?survey=0')).statusCode).toBe(400);
  expect(await aerialRow(id)).toEqual({ aerial_view: null, aerial_key: null, survey: null, captured: null });
  // Without a survey: the newest at the point, as the locator's calls answer.
  expect((await post('')).statusCode).toBe(200);
  expect(await aerialRow(id)).toMatchObject({
    aerial_view: 'o',
    survey: surveys.newer,
    captured: '2024-11-05',
  });
  // The timeline's older survey.
  expect((await post(`?survey=${surveys.older}`)).statusCode).toBe(200);
  expect(await aerialRow(id)).toMatchObject({ survey: surveys.older, captured: '2019-03-12' });

  await call('user@portal.test', 'POST', IRIS_API.highres(id, 0), { counts: { 0: 5 } });
  startWorker();
  await call('user@portal.test', 'GET', IRIS_API.generate(id, request._id));
  await untilReady(id);
  const download = await call('user@portal.test', 'GET', IRIS_API.download(id));
  const text = (await pdfText(download.rawPayload)).join(' ');
  expect(text).toContain('Captured 12 March 2019');
  await pdfWorkers.stop();
  // Closing the report forgets the picture and its survey.
  await call('user@portal.test', 'GET', IRIS_API.clean(id));
  expect(await aerialRow(id)).toMatchObject({ aerial_key: null, survey: null, captured: null });
});

it('generates the PDF (polled), serves it, and gives the request its link and Finalised status', async () => {
  startWorker();
  const { report, request } = await createReport();
  await noCoverage(report._id);
  const generated = await call('user@portal.test', 'GET', IRIS_API.generate(report._id, request._id));
  expect(generated.json()).toMatchObject({ success: true, version: 1 });
  // Generating again queues nothing new.
  await call('user@portal.test', 'GET', IRIS_API.generate(report._id, request._id));
  const ready = await untilReady(report._id);
  expect(ready).toMatchObject({
    success: true,
    pdfReady: true,
    progress: 100,
    pdfUrl: IRIS_API.download(report._id),
  });
  const download = await call('user@portal.test', 'GET', IRIS_API.download(report._id));
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/pdf');
  expect(download.headers['content-disposition']).toContain(request.gripReference);
  const text = (await pdfText(download.rawPayload)).join(' ');
  expect(text).toContain(request.gripReference);
  expect(text).toContain('Soil');
  if (sharedData) expect(text).toContain('Stellenbosch');
  expect((await call('operator@portal.test', 'GET', IRIS_API.download(report._id))).statusCode).toBe(200);
  const [row] = (await db.dataSource.query(
    'SELECT status, report_pdf_url, report_id, date_finalised FROM requests.requests WHERE id = $1',
    [request._id],
  )) as { status: string; report_pdf_url: string; report_id: string; date_finalised: Date | null }[];
  expect(row.status).toBe('Finalised');
  expect(row.report_pdf_url).toContain('pdfReports');
  expect(row.report_id).toBe(report._id);
  expect(row.date_finalised).not.toBeNull();
  const history = (await db.dataSource.query(
    `SELECT from_value, to_value FROM requests.request_history WHERE request_id = $1 AND field = 'status'`,
    [request._id],
  )) as { from_value: string; to_value: string }[];
  expect(history).toEqual([{ from_value: 'New', to_value: 'Finalised' }]);
  const [{ count }] = (await db.dataSource.query(
    'SELECT count(*)::int AS count FROM pdf.jobs WHERE subject_id = $1',
    [report._id],
  )) as { count: number }[];
  expect(count).toBe(1);

  // Regenerate: a new version, rendered and served in its turn.
  const again = await call('user@portal.test', 'GET', IRIS_API.regenerate(report._id));
  expect(again.json()).toMatchObject({ success: true, version: 2 });
  await untilReady(report._id);
  expect(await storage().exists(`pdfReports/iris/${report._id}/v2.pdf`)).toBe(true);
  await pdfWorkers.stop();
});

it('keeps answering polls while no worker runs; cancel stops a waiting job', async () => {
  const { report, request } = await createReport();
  await noCoverage(report._id);
  await call('user@portal.test', 'GET', IRIS_API.generate(report._id, request._id));
  for (let i = 0; i < 3; i++) {
    const ready = (await call('user@portal.test', 'GET', IRIS_API.ready(report._id))).json<ReadyAnswer>();
    expect(ready).toMatchObject({ success: true, pdfReady: false, state: 'queued', progress: 0 });
  }
  const cancelled = await call('user@portal.test', 'POST', IRIS_API.cancel(report._id));
  expect(cancelled.json()).toMatchObject({ state: 'cancelled', pdfReady: false });
  // A worker that starts now has nothing of it to do; asking again brings it back.
  startWorker();
  await new Promise((r) => setTimeout(r, 1000));
  expect((await call('user@portal.test', 'GET', IRIS_API.ready(report._id))).json<ReadyAnswer>().state).toBe(
    'cancelled',
  );
  await call('user@portal.test', 'GET', IRIS_API.generate(report._id, request._id));
  expect((await untilReady(report._id)).pdfReady).toBe(true);
  await pdfWorkers.stop();
});

it('a worker process killed (SIGKILL) mid-job loses nothing: another takes the job, one PDF results', async () => {
  const worker = await pdfWorkers.spawnProcess(
    join(WORKSPACE, 'services/iris/dist/worker.js'),
    {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      IRIS_QUEUE_PREFIX: prefix,
      STORAGE_DIR: config.storageDir,
      IRIS_PDF_LOCK_MS: '3000',
      IRIS_PDF_STALLED_MS: '500',
      LOG_LEVEL: 'warn',
    },
    'npx nx build @portal/iris',
  );
  const { report, request } = await createReport();
  await noCoverage(report._id);
  await call('user@portal.test', 'GET', IRIS_API.generate(report._id, request._id));
  await untilReady(report._id, 'running');
  process.kill(-worker.pid!, 'SIGKILL');
  // The poll answers from PostgreSQL meanwhile.
  const meanwhile = (await call('user@portal.test', 'GET', IRIS_API.ready(report._id))).json<ReadyAnswer>();
  expect(meanwhile).toMatchObject({ success: true, pdfReady: false });
  startWorker();
  const ready = await untilReady(report._id);
  expect(ready.pdfReady).toBe(true);
  const folder = join(config.storageDir, 'objects', 'pdfReports', 'iris', report._id);
  expect(readdirSync(folder).filter((name) => name.endsWith('.pdf'))).toEqual(['v1.pdf']);
  const [job] = (await db.dataSource.query('SELECT state, attempts FROM pdf.jobs WHERE subject_id = $1', [
    report._id,
  ])) as { state: string; attempts: number }[];
  expect(job.state).toBe('done');
  expect(job.attempts).toBe(2);
  await pdfWorkers.stop();
});

it('answers its settings, and the queue dashboard only to administrators', async () => {
  expect((await call('user@portal.test', 'GET', IRIS_API.settings)).json()).toEqual({
    supportEmail: 'help@portal.test',
  });
  expect((await call(null, 'GET', QUEUE_DASHBOARD_PATH)).statusCode).toBe(401);
  const operator = await call('operator@portal.test', 'GET', QUEUE_DASHBOARD_PATH);
  expect(operator.statusCode).toBe(403);
  const admin = await call('admin@portal.test', 'GET', QUEUE_DASHBOARD_PATH);
  expect(admin.statusCode).toBe(200);
  expect(admin.headers['content-type']).toContain('text/html');
  const queues = await call('admin@portal.test', 'GET', `${QUEUE_DASHBOARD_PATH}/api/queues`);
  expect(queues.statusCode).toBe(200);
  const names = (queues.json() as { queues: { name: string }[] }).queues.map((queue) => queue.name).sort();
  expect(names).toEqual(Object.values(PORTAL_QUEUES).sort());
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to iris', async () => {
    expect(await trailingSlashProblems(app, { service: 'iris' })).toEqual([]);
  });
});
