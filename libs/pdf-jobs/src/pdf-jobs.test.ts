import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue, Worker } from 'bullmq';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, createStorage, type Storage } from '@portal/server-kit';
import { BrowserPool, processTreeMemoryMb } from './browser';
import {
  cancelPdfJob,
  createPdfQueue,
  ensurePdfJob,
  pdfFileKey,
  pdfJobId,
  readPdfJob,
  type PdfJobData,
  type PdfJobRow,
} from './jobs';
import { Registry } from 'prom-client';
import { observeBrowserPool } from './process';
import { pdfText } from './text';
import { renderPdfJob, startPdfWorker, type PdfRenderer } from './worker';

// The PDF machinery on the real PostgreSQL, Redis and Debian's Chromium: jobs recorded once per version,
// rendered to a stored PDF, a crashed browser replaced on the retry, a browser recycled after N jobs, two
// workers sharing one queue without doubles, a cancelled job discarded, and the row answering without Redis.

jest.setTimeout(90_000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `pdf-test-${randomUUID().slice(0, 8)}`;
const QUEUE = 'pdf-test';
let db: TestDatabase;
let storage: Storage;
let queue: Queue<PdfJobData>;
const pools: BrowserPool[] = [];
const workers: Worker[] = [];
const redis = createRedis(redisUrl, 'pdf-jobs-test');

/** A renderer whose HTML names the job; `slowMs` keeps the page busy (a script) so a test can act mid-job. */
const renderers = (slowMs = 0, seen: string[] = []): Record<string, PdfRenderer> => ({
  test: {
    async html(job: PdfJobRow) {
      seen.push(job.id);
      const busy = slowMs
        ? `<script>const end = Date.now() + ${slowMs}; while (Date.now() < end) {}</script>`
        : '';
      return `<!doctype html><html><body><h1>Job ${job.subject_id} v${job.version}</h1>${busy}</body></html>`;
    },
  },
});

beforeAll(async () => {
  db = await createTestDatabase();
  storage = createStorage({ driver: 'local', dir: mkdtempSync(join(tmpdir(), 'pdf-jobs-')) });
  queue = createPdfQueue(QUEUE, { redisUrl, prefix });
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close(true)));
  await Promise.all(pools.map((pool) => pool.close()));
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  await db?.drop();
  await redis.quit();
});

const newPool = (options: ConstructorParameters<typeof BrowserPool>[0] = {}) => {
  const pool = new BrowserPool(options);
  pools.push(pool);
  return pool;
};

const worker = (
  pool: BrowserPool,
  slowMs = 0,
  seen: string[] = [],
  extra: { lockDurationMs?: number } = {},
) => {
  const started = startPdfWorker({
    queueName: QUEUE,
    redisUrl,
    prefix,
    db: db.dataSource,
    storage,
    pool,
    renderers: renderers(slowMs, seen),
    concurrency: 1,
    jobTimeoutMs: 15_000,
    lockDurationMs: extra.lockDurationMs ?? 20_000,
    stalledIntervalMs: 1000,
  });
  workers.push(started.worker);
  return started;
};

