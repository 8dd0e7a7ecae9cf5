import { createServer, type Server } from 'node:http';
import type { Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The route label of the request's metrics when its route pattern says too little: the gateway puts
     * the route-table prefix a proxied request went by here (its router pattern is '/api/*' for all).
     */
    metricsRoute: string | null;
  }
}

/** The route label of a request no route answered (its own path would make one series per path). */
export const NO_ROUTE = 'no route';

/**
 * Prometheus metrics of a service (prom-client): `http_request_duration_seconds`, a histogram by method,
 * route pattern (`/api/v1.0/request/:id`, never the path itself: a series per id would grow without end)
 * and status code, plus the process's own (CPU, memory, event-loop lag, GC, handles). Every series carries
 * `service`. The route label comes from the route that answered, so a 404 without a route is 'no route'.
 */
export function installMetrics(app: FastifyInstance, service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.decorateRequest('metricsRoute', null);
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        method: request.method,
        route: request.metricsRoute ?? (request.is404 ? NO_ROUTE : (request.routeOptions.url ?? NO_ROUTE)),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  return registry;
}

/** GET /metrics on the service's own port: internal, as the gateway routes no such path to a service. */
export function registerMetricsRoute(app: FastifyInstance, registry: Registry): void {
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}

/**
 * /metrics on a port of its own, for a process whose own port is public (the gateway): only what can reach
 * that port (the cluster's Prometheus) reads them. Resolves once it listens. Started from an onListen hook,
 * whose failures Fastify logs and passes over: a port taken costs the metrics, never the portal.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number): Promise<Server> {
  const server = createServer(async (request, response) => {
    if ((request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found."}');
      return;
    }
    response.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/**
 * The registry of a process that is not a Fastify app (a worker): the process's own metrics (CPU, memory,
 * event-loop lag, GC) with `service` on every series, as installMetrics gives a service.
 */
export function processRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** A pg Pool's counters (node-postgres keeps them as properties) and, where it says, its size. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

const isPool = (value: unknown): value is PoolCounts =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PoolCounts).totalCount === 'number' &&
  typeof (value as PoolCounts).idleCount === 'number' &&
  typeof (value as PoolCounts).waitingCount === 'number';

/**
 * The pg Pool behind a database handle: a TypeORM DataSource keeps it as `driver.master`; a Pool itself is
 * taken as it is. Found by shape, so server-kit needs neither TypeORM nor pg; null when there is none.
 */
export function pgPoolOf(handle: unknown): PoolCounts | null {
  if (isPool(handle)) return handle;
  const master = (handle as { driver?: { master?: unknown } } | null)?.driver?.master;
  return isPool(master) ? master : null;
}

/** A handle that runs SQL (a TypeORM DataSource or a pg Pool both have `query`). */
interface Queryable {
  query(sql: string): Promise<unknown>;
}
const canQuery = (handle: unknown): handle is Queryable =>
  typeof (handle as Queryable | null)?.query === 'function';

/**
 * How long one reading of the server's connections is kept: every process of the portal reports it
 * (Prometheus takes the max), so each asks PostgreSQL at most every 10 s whatever the scrape interval.
 */
const SERVER_READING_MS = 10_000;
/** A reading that takes longer (the pool exhausted, the database away) is given up: the last one stays. */
const SERVER_READING_TIMEOUT_MS = 2_000;

/** The pools a registry reports (a process has one; the locator a second on its read replica). */
const registryPools = new WeakMap<Registry, Array<{ name: string; pool: PoolCounts }>>();

/**
 * The database pools of a process, read when scraped (`pool` names each: 'main' for DATABASE_URL's,
 * 'read' for the locator's read replica's):
 * - `db_pool_connections{pool,state}`: connections in use, idle, and queries waiting for one (in use +
 *   idle is the pool's total). Waiting above zero for long means the pool (or the database) is the
 *   bottleneck.
 * - `db_pool_max_connections{pool}`: the pool's size; summed over the processes against max_connections.
 * - `db_server_connections{reading}` (from the main pool): the PostgreSQL server's connections (`used`:
 *   every client backend in pg_stat_activity, the portal's and others'; `max`: max_connections less the
 *   superuser reserve) — what the alert "database connections near the limit" compares; asked at most
 *   every 10 s.
 */
export function observeDatabasePool(registry: Registry, handle: unknown, name = 'main'): void {
  const pool = pgPoolOf(handle);
  if (!pool) return;
  // The server's connections come from the main pool (the primary), whichever pool is observed first;
  // registered after the pool's gauges, which are read first so that its query is not counted in use.
  const server = () => {
    if (name === 'main' && canQuery(handle)) observeDatabaseServer(registry, handle);
  };
  const known = registryPools.get(registry);
  if (known) {
    known.push({ name, pool });
    return server();
  }
  const pools = [{ name, pool }];
  registryPools.set(registry, pools);
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (in use, idle) and queries waiting for a connection',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      for (const { name: label, pool: p } of pools) {
        this.set({ pool: label, state: 'in_use' }, p.totalCount - p.idleCount);
        this.set({ pool: label, state: 'idle' }, p.idleCount);
        this.set({ pool: label, state: 'waiting' }, p.waitingCount);
      }
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections the database pool opens',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      for (const { name: label, pool: p } of pools)
        if (typeof p.options?.max === 'number') this.set({ pool: label }, p.options.max);
    },
  });
  server();
}

