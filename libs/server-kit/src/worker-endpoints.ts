import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * The small HTTP face of a worker process (no routes through the gateway): `/health` (the process is up),
 * `/ready` (its database and Redis answer: `ready()` resolves) and `/metrics` (the Prometheus text of its
 * registry: see processRegistry, observeQueues, jobDurationHistogram), on the worker's own port from
 * config/services.json.
 */
export function startWorkerEndpoints(options: {
  name: string;
  host: string;
  port: number;
  ready: () => Promise<unknown>;
  metrics: Registry;
}): Server {
  const json = (status: number, body: string) => ({ status, type: 'application/json', body });
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    let answer = json(404, '{"message":"Not found."}');
    if (path === '/health') answer = json(200, '{"status":"ok"}');
    else if (path === '/ready') {
      try {
        await options.ready();
        answer = json(200, '{"status":"ready"}');
      } catch {
        answer = json(503, '{"status":"not ready"}');
      }
    } else if (path === '/metrics')
      answer = { status: 200, type: options.metrics.contentType, body: await options.metrics.metrics() };
    response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  server.listen(options.port, options.host);
  process.stdout.write(
    `${JSON.stringify({ level: 'info', msg: `${options.name} listening on ${options.host}:${options.port}` })}\n`,
  );
  return server;
}
