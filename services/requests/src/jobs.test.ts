import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { PORTAL_QUEUES, REQUEST_ADMIN_API, SESSION_COOKIE, type ConsoleJob } from '@portal/contracts';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { closeQueue, createRedis, createStorage, ensureKeyPair, unavailableStore } from '@portal/server-kit';
import { signTestSessionFor, startThrowawayRedis } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadRequestsConfig } from './config';
import { openDatabase } from './database';
import { CONSOLE_QUEUE, bullConnection, createConsoleQueue, enqueueConsoleJob } from './jobs/consoleJobs';
import { processConsoleJob } from './jobs/run';
import { XLSX_HEADERS } from './jobs/xlsx';
import { reportPdfKey } from './jobs/zip';
import { createPdfQueue, pdfFileKey, readPdfJob, updatePdfJob, type PdfJobData } from '@portal/pdf-jobs';

// The console's background jobs on the real Redis (BullMQ, a queue prefix of this run) and a throwaway
// database: export and zip written by a worker in this process, polled through the API, downloaded; a
// worker that dies mid-job hands the job to another; the poll answers from PostgreSQL without Redis.

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'jobs-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis(redisUrl, 'jobs-test');
const prefix = `jobs-test-${randomUUID().slice(0, 8)}`;
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
let config: ReturnType<typeof loadRequestsConfig>;
const workers: Worker[] = [];

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  config = {
    ...loadRequestsConfig({ VAR_DIR: varDir, NODE_ENV: 'test', REQUEST_QUEUE_PREFIX: prefix }),
    logLevel: 'silent',
  };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.ready();
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close(true)));
  if (pdfQueue) await closeQueue(pdfQueue);
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const storage = () => createStorage({ driver: 'local', dir: config.storageDir });

/** The report builder's PDF queue of this run: a zip queues a submitted report's missing PDF there. */
const pdfPrefix = `${prefix}-pdf`;
let pdfQueue: ReturnType<typeof createPdfQueue> | undefined;
const reportPdfs = () => {
  pdfQueue ??= createPdfQueue(PORTAL_QUEUES.reportbuilderPdf, { redisUrl, prefix: pdfPrefix });
  return { queue: pdfQueue, defaultVat: 15, waitMs: 30_000 };
};

function startWorker(options: { lockDuration?: number; stalledInterval?: number; hang?: boolean } = {}) {
  const deps = {
    ds: appDatabase,
    storage: storage(),
    redis,
    redisPrefix: 'portal',
    reportPdfs: reportPdfs(),
  };
  const worker = new Worker(
    CONSOLE_QUEUE,
    options.hang ? () => new Promise<void>(() => undefined) : processConsoleJob(deps),
    {
      connection: bullConnection(redisUrl),
      prefix,
      // Short for every worker of the run: the queue's stalled check runs at most once per interval of
      // whichever worker ran it last (a Redis key), so one long interval would delay the next check.
      lockDuration: options.lockDuration ?? 5_000,
      stalledInterval: options.stalledInterval ?? 500,
    },
  );
  workers.push(worker);
  return worker;
}

async function call(email: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const user = await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
  const token = signTestSessionFor(privateKeyFile, user);
  return app.inject({ method, url, payload, cookies: { [SESSION_COOKIE]: token } });
}

async function requests(count: number, status = 'Delivered'): Promise<string[]> {
  const rows = (await db.dataSource.query(
    `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, group_name, address,
                                    number_of_buildings, unit_price)
     SELECT 'SAVI', $2, u.id, u.name, u.email, 'Karoo Mutual Insurance', i || ' Long Street, Cape Town', 2, 1500
       FROM identity.users u, generate_series(1, $1) AS i WHERE u.email = 'user@portal.test'
     RETURNING id`,
    [count, status],
  )) as { id: string }[];
  return rows.map((row) => row.id);
}

