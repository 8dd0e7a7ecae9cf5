import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import { errorAnswer } from '@portal/server-kit';
import type { GatewayConfig } from './config';
import { matchRoute, proxyMountPaths, type Route } from './route-table';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route-table entry this request is proxied by (set before the proxy handler runs). */
    proxyRoute: Route | null;
  }
}

export interface ProxyOptions {
  routes: readonly Route[];
  serviceUrls: GatewayConfig['serviceUrls'];
  upstreamTimeoutMs: number;
}

const CONNECT_TIMEOUT_MS = 5_000;

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

function unavailable(reply: FastifyReply, error: unknown): void {
  const { request } = reply;
  const service = request.proxyRoute?.service ?? 'requested';
  request.log.warn({ err: error, service }, 'upstream service unavailable');
  void reply
    .code(502)
    .send(
      errorAnswer(
        502,
        `The ${service} service is not available right now. Please try again shortly.`,
        request.id,
      ),
    );
}

/**
 * Proxies the paths of the route table to their services, keeping the path and query, passing cookies
 * both ways and (for entries marked `websocket`) upgrading to a websocket tunnel. A path under /api that no
 * entry owns is a JSON 404; a service that does not answer is a JSON 502.
 */
async function proxyPlugin(app: FastifyInstance, options: ProxyOptions): Promise<void> {
  const { routes, serviceUrls } = options;
  app.decorateRequest('proxyRoute', null);

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
      done();
    },
    replyOptions: {
      // The preHandler has set the route: requests without one never reach the proxy.
      getUpstream: (request) => serviceUrls[request.proxyRoute!.service],
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        ...forwardedHeaders(request as FastifyRequest),
      }),
      onError: (reply, { error }) => unavailable(reply as FastifyReply, error),
    },
    wsClientOptions,
  };
  const withWebsockets = routes.some((route) => route.websocket);
  await app.register(httpProxy, withWebsockets ? { ...proxyOptions, websocket: true } : proxyOptions);
}

export default fp(proxyPlugin, { name: 'gateway-proxy' });
