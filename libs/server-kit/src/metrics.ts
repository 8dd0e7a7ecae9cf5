import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

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
