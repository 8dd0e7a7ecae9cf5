import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { errorAnswer } from '@portal/server-kit';
import type { GatewayConfig } from './config';
import { matchRoute, proxyMountPaths, type Route } from './route-table';
import { LazyBody, parseUpstreams, UpstreamPool } from './upstreams';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route-table entry this request is proxied by (set before the proxy handler runs). */
    proxyRoute: Route | null;
    /** The instances of its service this request was sent to, in order (several after a failover). */
    upstreamsTried: string[] | null;
    /** Whether it was sent once more after a failed connection (idempotent calls, once). */
    upstreamRetried: boolean;
  }
}

export interface ProxyOptions {
  routes: readonly Route[];
  /** Each service's base URL, or its instances' separated by commas (round robin, see UpstreamPool). */
  serviceUrls: GatewayConfig['serviceUrls'];
  upstreamTimeoutMs: number;
  /** The pause before an idempotent request is sent once more after a failed connection. */
  retryDelayMs: number;
  /** How long an instance that refused a connection is left out of its service's turn. */
  upstreamDownMs?: number;
  /**
   * How long an instance that answered `Connection: close` (a service stopping does, see server-kit's
   * drainAndClose) is left out of the turn: new connections to it would race its listener's close.
   */
  upstreamDrainMs?: number;
  /**
   * How long a kept-alive connection to a service may stay idle before the gateway closes it. A service
   * that stops waits for its connections to close (see server-kit's runServer): this keeps that wait short.
   */
  upstreamIdleMs?: number;
}

const CONNECT_TIMEOUT_MS = 5_000;

/**
 * What reply-from's retry callback really gets (its type declarations say a FastifyRequest): the request
 * it is about to send again, whose URL and body may be replaced for the next attempt.
 */
interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/**
 * The forwarding headers a service sees. They replace whatever the client sent: the gateway's own view
 * of the client (which already honours a trusted proxy in front, see `trustProxy`) is the only truth.
 */
function forwardedHeaders(request: FastifyRequest): Record<string, string> {
  return {
    'x-forwarded-for': request.ip,
    'x-forwarded-proto': request.protocol,
    'x-forwarded-host': request.host,
    'x-request-id': request.id,
  };
}

/** Idempotent methods: sent again once when the connection to the service failed before any answer. */
const RETRIED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * No connection made: refused, or the instance's name did not resolve (a stopped container's name leaves
 * the compose network's DNS until it starts again: ENOTFOUND; EAI_AGAIN when the DNS did not answer).
 * Nothing was sent, so any request (a POST too) may go to another instance of the service instead.
 */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Connection failures that happen before a service has seen the request: refused (the service is
 * restarting, or this instance just stopped listening), or a kept-alive connection the service closed as
 * the request went out (undici's 'other side closed'). A GET sent again then reaches the new process.
 */
const RETRIED_ERRORS = new Set([...NOT_CONNECTED, 'ECONNRESET', 'UND_ERR_SOCKET']);

/** The error reply-from reports, or the undici/system error it wraps. */
const codesOf = (error: unknown): string[] => {
  const codes: string[] = [];
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string') codes.push(e.code);
  }
  return codes;
};

/**
 * The gateway's own answer when a service gave none: 504 when it did not answer within the upstream
 * timeout (it may still be working: the client should not assume the call failed or succeeded), 502
 * when it could not be reached at all. Both name the service. Answers the service did give (a 413, a
 * 503 of its own) never come here: they pass through as they are.
 */
function noAnswer(reply: FastifyReply, error: unknown): void {
  const { request } = reply;
  const service = request.proxyRoute?.service ?? 'requested';
  const codes = codesOf(error);
  const timedOut = codes.some((code) =>
    ['FST_REPLY_FROM_GATEWAY_TIMEOUT', 'FST_REPLY_FROM_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT'].includes(code),
  );
  request.log.warn({ err: error, service, codes }, timedOut ? 'upstream timed out' : 'upstream unavailable');
  const [status, message] = timedOut
    ? [504, `The ${service} service did not answer in time. Please try again shortly.`]
    : [502, `The ${service} service is not available right now. Please try again shortly.`];
  void reply.code(status).send(errorAnswer(status, message, request.id));
}

