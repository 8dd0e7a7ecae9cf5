import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Pool } from 'pg';
import { bullConnection } from './redis';
import {
  jobDurationHistogram,
  observeDatabasePool,
  observeQueues,
  observeWorker,
  processRegistry,
} from './metrics';
import { startWorkerEndpoints } from './worker-endpoints';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * One sample's value from Prometheus text (the series named with exactly these labels, in any order, the
 * `service` default label included), or undefined when it is not there.
 */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries({ service: 'worker', ...labels })
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1] === name && match[2].split(',').sort().join(',') === wanted) return Number(match[3]);
  }
  return undefined;
}

describe("a worker's metrics", () => {
  const prefix = `metrics-test-${randomUUID()}`;
  const queue = new Queue('thumbnails', { connection: bullConnection(redisUrl), prefix });
  const pool = new Pool({ connectionString: databaseUrl, max: 3 });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await pool.end();
  });

  it('reports queue depth by state, job durations by outcome, pool use and the process, on /metrics', async () => {
    const registry = processRegistry('worker');
    observeQueues(registry, [queue]);
    observeDatabasePool(registry, pool);
    const durations = jobDurationHistogram(registry);
    await queue.add('a', {});
    await queue.add('b', {});
    await queue.add('later', {}, { delay: 60_000 });
    durations.observe({ queue: 'thumbnails', outcome: 'completed' }, 0.3);
    durations.observe({ queue: 'thumbnails', outcome: 'failed' }, 12);
    // One connection held while the metrics are read: in use 1.
    const held = await pool.connect();
    const server = startWorkerEndpoints({
      name: 'worker',
      host: '127.0.0.1',
      port: 0,
      ready: async () => undefined,
      metrics: registry,
    });
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await answer.text();
      expect(sample(text, 'queue_jobs', { queue: 'thumbnails', state: 'waiting' })).toBe(2);
      expect(sample(text, 'queue_jobs', { queue: 'thumbnails', state: 'delayed' })).toBe(1);
      expect(sample(text, 'queue_jobs', { queue: 'thumbnails', state: 'active' })).toBe(0);
      const job = (outcome: string, more: Record<string, string> = {}) => ({
        queue: 'thumbnails',
        outcome,
        ...more,
      });
      expect(sample(text, 'job_duration_seconds_count', job('completed'))).toBe(1);
      expect(sample(text, 'job_duration_seconds_bucket', job('failed', { le: '10' }))).toBe(0);
      expect(sample(text, 'job_duration_seconds_bucket', job('failed', { le: '30' }))).toBe(1);
      expect(sample(text, 'db_pool_connections', { pool: 'main', state: 'in_use' })).toBe(1);
      expect(sample(text, 'db_pool_connections', { pool: 'main', state: 'waiting' })).toBe(0);
      expect(sample(text, 'db_pool_max_connections', { pool: 'main' })).toBe(3);
      // The server's connections: at least the one held here, below max_connections less the reserve.
      const used = sample(text, 'db_server_connections', { reading: 'used' }) ?? 0;
      const max = sample(text, 'db_server_connections', { reading: 'max' }) ?? 0;
      const [{ limit }] = (
        await pool.query(
          `SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int AS limit`,
        )
      ).rows;
      expect(used).toBeGreaterThanOrEqual(1);
      expect(max).toBe(limit);
      expect(text).toMatch(/^process_resident_memory_bytes\{service="worker"\} \d+/m);
    } finally {
      held.release();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts failed tries (final or retried), stalled jobs and their durations from the worker', async () => {
    const registry = processRegistry('worker');
    const durations = jobDurationHistogram(registry);
    const renders = new Queue('renders', { connection: bullConnection(redisUrl), prefix });
    const stallQueue = new Queue('stalls', { connection: bullConnection(redisUrl), prefix });
    const events = new QueueEvents('renders', { connection: bullConnection(redisUrl), prefix });
    const failing = new Worker(
      'renders',
      async (job) => {
        if (job.name === 'bad') throw new Error('broken on purpose');
      },
      { connection: bullConnection(redisUrl), prefix },
    );
    observeWorker(registry, failing, { durations });
    // A worker whose job never ends and which is then closed without waiting: its lock lapses, and the
    // next worker's stalled check hands the job back (a worker killed mid-job, as BullMQ sees it).
    let started: () => void = () => undefined;
    const active = new Promise<void>((resolve) => (started = resolve));
    const dying = new Worker(
      'stalls',
      async () => {
        started();
        await new Promise(() => undefined);
      },
      // stalledInterval short here too: the check's pace is kept in Redis for every worker of the queue.
      { connection: bullConnection(redisUrl), prefix, lockDuration: 1_000, stalledInterval: 500 },
    );
    let checker: Worker | undefined;
    try {
      await events.waitUntilReady();
      const failedFinally = new Promise<void>((resolve) =>
        events.on('failed', ({ jobId }) => jobId === 'bad-2' && resolve()),
      );
      const completed = new Promise<void>((resolve) =>
        events.on('completed', ({ jobId }) => jobId === 'good' && resolve()),
      );
      await renders.add('bad', {}, { jobId: 'bad-2', attempts: 2 });
      await renders.add('good', {}, { jobId: 'good' });
      await Promise.all([failedFinally, completed]);

      await stallQueue.add('hang', {}, { jobId: 'hang' });
      await active;

      await dying.close(true);
      checker = new Worker('stalls', async () => undefined, {
        connection: bullConnection(redisUrl),
        prefix,
        stalledInterval: 500,
        lockDuration: 1_000,
      });
      observeWorker(registry, checker);
      // Its own event, after observeWorker's listener (QueueEvents may hear of it before the worker does).
      await new Promise<void>((resolve) => checker?.on('stalled', () => resolve()));

      const text = await registry.metrics();
      const tries = (queueName: string, final: string) =>
        sample(text, 'queue_job_failures_total', { queue: queueName, final });
      expect(tries('renders', 'false')).toBe(1);
      expect(tries('renders', 'true')).toBe(1);
      expect(sample(text, 'queue_job_stalls_total', { queue: 'stalls' })).toBe(1);
      // Reported at zero before anything failed: alerts on increase() see the series from the start.
      expect(tries('stalls', 'true')).toBe(0);
      expect(sample(text, 'job_duration_seconds_count', { queue: 'renders', outcome: 'failed' })).toBe(2);
      expect(sample(text, 'job_duration_seconds_count', { queue: 'renders', outcome: 'completed' })).toBe(1);
    } finally {
      await Promise.all([failing.close(), checker?.close(), dying.close(true)]);
      await events.close();
      for (const q of [renders, stallQueue]) {
        await q.obliterate({ force: true });
        await q.close();
      }
    }
  }, 30_000);

  it('finds the pg pool of a TypeORM-shaped handle, and nothing in anything else', () => {
    const registry = processRegistry('x');
    observeDatabasePool(registry, { driver: { master: pool } });
    observeDatabasePool(processRegistry('y'), { query: () => undefined });
    expect(registry.getSingleMetric('db_pool_connections')).toBeDefined();
  });
});
