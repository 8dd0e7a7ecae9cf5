import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Pool } from 'pg';
import { bullConnection } from './redis';
import { jobDurationHistogram, observeDatabasePool, observeQueues, processRegistry } from './metrics';
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
      expect(sample(text, 'db_pool_connections', { state: 'in_use' })).toBe(1);
      expect(sample(text, 'db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(text).toMatch(/^process_resident_memory_bytes\{service="worker"\} \d+/m);
    } finally {
      held.release();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('finds the pg pool of a TypeORM-shaped handle, and nothing in anything else', () => {
    const registry = processRegistry('x');
    observeDatabasePool(registry, { driver: { master: pool } });
    observeDatabasePool(processRegistry('y'), { query: () => undefined });
    expect(registry.getSingleMetric('db_pool_connections')).toBeDefined();
  });
});
