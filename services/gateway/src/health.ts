import { existsSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_ROUTES, HealthAnswer } from '@portal/contracts';
import { isDraining } from '@portal/server-kit';
import type { GatewayConfig, ServiceName } from './config';
import type { Route } from './route-table';
import { parseUpstreams } from './upstreams';

const UPSTREAM_CHECK_TIMEOUT_MS = 1_500;

/**
 * One instance's GET /health, on a connection of its own closed after the answer: a kept-alive one would
 * stay open, idle, and hold up that instance's next stop (it waits for its connections to close).
 */
function upstreamHealth(baseUrl: string): Promise<string> {
  return new Promise((resolve) => {
    const request = httpGet(
      `${baseUrl}/health`,
      { agent: false, headers: { connection: 'close' }, timeout: UPSTREAM_CHECK_TIMEOUT_MS },
      (answer) => {
        answer.resume();
        const status = answer.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? 'ok' : `unhealthy: HTTP ${status}`);
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    request.on('error', (err: Error & { code?: string }) =>
      resolve(`unavailable: ${err.code ?? err.message}`),
    );
  });
}

/**
 * GET /health: the gateway answers. GET /ready: it can serve the portal, which needs the built shell.
 * The services behind it are reported for information only: one service down must not take the whole
 * portal out of a load balancer (the gateway answers a clear 502 for that service's paths instead).
 */
export function registerHealth(
  app: FastifyInstance,
  config: Pick<GatewayConfig, 'shellDist' | 'serviceUrls'>,
  routes: readonly Route[],
): void {
  const services = [...new Set(routes.map((route) => route.service))] as ServiceName[];
  const shellIndex = join(config.shellDist, 'index.html');

  app.get(
    GATEWAY_ROUTES.health,
    { schema: { response: { 200: HealthAnswer } }, logLevel: 'warn' },
    async () => ({
      status: 'ok' as const,
      service: 'gateway',
    }),
  );

  app.get(
    GATEWAY_ROUTES.ready,
    { schema: { response: { 200: HealthAnswer, 503: HealthAnswer } }, logLevel: 'warn' },
    async (_request, reply) => {
      // Stopping (server-kit's drainAndClose): a load balancer in front sends elsewhere.
      if (isDraining(app))
        return reply
          .status(503)
          .send({ status: 'degraded', service: 'gateway', checks: { process: 'stopping' } });
      const shellBuilt = existsSync(shellIndex);
      const checks: Record<string, string> = {
        shell: shellBuilt ? 'ok' : `missing: ${shellIndex} (build the shell)`,
      };
      // Each instance of a service (its setting may list several), 'ok' when all are.
      const upstreams = await Promise.all(
        services.map(async (service) => {
          const urls = parseUpstreams(config.serviceUrls[service]);
          const answers = await Promise.all(urls.map(upstreamHealth));
          if (urls.length === 1 || answers.every((answer) => answer === 'ok')) return answers[0];
          return urls.map((url, i) => `${url}: ${answers[i]}`).join('; ');
        }),
      );
      services.forEach((service, i) => {
        checks[`${service} (info)`] = upstreams[i];
      });
      return reply
        .status(shellBuilt ? 200 : 503)
        .send({ status: shellBuilt ? 'ok' : 'degraded', service: 'gateway', checks });
    },
  );
}
