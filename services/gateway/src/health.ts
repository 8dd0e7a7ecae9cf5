import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HealthAnswer } from '@portal/contracts';
import type { GatewayConfig, ServiceName } from './config';
import type { Route } from './route-table';

const UPSTREAM_CHECK_TIMEOUT_MS = 1_500;

async function upstreamHealth(baseUrl: string): Promise<string> {
  try {
    const answer = await fetch(`${baseUrl}/health`, {
      signal: AbortSignal.timeout(UPSTREAM_CHECK_TIMEOUT_MS),
    });
    return answer.ok ? 'ok' : `unhealthy: HTTP ${answer.status}`;
  } catch (err) {
    const { cause, message } = err as Error & { cause?: { code?: string } };
    return `unavailable: ${cause?.code ?? message}`;
  }
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

  app.get('/health', { schema: { response: { 200: HealthAnswer } }, logLevel: 'warn' }, async () => ({
    status: 'ok' as const,
    service: 'gateway',
  }));

  app.get(
    '/ready',
    { schema: { response: { 200: HealthAnswer, 503: HealthAnswer } }, logLevel: 'warn' },
    async (_request, reply) => {
      const shellBuilt = existsSync(shellIndex);
      const checks: Record<string, string> = {
        shell: shellBuilt ? 'ok' : `missing: ${shellIndex} (build the shell)`,
      };
      const upstreams = await Promise.all(
        services.map((service) => upstreamHealth(config.serviceUrls[service])),
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
