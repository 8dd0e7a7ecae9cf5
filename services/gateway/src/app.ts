import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import { createServiceApp } from '@portal/server-kit';
import { registerApiDocs } from './api-docs';
import type { GatewayConfig } from './config';
import { registerHealth } from './health';
import proxy from './proxy';
import { registerRemotes, RemotesFile } from './remotes';
import type { Route } from './route-table';
import { routesOf } from './services-table';
import { helmetOptions } from './security';
import { registerShell } from './static-files';

export interface GatewayDeps {
  /** The routing table; tests pass their own, the portal routes by config/services.json. */
  routes?: readonly Route[];
}

/**
 * The one portal URL: security headers and compression on everything, the services' paths proxied by
 * the route table, /remotes.json and the remotes' bundles, and the shell for every other page.
 */
export function buildApp(config: GatewayConfig, deps: GatewayDeps = {}) {
  const routes = deps.routes ?? routesOf(config.servicesTable);
  const app = createServiceApp(config, {
    trustProxy: config.trustProxy,
    // The gateway's routing table handles trailing slashes itself (matchRoute); the router option would
    // merge the proxy's prefix routes and drop the websocket tunnel's (the request console's live updates).
    routerOptions: { ignoreTrailingSlash: false },
  });

  // The API's document and reference (/api/openapi.json, /api/docs): before compression, whose hook would
  // otherwise turn the reference's page into a stream before its CSP hook reads it.
  registerApiDocs(app, { routes, serviceUrls: config.serviceUrls, cacheMs: config.openapiCacheMs });
  // Registered first so their hooks cover every route below, proxied answers included.
  app.register(helmet, helmetOptions(config.cspExtraOrigins));
  app.register(compress, { global: true, encodings: ['br', 'gzip'] });

  // The gateway reads no body itself: the proxy streams each one to its service, with parsers of its own
  // (a JSON parser of the common ground would make the proxy's registration fail).
  for (const type of ['application/json', 'text/plain'])
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  app.register(proxy, {
    routes,
    serviceUrls: config.serviceUrls,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    retryDelayMs: config.retryDelayMs,
    upstreamDownMs: config.upstreamDownMs,
    upstreamDrainMs: config.upstreamDrainMs,
    upstreamIdleMs: config.upstreamIdleMs,
  });
  app.register(async (scope) => {
    await registerShell(scope, config.shellDist);
    registerRemotes(scope, new RemotesFile(config.remotesFile, config.workspaceRoot, scope.log));
  });
  registerHealth(app, config, routes);
  return app;
}