/** Whether a TCP connection to `url`'s host and port is taken within `timeoutMs` (then closed at once). */
function accepts(url: string, timeoutMs: number): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, ''),
      port: Number(port || (protocol === 'https:' ? 443 : 80)),
    });
    const settle = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => settle(false));
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
  });
}

/**
 * Before a websocket upgrade is taken, an instance of its service that accepts connections: the proxy
 * answers 101 to the client before it connects upstream, so with the service down the client would get a
 * socket closed before its handshake, which socket.io-client gives up only on its connect timeout. An
 * instance that refuses is left out of the turn (the tunnel then goes to one that accepted); with none, the
 * upgrade is answered with the 502 naming the service, and the client tries again at once.
 */
async function upgradeTarget(pool: UpstreamPool, timeoutMs: number): Promise<string | undefined> {
  const tried = new Set<string>();
  for (let url = pool.pick(); url; url = pool.pick(tried)) {
    tried.add(url);
    if (await accepts(url, timeoutMs)) return url;
    pool.markDown(url);
  }
  return undefined;
}

/**
 * Proxies the paths of the route table to their services, keeping the path and query, passing cookies
 * both ways and (for entries marked `websocket`) upgrading to a websocket tunnel. A path under /api that no
 * entry owns is a JSON 404; a service that cannot be reached is a JSON 502, one that does not answer in time a
 * JSON 504; whatever a service answers (4xx and 5xx included) passes through unchanged.
 */
