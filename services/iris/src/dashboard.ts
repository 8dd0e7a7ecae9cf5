import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { PORTAL_QUEUES, QUEUE_DASHBOARD_PATH, ROLE } from '@portal/contracts';
import { ROUTE_REFUSALS } from '@portal/domain';
import { bullConnection, callerHooks, closeQueue, forbidden } from '@portal/server-kit';
import type { IrisContext } from './context';

/** The dashboard's refusal: the route table gate's words (ROUTE_REFUSALS), whichever check refuses. */
export const DASHBOARD_TEXT = { adminOnly: ROUTE_REFUSALS.queueDashboard } as const;

/**
 * The operators' dashboard of every queue of the portal (Bull Board at /admin/queues, through the gateway):
 * jobs by state, their progress, data and errors, with retry and clean. Administrators only — the token's
 * role and the user's row as it is now (a removed admin flag counts at once); everyone else gets a 403.
 */
export async function registerQueueDashboard(app: FastifyInstance, ctx: IrisContext): Promise<Queue[]> {
  const queues = [
    new Queue(PORTAL_QUEUES.requestConsole, {
      connection: bullConnection(ctx.config.redisUrl),
      prefix: ctx.config.requestQueuePrefix,
    }),
    // Webhooks (issue 22) and notifications (issue 24): run by the requests worker, under its prefix.
    ...[PORTAL_QUEUES.webhookDispatch, PORTAL_QUEUES.webhookDelivery, PORTAL_QUEUES.notifications].map(
      (name) =>
        new Queue(name, {
          connection: bullConnection(ctx.config.redisUrl),
          prefix: ctx.config.requestQueuePrefix,
        }),
    ),
    new Queue(PORTAL_QUEUES.irisPdf, {
      connection: bullConnection(ctx.config.redisUrl),
      prefix: ctx.config.queuePrefix,
    }),
    // The report builder's PDFs (services/reportbuilder).
    new Queue(PORTAL_QUEUES.reportbuilderPdf, {
      connection: bullConnection(ctx.config.redisUrl),
      prefix: ctx.config.reportbuilderQueuePrefix,
    }),
  ];
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Portal queues' } },
  });
  await app.register(async (scope) => {
    const [session, caller] = callerHooks(scope, ctx.ds);
    scope.addHook('onRequest', session);
    scope.addHook('onRequest', caller);
    scope.addHook('onRequest', async (request) => {
      if (!request.caller.roles.includes(ROLE.admin)) throw forbidden(DASHBOARD_TEXT.adminOnly);
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  });
  app.addHook('onClose', async () => {
    await Promise.all(queues.map(closeQueue));
  });
  return queues;
}
