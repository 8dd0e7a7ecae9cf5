import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifySchema,
  type FastifyServerOptions,
} from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import type { BaseConfig } from './config';
import { installErrorHandling } from './errors';
import { installJsonBodyParser } from './json-body';
import { installMetrics, registerMetricsRoute, startMetricsServer } from './metrics';
import { isDraining } from './shutdown';
import { routeGate } from './route-access';
import { installOpenapi } from './openapi';

/** A Fastify instance whose routes take their types from TypeBox schemas. Route modules accept this. */
export type TypedFastify = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Turns a plain instance (e.g. a plugin scope) into a typed one. */
export const typed = (app: FastifyInstance): TypedFastify => app.withTypeProvider<TypeBoxTypeProvider>();

/** Pino options shared by every service: secrets never reach the logs. */
export function loggerOptions(
  config: Pick<BaseConfig, 'logLevel' | 'serviceName'>,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    base: { service: config.serviceName },
    redact: [
      'req.headers.cookie',
      'req.headers.authorization',
      'res.headers["set-cookie"]',
      '*.password',
      '*.confirmPassword',
    ],
  };
}

/** A route as registered: what tests walk (every path answers both ways, generated input) and metrics name. */
export interface RegisteredRoute {
  method: string;
  /** The path pattern with the prefixes of its plugins ('/api/v1.0/request/:id'). */
  url: string;
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order (server-kit's createServiceApp records them). */
    registeredRoutes: RegisteredRoute[];
    /** The app's Prometheus registry (request durations, the process's own metrics): add a service's own. */
    metrics: Registry;
  }
}

/** What a request id may look like when it comes from outside: a UUID, a trace id, nothing to inject. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request's id: the x-request-id it came with (the gateway's, or a proxy's or client's in front of the
 * gateway) when it looks like an id, otherwise a new UUID. A header of any other shape (long, with line
 * breaks or quotes) never reaches the logs as an id.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** How much of an unread request body is read and dropped before an early answer (see drainBody). */
export const DRAIN_LIMITS = { bytes: 64 * 1024 * 1024, ms: 10_000 };

/**
 * Reads and drops what is left of a request body the answer does not need (a 413 decided from
 * Content-Length, a 401 before an upload is read). Fastify closes such a connection after the answer; closed
 * with unread bytes in it, the socket is reset, and a client still sending (the gateway, streaming the body
 * on) gets the reset instead of the answer: through the gateway a 413 became a 502. Bodies beyond the limits
 * are not waited for: the connection is cut as before.
 */
export async function drainBody(raw: IncomingMessage, limits = DRAIN_LIMITS): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  let received = 0;
  const ac = new AbortController();
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      raw.off('data', count);
      resolve();
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.bytes) finish();
    };
    raw.on('data', count);
    raw.once('end', finish);
    raw.once('close', finish);
    raw.once('error', finish);
    raw.resume();
  });
  await Promise.race([done, sleep(limits.ms, undefined, { signal: ac.signal }).catch(() => undefined)]);
  ac.abort();
}

/** What the portal's ground adds beyond Fastify's options. */
export interface ServiceAppOptions {
  /**
   * The service's name in the route table (libs/domain/src/routeAccess.ts; pass config.serviceName): every
   * route gets its role gate from the table (401/403 before anything is read), and a route the table does
   * not know stops the app from starting. Unset (tests' throwaway apps, the gateway), nothing is gated.
   */
  routeAccess?: string;
  /**
   * The service's OpenAPI document (openapi.ts: @fastify/swagger over the routes' schemas, GET /openapi.json
   * on its port): on for every service gated by the route table, off otherwise unless asked for.
   */
  openapi?: boolean;
}

/**
 * A Fastify instance with the portal's common ground: request ids (taken from the gateway's
 * x-request-id or made here, echoed back), pino logs, cookies, the one error shape, AJV set to report
 * every problem with a request at once, Prometheus metrics (/metrics, or METRICS_PORT), and with
 * `options.routeAccess` the role gate of the route table.
 */
export function createServiceApp(
  config: BaseConfig,
  overrides: FastifyServerOptions = {},
  options: ServiceAppOptions = {},
) {
  const app = Fastify({
    logger: loggerOptions(config),
    // The id the gateway gave the request (x-request-id), so one id follows it through every log; the
    // gateway itself takes a client's only when it looks like an id (see requestIdOf).
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    // While it stops (closeGracefully), a request that still arrives on an open keep-alive connection (the
    // gateway's) is answered, with Connection: close, rather than refused with a 503: a restart drops
    // nothing. New connections are refused already, and the gateway sends a refused GET again.
    return503OnClosing: false,
    // The spec writes paths both ways (POST /api/v1.0/reportbuilder/rates and …/rates/, GET users/me/):
    // every route answers with and without its trailing slash. '/a' and '/a/' are then one route: a route
    // registered in both spellings stops the app from starting (Fastify's duplicate route error names it).
    routerOptions: { ignoreTrailingSlash: true },
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true },
    },
    ...overrides,
  }).withTypeProvider<TypeBoxTypeProvider>();
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  const gate = options.routeAccess === undefined ? undefined : routeGate(options.routeAccess);
  // Added before any plugin registers its routes, so it sees every one of them.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    gate?.onRoute(route, methods);
    for (const method of methods) routes.push({ method, url: route.url, schema: route.schema });
  });
  // Once the app is stopping, every answer closes its connection: a kept-alive connection would otherwise
  // stay open, idle, after the last answer and hold the stop up until its keep-alive timeout.
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (stopping || isDraining(app)) reply.header('connection', 'close');
    await drainBody(request.raw);
  });
  app.register(cookie);
  // Before any route of the service, so the document sees every one.
  if (options.openapi ?? options.routeAccess !== undefined)
    installOpenapi(app, { service: options.routeAccess, title: `Property portal: ${config.serviceName}` });
  // The role gate's hook comes right after the cookie parser's: before any other hook reads the request.
  if (gate) app.register(gate.plugin);
  installErrorHandling(app);
  installJsonBodyParser(app);
  const metrics = installMetrics(app, config.serviceName);
  app.decorate('metrics', metrics);
  if (config.metricsPort === undefined) registerMetricsRoute(app, metrics);
  else {
    const port = config.metricsPort;
    let server: Server | undefined;
    app.addHook('onListen', async () => {
      server = await startMetricsServer(metrics, config.host, port);
    });
    app.addHook('onClose', async () => {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    });
  }
  return app;
}
