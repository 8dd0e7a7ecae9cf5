import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest, RouteOptions } from 'fastify';
import { expectedRefusal, isRouteAccessApp, routeAccess, type RouteAccessEntry } from '@portal/domain';
import { API_KEY_TEXTS } from '@portal/contracts';
import { forbidden, unauthorized } from './errors';
import { bearerApiKey } from './api-keys';
import type {} from './auth';

/**
 * The role gate of a service's routes, read from the one route table (libs/domain/src/routeAccess.ts).
 * `createServiceApp(config, overrides, { routeAccess: config.serviceName })` turns it on:
 *
 * - every route registered (onRoute) is looked up in the table; a route the table does not know throws at
 *   registration, naming it, so the service does not start and the table cannot drift from the code;
 * - every request to a guarded route meets the gate as the first onRequest hook after the cookies are
 *   parsed, before any hook or handler of the service reads anything: 401 without a valid session, 403
 *   (in the entry's `refusal` words, if any) when the session holds none of the allowed roles. The
 *   session's claims are left in `request.user`.
 *
 * The services' finer checks (the user's row as it is now, group services, ownership) run after it.
 */
export interface RouteGate {
  /** onRoute: records the route's entry; throws for a route the table does not know. */
  onRoute(route: Pick<RouteOptions, 'method' | 'url'>, methods: readonly string[]): void;
  /** Registers the onRequest hook (after the cookie plugin: it reads the session cookie). */
  plugin: FastifyPluginAsync;
}

/** Requests whose session the gate has verified (their claims are in request.user). */
const verifiedByGate = new WeakSet<FastifyRequest>();

/** True when the route table's gate has verified this request's session already (request.user is set). */
export const sessionVerifiedByGate = (request: FastifyRequest) => verifiedByGate.has(request);

export function routeGate(service: string): RouteGate {
  if (!isRouteAccessApp(service))
    throw new Error(
      `'${service}' has no routes in the route table (libs/domain/src/routeAccess.ts): add them before gating it`,
    );
  /** Guarded routes by `METHOD url` (anonymous ones are not kept: the gate lets every request in). */
  const guarded = new Map<string, RouteAccessEntry>();

  const onRoute: RouteGate['onRoute'] = (route, methods) => {
    for (const method of methods) {
      const entry = routeAccess(service, method, route.url);
      if (!entry)
        throw new Error(
          `${service}: ${method} ${route.url} is not in the route table (libs/domain/src/routeAccess.ts) — ` +
            'add who may enter it there',
        );
      if (!entry.allow.includes('anonymous')) guarded.set(`${method} ${route.url}`, entry);
    }
  };

  const plugin: FastifyPluginAsync = fp(
    async (app: FastifyInstance) => {
      app.addHook('onRequest', async function routeGateHook(request: FastifyRequest, reply) {
        const url = request.routeOptions.url;
        if (url === undefined) return;
        const entry = guarded.get(`${request.method} ${url}`);
        if (!entry) return;
        const claims = await app.sessionOf(request);
        if (!claims)
          throw unauthorized(
            bearerApiKey(request.headers.authorization) === undefined ? undefined : API_KEY_TEXTS.invalid,
          );
        request.user = claims;
        verifiedByGate.add(request);
        if (request.apiKey) {
          // What a key may call is the table's `key` (issue 22): a route without one is closed to keys.
          if (!entry.key) throw forbidden(API_KEY_TEXTS.notForKeys);
          const { service, scope } = entry.key;
          if (service !== 'request' && !request.apiKey.services.includes(service))
            throw forbidden(API_KEY_TEXTS.wrongService(service));
          if (scope === 'write' && request.apiKey.scope !== 'write') throw forbidden(API_KEY_TEXTS.readOnly);
          await app.limitApiKeyCall(request, reply);
        }
        if (expectedRefusal(entry, claims.roles) === 403) throw forbidden(entry.refusal);
      });
      app.addHook('onReady', async () => {
        if (guarded.size > 0 && !app.hasDecorator('sessionOf'))
          throw new Error(
            `${service}: routes need a session (the route table) but no session plugin (authPlugin) is registered`,
          );
      });
    },
    { name: 'portal-route-gate' },
  );

  return { onRoute, plugin };
}