async function proxyPlugin(app: FastifyInstance, options: ProxyOptions): Promise<void> {
  const { routes, serviceUrls } = options;
  app.decorateRequest('proxyRoute', null);
  app.decorateRequest('upstreamsTried', null);
  app.decorateRequest('upstreamRetried', false);
  const pools = new Map(
    Object.entries(serviceUrls).map(([service, setting]) => [
      service,
      new UpstreamPool(parseUpstreams(setting), options.upstreamDownMs ?? 1_000),
    ]),
  );
  // reply-from's retry callback sees the outgoing request only: its headers object (made by
  // rewriteRequestHeaders, once per request) leads back to the client's request.
  const requestOf = new WeakMap<object, FastifyRequest>();

  // The plugin reads rewriteRequestHeaders from wsClientOptions at run time (its index.js), but its
  // type declarations leave the option out: widen the declared type rather than cast the call away.
  const wsClientOptions: NonNullable<FastifyHttpProxyOptions['wsClientOptions']> & {
    rewriteRequestHeaders: (headers: IncomingHttpHeaders, request: FastifyRequest) => IncomingHttpHeaders;
  } = {
    rewriteRequestHeaders: (headers, request) => ({
      ...headers,
      ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
      ...forwardedHeaders(request),
    }),
  };
  const proxyOptions: FastifyHttpProxyOptions = {
    // No fixed upstream: each request's comes from its route-table entry.
    upstream: '',
    routes: proxyMountPaths(routes),
    // Fastify logs each request already; reply-from's own two lines per request would only repeat it.
    disableRequestLogging: true,
    undici: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      headersTimeout: options.upstreamTimeoutMs,
      bodyTimeout: options.upstreamTimeoutMs,
      keepAliveTimeout: options.upstreamIdleMs ?? 2_000,
      keepAliveMaxTimeout: options.upstreamIdleMs ?? 2_000,
    },
    preHandler(request, reply, done) {
      const route = matchRoute(routes, request.url);
      const isUpgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
      if (!route || (isUpgrade && !route.websocket)) {
        const what = isUpgrade ? 'websocket endpoint' : 'route';
        void reply
          .code(404)
          .send(
            errorAnswer(404, `No ${what} for ${request.method} ${request.url.split('?')[0]}`, request.id),
          );
        return;
      }
      request.proxyRoute = route;
      if (isUpgrade) {
        void upgradeTarget(pools.get(route.service)!, CONNECT_TIMEOUT_MS).then((url) => {
          if (url) return done();
          const message = `The ${route.service} service is not available right now. Please try again shortly.`;
          request.log.warn({ service: route.service }, 'upstream unavailable for a websocket');
          // Written to the socket and ended: the proxy destroys an upgrade's socket as soon as a reply
          // finishes, which could cut the answer before it is sent.
          reply.hijack();
          const body = JSON.stringify(errorAnswer(502, message, request.id));
          request.raw.socket.end(
            [
              'HTTP/1.1 502 Bad Gateway',
              'Content-Type: application/json; charset=utf-8',
              `Content-Length: ${Buffer.byteLength(body)}`,
              `x-request-id: ${request.id}`,
              'Connection: close',
              '',
              body,
            ].join('\r\n'),
          );
        });
        return;
      }
      // A body is read only once a connection takes it, so a refused one can go to another instance.
      if (request.body instanceof Readable) request.body = new LazyBody(request.body);
      // Metrics by the table's entry (the router's pattern is '/api/*' for every proxied call).
      request.metricsRoute = route.prefix;
      done();
    },
    replyOptions: {
      // The preHandler has set the route: requests without one never reach the proxy.
      getUpstream: (request) => {
        const url = pools.get(request.proxyRoute!.service)!.pick()!;
        request.upstreamsTried = [url];
        return url;
      },
      rewriteRequestHeaders: (request, headers) => {
        const rewritten = { ...headers, ...forwardedHeaders(request as FastifyRequest) };
        requestOf.set(rewritten, request as FastifyRequest);
        return rewritten;
      },
      // Connection and Keep-Alive are about the gateway's connection to the service, not the client's: never
      // passed on. A service closing its connection after the answer is stopping (or could not read the
      // request to the end): new requests go to its other instances meanwhile.
      rewriteHeaders: (headers, request) => {
        const { connection, 'keep-alive': _keepAlive, ...passed } = headers;
        const tried = (request as FastifyRequest).upstreamsTried;
        if (typeof connection === 'string' && /\bclose\b/i.test(connection) && tried?.length)
          pools
            .get((request as FastifyRequest).proxyRoute!.service)!
            .markDown(tried.at(-1)!, options.upstreamDrainMs ?? 3_000);
        return passed;
      },
      onError: (reply, { error }) => noAnswer(reply as FastifyReply, error),
      // An answer, 503s included, is the service's and is passed on (reply-from's default would retry GETs
      // answered 503 up to ten times). A failed connection is sent again:
      //  - refused or its name unresolved (nothing was sent): at once to another instance of the service,
      //    any method, each instance once;
      //  - refused by every instance, or closed before any answer (a kept-alive connection the service
      //    closed as the request went out): idempotent requests without a body once more after
      //    retryDelayMs (a rolling restart of a single instance), to the next instance in turn.
      retryDelay: ({ err, req: declared }) => {
        const req = declared as unknown as OutgoingRequest;
        const request = requestOf.get(req.headers);
        if (!err || !request?.upstreamsTried) return null;
        const codes = codesOf(err);
        const pool = pools.get(request.proxyRoute!.service)!;
        const tried = request.upstreamsTried;
        const resend = (url: string, delay: number) => {
          const body = req.body;
          if (body instanceof LazyBody) {
            if (body.started) return null;
            req.body = new LazyBody(body.source);
          }
          tried.push(url);
          // The same path and query on the other instance (reply-from may share the URL it built: a new one).
          const next = new URL(req.url.href);
          const { protocol, host } = new URL(url);
          Object.assign(next, { protocol, host });
          req.url = next;
          return delay;
        };
        if (codes.some((code) => NOT_CONNECTED.has(code))) {
          pool.markDown(tried.at(-1)!);
          const other = pool.pick(new Set(tried));
          // reply-from takes 0 as "no retry": 1 ms is "at once".
          if (other) return resend(other, 1);
        }
        if (
          !request.upstreamRetried &&
          RETRIED_METHODS.has(req.method ?? '') &&
          !req.headers['content-length'] &&
          codes.some((code) => RETRIED_ERRORS.has(code))
        ) {
          request.upstreamRetried = true;
          return resend(pool.pick() ?? tried[0], options.retryDelayMs);
        }
        return null;
      },
    },
    wsClientOptions,
  };
  const withWebsockets = routes.some((route) => route.websocket);
  await app.register(httpProxy, withWebsockets ? { ...proxyOptions, websocket: true } : proxyOptions);
}

export default fp(proxyPlugin, { name: 'gateway-proxy' });