async function until(email: string, id: string, state: ConsoleJob['state']): Promise<ConsoleJob> {
  for (let i = 0; i < 200; i++) {
    const job = (await call(email, 'GET', REQUEST_ADMIN_API.job(id))).json<ConsoleJob>();
    if (job.state === state) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [row] = await db.dataSource.query(
    'SELECT state, error, attempts FROM requests.console_jobs WHERE id = $1',
    [id],
  );
  throw new Error(`job ${id} never reached ${state}: ${JSON.stringify(row)}`);
}

it('exports the filter matches to an xlsx that Excel (exceljs) reads back, row for row', async () => {
  startWorker();
  await requests(25, 'Dispatch');
  const started = await call('operator@portal.test', 'POST', REQUEST_ADMIN_API.exportToExcel, {
    filters: { status: 'Dispatch' },
  });
  expect(started.statusCode).toBe(202);
  const job = await until('operator@portal.test', started.json<ConsoleJob>().id, 'done');
  expect(job).toMatchObject({
    kind: 'xlsx',
    rows: 25,
    progress: 100,
    downloadUrl: REQUEST_ADMIN_API.downloadXlsx(job.id),
  });

  const download = await call('operator@portal.test', 'GET', job.downloadUrl!);
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-disposition']).toMatch(
    /attachment; filename="requests-\d{4}-\d{2}-\d{2}\.xlsx"/,
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Requests')!;
  expect(sheet.getRow(1).values).toEqual([undefined, ...XLSX_HEADERS]);
  expect(sheet.rowCount).toBe(26);
  const status = XLSX_HEADERS.indexOf('Status') + 1;
  const fee = XLSX_HEADERS.indexOf('Report fee') + 1;
  for (let row = 2; row <= 26; row++) {
    expect(sheet.getRow(row).getCell(status).value).toBe('Dispatch');
    expect(sheet.getRow(row).getCell(fee).value).toBe(3000);
  }

  // Someone else's job, and a plain user, are refused.
  expect((await call('qc@portal.test', 'GET', REQUEST_ADMIN_API.job(job.id))).statusCode).toBe(403);
  expect(
    (await call('user@portal.test', 'POST', REQUEST_ADMIN_API.exportToExcel, { filters: {} })).statusCode,
  ).toBe(403);
  const bad = await call('operator@portal.test', 'POST', REQUEST_ADMIN_API.exportToExcel, {
    filters: { status: 'Lost' },
  });
  expect(bad.statusCode).toBe(400);
});

it('zips the selected reports with a manifest naming those without one', async () => {
  const [withReport, without] = await requests(2, 'In progress');
  await storage().put(reportPdfKey(withReport), Buffer.from('%PDF-1.4 test report'), {
    contentType: 'application/pdf',
  });
  const started = await call('operator@portal.test', 'POST', `${REQUEST_ADMIN_API.createZip}/`, {
    requestids: [withReport, without],
  });
  expect(started.statusCode).toBe(202);
  const job = await until('operator@portal.test', started.json<ConsoleJob>().id, 'done');
  expect(job.rows).toBe(1);
  const download = await call('operator@portal.test', 'GET', job.downloadUrl!);
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/zip');
  const zip = download.rawPayload;
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  expect(zip.includes(Buffer.from('manifest.csv'))).toBe(true);
  const grips = (await db.dataSource.query('SELECT grip_reference FROM requests.requests WHERE id = $1', [
    withReport,
  ])) as {
    grip_reference: string;
  }[];
  expect(zip.includes(Buffer.from(`${grips[0].grip_reference}.pdf`))).toBe(true);
});

it('a zip of delivered requests holds their PDFs: one not made yet is queued to the report builder and waited for', async () => {
  // The report builder's worker, stood in for: it stores a PDF for each job and marks it done, as
  // libs/pdf-jobs renderPdfJob does (its own test renders for real: services/reportbuilder pdf.test.ts).
  const renderer = new Worker<PdfJobData>(
    PORTAL_QUEUES.reportbuilderPdf,
    async (job) => {
      const row = (await readPdfJob(appDatabase, job.data.jobId))!;
      const key = pdfFileKey(row.kind, row.subject_id, row.version);
      await storage().put(key, Buffer.from(`%PDF-1.4 report of ${row.subject_id}`), {
        contentType: 'application/pdf',
      });
      await updatePdfJob(
        appDatabase,
        row.id,
        `state = 'done', progress = 100, file_key = $2, finished_at = now()`,
        [key],
      );
    },
    { connection: bullConnection(redisUrl), prefix: pdfPrefix },
  );
  workers.push(renderer);
  startWorker();
  const delivered = await requests(2);
  const started = await call('operator@portal.test', 'POST', REQUEST_ADMIN_API.createZip, {
    requestids: delivered,
  });
  const job = await until('operator@portal.test', started.json<ConsoleJob>().id, 'done');
  expect(job.rows).toBe(2);
  const zip = (await call('operator@portal.test', 'GET', job.downloadUrl!)).rawPayload;
  const grips = (await db.dataSource.query(
    'SELECT grip_reference FROM requests.requests WHERE id = ANY($1::uuid[])',
    [delivered],
  )) as { grip_reference: string }[];
  for (const { grip_reference } of grips)
    expect(zip.includes(Buffer.from(`${grip_reference}.pdf`))).toBe(true);
  const jobs = (await db.dataSource.query(
    `SELECT state FROM pdf.jobs WHERE kind = 'savi' AND subject_id = ANY($1::uuid[])`,
    [delivered],
  )) as { state: string }[];
  expect(jobs.map((row) => row.state)).toEqual(['done', 'done']);
});

it('a job whose worker dies is taken up by another, and the poll answers from PostgreSQL meanwhile', async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  const dying = startWorker({ hang: true, lockDuration: 1000, stalledInterval: 500 });
  await requests(3, 'QC check');
  const started = await call('operator@portal.test', 'POST', REQUEST_ADMIN_API.exportToExcel, {
    filters: { status: 'QC check' },
  });
  const id = started.json<ConsoleJob>().id;
  await new Promise<void>((resolve) => dying.once('active', () => resolve()));
  // Killed: it stops renewing its lock and never finishes the job.
  await dying.close(true);
  // Redis forgets the job's own keys: the poll still answers, from PostgreSQL.
  await redis.del(`${prefix}:${CONSOLE_QUEUE}:${id}:logs`);
  expect(
    (await call('operator@portal.test', 'GET', REQUEST_ADMIN_API.job(id))).json<ConsoleJob>().state,
  ).toMatch(/queued|running/);
  startWorker({ lockDuration: 1000, stalledInterval: 500 });
  const job = await until('operator@portal.test', id, 'done');
  expect(job.rows).toBe(3);
  const [row] = (await db.dataSource.query('SELECT attempts FROM requests.console_jobs WHERE id = $1', [
    id,
  ])) as {
    attempts: number;
  }[];
  expect(row.attempts).toBe(1);
});

describe('queueing while Redis is down', () => {
  it('answers the error (a 503 naming Redis) and leaves no job recorded that nothing would run', async () => {
    const ownRedis = await startThrowawayRedis();
    const queue = createConsoleQueue(ownRedis.url, prefix);
    queue.on('error', () => undefined);
    try {
      const user = await db.dataSource
        .getRepository(UserEntity)
        .findOneByOrFail({ email: 'admin@portal.test' });
      const input = { kind: 'xlsx' as const, userId: user.id, params: { ids: null, filters: {} } };
      const queued = await enqueueConsoleJob(appDatabase, queue, input);
      const rows = () =>
        appDatabase.query(`SELECT id FROM requests.console_jobs WHERE user_id = $1`, [user.id]);
      const before = ((await rows()) as { id: string }[]).map(({ id }) => id);
      expect(before).toContain(queued.id);
      await ownRedis.stop();
      const refused = await enqueueConsoleJob(appDatabase, queue, input).then(
        () => null,
        (error: unknown) => error,
      );
      expect(unavailableStore(refused)).toBe('redis');
      expect(((await rows()) as { id: string }[]).map(({ id }) => id)).toEqual(before);
    } finally {
      await closeQueue(queue);
      await ownRedis.stop();
    }
  });
});