/** `db_server_connections{reading}` (see observeDatabasePool), asked at most every 10 s. */
function observeDatabaseServer(registry: Registry, handle: Queryable): void {
  let readAt = 0;
  let reading: Promise<void> | null = null;
  new Gauge({
    name: 'db_server_connections',
    help: "PostgreSQL's connections: used (every client backend) and max (max_connections less the superuser reserve)",
    labelNames: ['reading'] as const,
    registers: [registry],
    async collect() {
      if (Date.now() - readAt >= SERVER_READING_MS) {
        readAt = Date.now();
        reading ??= readServerConnections(handle)
          .then(({ used, max }) => {
            this.set({ reading: 'used' }, used);
            this.set({ reading: 'max' }, max);
          })
          .catch(() => undefined) // the database away: the scrape still answers, with the last reading
          .finally(() => {
            reading = null;
          });
      }
      if (reading) await reading;
    },
  });
}

async function readServerConnections(handle: Queryable): Promise<{ used: number; max: number }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), SERVER_READING_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const answer = await Promise.race([
      handle.query(
        `SELECT (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::int AS used,
                (current_setting('max_connections')::int
                  - current_setting('superuser_reserved_connections')::int) AS max`,
      ),
      timeout,
    ]);
    // A DataSource answers the rows; a pg Pool a result with them.
    const rows = (Array.isArray(answer) ? answer : (answer as { rows: unknown[] }).rows) as Array<{
      used: number;
      max: number;
    }>;
    return { used: Number(rows[0].used), max: Number(rows[0].max) };
  } finally {
    clearTimeout(timer);
  }
}

/** What queue depth is read from: a BullMQ Queue (by shape: server-kit does not depend on BullMQ). */
export interface CountedQueue {
  name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

/** The job states whose counts `queue_jobs` reports. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'] as const;

/**
 * `queue_jobs{queue,state}`: how many jobs each queue holds in each state, read from Redis when scraped —
 * what a worker autoscaler (docker/k8s) scales on. A Redis that does not answer leaves the last values.
 */
export function observeQueues(registry: Registry, queues: readonly CountedQueue[]): void {
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each queue by state (waiting, active, delayed, prioritized, failed, completed)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      await Promise.all(
        queues.map(async (queue) => {
          try {
            const counts = await queue.getJobCounts(...QUEUE_STATES);
            for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          } catch {
            // Redis away: the scrape still answers, with the counts last read.
          }
        }),
      );
    },
  });
}

/**
 * `job_duration_seconds{queue,outcome}`: how long each job try ran, by outcome (completed, failed,
 * cancelled). Observe with `observe({ queue, outcome }, seconds)`.
 */
export function jobDurationHistogram(registry: Registry): Histogram<'queue' | 'outcome'> {
  return new Histogram({
    name: 'job_duration_seconds',
    help: 'Time a job try ran in the worker, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
}

/**
 * A worker's troubles, counted from its BullMQ Worker's events:
 * - `queue_job_failures_total{queue,final}`: job tries that failed; `final="true"` when it was the job's
 *   last try (the job is in the failed set for good), `"false"` when BullMQ will try it again.
 * - `queue_job_stalls_total{queue}`: jobs this worker's stalled check found without a live lock (their
 *   worker died or its event loop was blocked past the lock) and handed back to the queue.
 * The counters live in the process; `sum(rate(...))` over the instances gives the queue's.
 * With `durations` (jobDurationHistogram), each try's time is also observed from the events (processedOn
 * to now), for a worker whose processor does not time itself.
 */
export function observeWorker(
  registry: Registry,
  worker: Pick<Worker, 'name' | 'on'>,
  options: { durations?: Histogram<'queue' | 'outcome'> } = {},
): void {
  const failures = (registry.getSingleMetric('queue_job_failures_total') ??
    new Counter({
      name: 'queue_job_failures_total',
      help: 'Job tries that failed, by queue; final="true" when no try is left',
      labelNames: ['queue', 'final'] as const,
      registers: [registry],
    })) as Counter<'queue' | 'final'>;
  const stalls = (registry.getSingleMetric('queue_job_stalls_total') ??
    new Counter({
      name: 'queue_job_stalls_total',
      help: 'Jobs found stalled (lock expired while active) and handed back, by queue',
      labelNames: ['queue'] as const,
      registers: [registry],
    })) as Counter<'queue'>;
  // Both at zero from the start: an alert on increase() needs the series before the first failure.
  failures.inc({ queue: worker.name, final: 'true' }, 0);
  failures.inc({ queue: worker.name, final: 'false' }, 0);
  stalls.inc({ queue: worker.name }, 0);
  const { durations } = options;
  const observe = (outcome: string, job: { processedOn?: number } | undefined) => {
    if (durations && job?.processedOn)
      durations.observe({ queue: worker.name, outcome }, (Date.now() - job.processedOn) / 1000);
  };
  if (durations) worker.on('completed', (job) => observe('completed', job));
  worker.on('failed', (job) => {
    observe('failed', job);
    // finishedOn is set only when the job moved to the failed set for good (no try left, or unrecoverable).
    const final = !job || job.finishedOn !== undefined || job.attemptsMade >= (job.opts.attempts ?? 1);
    failures.inc({ queue: worker.name, final: String(final) });
  });
  worker.on('stalled', () => stalls.inc({ queue: worker.name }));
}
