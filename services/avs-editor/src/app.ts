import { createSessionServiceApp, typed, type ServiceDeps } from '@portal/server-kit';
import type { AvsEditorConfig } from './config';
import { editorRoutes } from './routes/editor';

export type AvsEditorDeps = ServiceDeps;

/** The address editor service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: AvsEditorConfig, deps: AvsEditorDeps) {
  // Sessions verified (identity alone signs them), /health and /ready for the pool and Redis; every route
  // gated by the route table (libs/domain/src/routeAccess.ts).
  const app = await createSessionServiceApp(config, deps, {}, { routeAccess: config.serviceName });
  const ctx = { config, ds: deps.ds, redis: deps.redis };
  await app.register(async (scope) => {
    await editorRoutes(typed(scope), ctx);
  });
  return app;
}
