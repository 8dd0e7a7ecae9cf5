import type { FastifyInstance } from 'fastify';
import { HealthAnswer } from '@portal/contracts';
import { isDraining } from './shutdown';

export type ReadinessCheck = () => Promise<unknown>;

/**
 * GET /health: the process answers (liveness). GET /ready: every dependency answers (readiness), 503
 * naming the failed ones otherwise, so an orchestrator or the start script knows when to route traffic;
 * 503 too once the process is stopping (drainAndClose), so traffic goes elsewhere before it stops listening.
 */
export function registerHealth(
  app: FastifyInstance,
  service: string,
  checks: Record<string, ReadinessCheck>,
): void {
  app.get('/health', { schema: { response: { 200: HealthAnswer } }, logLevel: 'warn' }, async () => ({
    status: 'ok' as const,
    service,
  }));
  app.get(
    '/ready',
    { schema: { response: { 200: HealthAnswer, 503: HealthAnswer } }, logLevel: 'warn' },
    async (_req, reply) => {
      if (isDraining(app))
        return reply.status(503).send({ status: 'degraded', service, checks: { process: 'stopping' } });
      const results: Record<string, string> = {};
      await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            let timer: NodeJS.Timeout | undefined;
            const timeout = new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timeout')), 2000);
            });
            await Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
            results[name] = 'ok';
          } catch (err) {
            results[name] = `failed: ${(err as Error).message}`;
          }
        }),
      );
      const ok = Object.values(results).every((r) => r === 'ok');
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', service, checks: results });
    },
  );
}
