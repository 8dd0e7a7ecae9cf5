import {
  createSessionServiceApp,
  createStorage,
  installMetering,
  typed,
  type ServiceDeps,
} from '@portal/server-kit';
import type { LocatorConfig } from './config';
import type { LocatorContext } from './context';
import { createImageryProvider } from './imagery/provider';
import { ExtentCache } from './ogc/extent';
import { avsRoutes } from './routes/avs';
import { imageryRoutes } from './routes/imagery';
import { ogcRoutes } from './routes/ogc';
import { surveyRoutes } from './routes/surveys';
import { tileJsonRoutes } from './routes/tileJson';
import { tileRoutes } from './routes/tiles';
import { validateRoutes } from './routes/validate';

export type LocatorDeps = ServiceDeps;

/** The locator service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: LocatorConfig, deps: LocatorDeps) {
  // Sessions verified (identity alone signs them), /health and /ready for the pool and Redis; every route
  // gated by the route table (libs/domain/src/routeAccess.ts).
  const app = await createSessionServiceApp(config, deps, {}, { routeAccess: config.serviceName });
  // Look-ups, validations, parcel tiles and pictures are counted per group (docs/architecture.md).
  await installMetering(app, config, deps);
  const imageryStorage = createStorage({ driver: 'local', dir: config.imageryStorageDir });
  const ctx: LocatorContext = {
    config,
    ds: deps.ds,
    redis: deps.redis,
    imageryStorage,
    imagery: createImageryProvider(config.imagery, deps.ds, imageryStorage),
    extents: new ExtentCache(deps.ds),
  };
  await app.register(async (scope) => {
    await avsRoutes(typed(scope), ctx);
    await tileRoutes(typed(scope), ctx);
    await imageryRoutes(typed(scope), ctx);
    await surveyRoutes(typed(scope), ctx);
    await validateRoutes(typed(scope), ctx);
    // GIS tools (issue 23): TileJSON documents and OGC API – Features.
    await tileJsonRoutes(typed(scope), ctx);
    await ogcRoutes(typed(scope), ctx);
  });
  return app;
}