async function until(id: string, states: string[], timeoutMs = 45_000): Promise<PdfJobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await readPdfJob(db.dataSource, id);
    if (row && states.includes(row.state)) return row;
    if (Date.now() > deadline) throw new Error(`job ${id} is ${row?.state}, not ${states.join('/')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const subject = () => randomUUID();

it('records a version once, renders it to a stored PDF and reports progress', async () => {
  const pool = newPool();
  const { worker: w } = worker(pool);
  const id = subject();
  const first = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  const again = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  expect(again.id).toBe(first.id);
  expect(first.id).toBe(pdfJobId('test', id, 1));
  const [{ count }] = (await db.dataSource.query(
    'SELECT count(*)::int AS count FROM pdf.jobs WHERE subject_id = $1',
    [id],
  )) as { count: number }[];
  expect(count).toBe(1);
  const done = await until(first.id, ['done']);
  expect(done.progress).toBe(100);
  expect(done.file_key).toBe(pdfFileKey('test', id, 1));
  const file = await storage.get(done.file_key!);
  expect(file!.data.subarray(0, 5).toString()).toBe('%PDF-');
  expect(done.bytes).toBe(file!.data.length);
  // Asking again for a done version changes nothing and queues nothing.
  const after = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  expect(after.state).toBe('done');
  await w.close();
});

it('a crashed Chromium fails the try, and the retry renders with a fresh browser', async () => {
  const pool = newPool();
  const { worker: w } = worker(pool, 3000);
  const id = subject();
  const job = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  await until(job.id, ['running']);
  // Wait for the browser to be up and busy with the page, then kill it.
  for (let i = 0; i < 100 && !pool.browserPid(); i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500));
  process.kill(pool.browserPid()!, 'SIGKILL');
  const done = await until(job.id, ['done']);
  expect(done.attempts).toBeGreaterThanOrEqual(2);
  expect(pool.launches).toBeGreaterThanOrEqual(2);
  // What the worker's /metrics report: the crash among the restarts.
  const registry = new Registry();
  observeBrowserPool(registry, pool);
  const text = await registry.metrics();
  expect(text).toMatch(/^pdf_browser_restarts_total\{reason="crashed"\} [1-9]/m);
  expect(text).toMatch(/^pdf_browser_restarts_total\{reason="jobs"\} 0$/m);
  expect(text).toMatch(/^pdf_browser_launches_total [2-9]/m);
  expect((await storage.get(done.file_key!))!.data.subarray(0, 5).toString()).toBe('%PDF-');
  await w.close();
});

it('recycles the browser after its number of jobs', async () => {
  const pool = newPool({ maxJobs: 2 });
  const options = { db: db.dataSource, storage, pool, renderers: renderers() };
  for (let i = 0; i < 5; i++) {
    const id = subject();
    await db.dataSource.query(
      `INSERT INTO pdf.jobs (id, kind, subject_id, version) VALUES ($1, 'test', $2, 1)`,
      [pdfJobId('test', id, 1), id],
    );
    const row = await renderPdfJob(options, pdfJobId('test', id, 1), { lastAttempt: true });
    expect(row!.state).toBe('done');
  }
  // Jobs 1–2 on the first browser, 3–4 on the second, 5 on a third.
  expect(pool.launches).toBe(3);
  expect(pool.restarts).toEqual({ jobs: 2, memory: 0, crashed: 0 });
  expect(pool.peakBrowserMb).toBeGreaterThan(0);
  expect(processTreeMemoryMb(process.pid)).toBeGreaterThan(10);
});

it('two workers on one queue share the jobs without doubles', async () => {
  const seen: string[] = [];
  worker(newPool(), 200, seen);
  worker(newPool(), 200, seen);
  const ids = Array.from({ length: 8 }, () => subject());
  const jobs = await Promise.all(
    ids.map((id) => ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 })),
  );
  const done = await Promise.all(jobs.map((job) => until(job.id, ['done'], 60_000)));
  expect(done.every((row) => row.attempts === 1)).toBe(true);
  // Each job was rendered exactly once, by one of the two.
  expect([...seen].sort()).toEqual(jobs.map((job) => job.id).sort());
  await Promise.all(workers.splice(0).map((w) => w.close()));
});

it('a cancelled job is not rendered, and asking again queues it anew', async () => {
  const id = subject();
  const job = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  const cancelled = await cancelPdfJob(db.dataSource, queue, job.id);
  expect(cancelled!.state).toBe('cancelled');
  expect(await queue.getJob(job.id)).toBeUndefined();
  const again = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  expect(again.state).toBe('queued');
  const { worker: w } = worker(newPool());
  expect((await until(job.id, ['done'])).state).toBe('done');
  await w.close();
});

it('a job whose BullMQ entry was lost (Redis flushed) is queued again from its row', async () => {
  const id = subject();
  const job = await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  // Redis forgets the job (as a flush would); the row still says queued.
  await (await queue.getJob(job.id))!.remove();
  expect((await readPdfJob(db.dataSource, job.id))!.state).toBe('queued');
  await ensurePdfJob(db.dataSource, queue, { kind: 'test', subjectId: id, version: 1 });
  expect(await queue.getJob(job.id)).toBeDefined();
  const { worker: w } = worker(newPool());
  expect((await until(job.id, ['done'])).state).toBe('done');
  await w.close();
});

it('recycles the browser when its memory passes the limit', async () => {
  // A limit no browser stays under: every job after the first finds the browser over it.
  const pool = newPool({ maxMemoryMb: 1 });
  const options = { db: db.dataSource, storage, pool, renderers: renderers() };
  for (let i = 0; i < 3; i++) {
    const id = subject();
    await db.dataSource.query(
      `INSERT INTO pdf.jobs (id, kind, subject_id, version) VALUES ($1, 'test', $2, 1)`,
      [pdfJobId('test', id, 1), id],
    );
    expect((await renderPdfJob(options, pdfJobId('test', id, 1), { lastAttempt: true }))!.state).toBe('done');
  }
  expect(pool.launches).toBe(3);
  expect(pool.restarts).toEqual({ jobs: 0, memory: 2, crashed: 0 });
  expect(pool.peakBrowserMb).toBeGreaterThan(1);
});

it('reads the text of a rendered PDF back (pdf.js)', async () => {
  const pool = newPool();
  const id = subject();
  await db.dataSource.query(
    `INSERT INTO pdf.jobs (id, kind, subject_id, version) VALUES ($1, 'test', $2, 3)`,
    [pdfJobId('test', id, 3), id],
  );
  const row = await renderPdfJob(
    { db: db.dataSource, storage, pool, renderers: renderers() },
    pdfJobId('test', id, 3),
    {
      lastAttempt: true,
    },
  );
  const pages = await pdfText((await storage.get(row!.file_key!))!.data);
  // A long word may wrap across lines: compare without white space.
  expect(pages.join('').replace(/\s+/g, '')).toContain(`Job${id}v3`);
});
