import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

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

/** A pg Pool's counters (node-postgres keeps them as properties). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
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

/**
 * `db_pool_connections{state}`: the database pool's connections in use, idle, and the queries waiting for
 * one, read when scraped. Waiting above zero for long means the pool (or the database) is the bottleneck.
 */
export function observeDatabasePool(registry: Registry, handle: unknown): void {
  const pool = pgPoolOf(handle);
  if (!pool) return;
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (in use, idle) and queries waiting for a connection',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
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
