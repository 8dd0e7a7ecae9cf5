import {
  createSessionServiceApp,
  createStorage,
  installMetering,
  observeDatabasePool,
  typed,
  type ServiceDeps,
} from '@portal/server-kit';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { LocatorConfig } from './config';
import { openReadDatabase } from './database';
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

/** `readDs`: the read replica's pool, when the caller opened it; otherwise built from DATABASE_READ_URL. */
export type LocatorDeps = ServiceDeps & { readDs?: DataSource };

/** The locator service as a Fastify app (tests drive it with inject; main.ts listens). */
export async function buildApp(config: LocatorConfig, deps: LocatorDeps) {
  // Sessions verified (identity alone signs them), /health and /ready for the pool and Redis; every route
  // gated by the route table (libs/domain/src/routeAccess.ts).
  const app = await createSessionServiceApp(config, deps, {}, { routeAccess: config.serviceName });
  // Look-ups, validations, parcel tiles and pictures are counted per group (docs/architecture.md).
  await installMetering(app, config, deps);
  const imageryStorage = createStorage({ driver: 'local', dir: config.imageryStorageDir });
  const readDs = deps.readDs ?? (await readPool(app, config)) ?? deps.ds;
  const ctx: LocatorContext = {
    config,
    ds: deps.ds,
    readDs,
    redis: deps.redis,
    imageryStorage,
    imagery: createImageryProvider(config.imagery, deps.ds, imageryStorage),
    extents: new ExtentCache(readDs),
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

/**
 * The read replica's pool when DATABASE_READ_URL is set (its use on /metrics as pool="read", closed with
 * the app); else the one pool, `deps.ds`, serves the reads too.
 */
async function readPool(app: FastifyInstance, config: LocatorConfig): Promise<DataSource | undefined> {
  if (!config.databaseReadUrl) return undefined;
  const readDs = await openReadDatabase(config.databaseReadUrl);
  observeDatabasePool(app.metrics, readDs, 'read');
  app.addHook('onClose', async () => {
    await readDs.destroy();
  });
  return readDs;
}
