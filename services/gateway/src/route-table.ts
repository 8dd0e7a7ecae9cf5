import type { ServiceName } from './config';

/** One line of the gateway's routing table: which service answers a path prefix. */
export interface Route {
  /**
   * The path the entry owns. It matches the path itself and every path below it ('/a' matches '/a' and
   * '/a/b', never '/ab'); a prefix ending in '/' matches only the paths below it.
   */
  prefix: string;
  service: ServiceName;
  /** Match only the prefix itself, not the paths below it (those belong to another entry or nobody). */
  exact?: boolean;
  /** Also proxy websocket upgrades on these paths. */
  websocket?: boolean;
}

/**
 * The one table of what the gateway proxies, by path prefix; the longest matching prefix wins, so a more
 * specific entry can hand part of a path to another service. A service joins the table when it exists.
 */
export const ROUTES: readonly Route[] = [
  // identity: accounts, sessions, password reset, menus, audit (spec 01 §7, spec 03 "Header menu")
  { prefix: '/api/v1.0/users/me', service: 'identity' },
  { prefix: '/api/v1.0/loggedin', service: 'identity' },
  { prefix: '/api/v1.0/login', service: 'identity' },
  { prefix: '/api/v1.0/register', service: 'identity' },
  { prefix: '/api/v1.0/logout', service: 'identity' },
  { prefix: '/api/v1.0/forgot-password', service: 'identity' },
  { prefix: '/api/v1.0/reset/', service: 'identity' },
  { prefix: '/api/v1.0/passwordreset', service: 'identity' },
  { prefix: '/api/v1.0/passwordresetcb', service: 'identity' },
  { prefix: '/admin/menu/', service: 'identity' },
  { prefix: '/api/v1.0/audit', service: 'identity' },
  // The user's own services (home tiles); the paths below it belong to services-admin.
  { prefix: '/api/v1.0/services', service: 'identity', exact: true },

  // services-admin: users, groups, service assignment and rate tables (spec 03 §7 Administration)
  { prefix: '/api/v1.0/services/', service: 'services-admin' },
  // The list only: /api/v1.0/users/me stays identity's.
  { prefix: '/api/v1.0/users', service: 'services-admin', exact: true },
  { prefix: '/api/v1.0/groups', service: 'services-admin' },
  { prefix: '/api/v1.0/group/', service: 'services-admin' },
  { prefix: '/api/v1.0/user/', service: 'services-admin' },
  // Rate tables are written by services-admin (docs/architecture.md); the longer prefix keeps them there
  // when the report builder takes /api/v1.0/reportbuilder/.
  { prefix: '/api/v1.0/reportbuilder/rates', service: 'services-admin' },

  // locator: the address service, imagery and vector tiles over the geo schema (spec 01 §7)
  { prefix: '/api/avs/', service: 'locator' },
  { prefix: '/api/idanImageUrl', service: 'locator', exact: true },
  { prefix: '/api/idanSmallImageUrl', service: 'locator', exact: true },
  { prefix: '/api/idanCoverage', service: 'locator', exact: true },
  { prefix: '/api/pictometry/proxy', service: 'locator' },
  { prefix: '/api/imagery/', service: 'locator' },
  { prefix: '/api/v1.0/tiles/', service: 'locator' },

  // requests: creation, one request, the mapping service's points (spec 01 §7, spec 03 §7). The entry owns
  // /api/v1.0/request and the paths below it, never /api/v1.0/requests….
  { prefix: '/api/v1.0/request', service: 'requests' },
];

function matches(route: Route, path: string): boolean {
  if (path === route.prefix) return true;
  if (route.exact) return false;
  return path.startsWith(route.prefix.endsWith('/') ? route.prefix : `${route.prefix}/`);
}

/** The entry with the longest prefix that matches the path (query string ignored), if any. */
export function matchRoute(routes: readonly Route[], url: string): Route | undefined {
  const path = url.split('?', 1)[0];
  let best: Route | undefined;
  for (const route of routes) {
    if (matches(route, path) && (!best || route.prefix.length > best.prefix.length)) best = route;
  }
  return best;
}

/**
 * The router paths the proxy listens on: all of /api (so an unknown API path gets a JSON 404 rather
 * than the web app) plus each entry outside /api.
 */
export function proxyMountPaths(routes: readonly Route[]): string[] {
  const paths = new Set(['/api', '/api/*']);
  for (const { prefix, exact } of routes) {
    if (prefix === '/api' || prefix.startsWith('/api/')) continue;
    if (exact) paths.add(prefix);
    else if (prefix.endsWith('/')) paths.add(`${prefix}*`);
    else paths.add(prefix).add(`${prefix}/*`);
  }
  return [...paths];
}
