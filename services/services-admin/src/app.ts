import { createSessionServiceApp, typed, type ServiceDeps } from '@portal/server-kit';
import { guards } from './access';
import { apiKeyRoutes } from './routes/apiKeys';
import type { ServicesAdminConfig } from './config';
import { settleKeptLists } from './page-for-model';
import { pageForModelRoutes } from './routes/page-for-model';
import { groupRoutes } from './routes/groups';
import { rateRoutes } from './routes/rates';
import { serviceAssignmentRoutes } from './routes/service-assignment';
import { usageRoutes } from './routes/usage';
import { userRoutes } from './routes/users';
import { webhookRoutes } from './routes/webhooks';

export type ServicesAdminDeps = ServiceDeps;

/** The services-admin service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: ServicesAdminConfig, deps: ServicesAdminDeps) {
  // Sessions verified (identity alone signs them), /health and /ready for the pool and Redis; every route
  // gated by the route table (libs/domain/src/routeAccess.ts).
  const app = await createSessionServiceApp(config, deps, {}, { routeAccess: config.serviceName });
  const ctx = { config, ds: deps.ds, redis: deps.redis };
  // Lists of the users grid still being read in the background finish before the pool closes.
  app.addHook('onClose', () => settleKeptLists(deps.ds));
  const guard = guards(app, deps.ds);
  await app.register(async (scope) => {
    await pageForModelRoutes(typed(scope), ctx, guard);
    await serviceAssignmentRoutes(typed(scope), ctx, guard);
    await userRoutes(typed(scope), ctx, guard);
    await groupRoutes(typed(scope), ctx, guard);
    await rateRoutes(typed(scope), ctx, guard);
    await apiKeyRoutes(typed(scope), ctx, guard);
    await usageRoutes(typed(scope), ctx, guard);
    await webhookRoutes(typed(scope), ctx, guard);
  });
  return app;
}
