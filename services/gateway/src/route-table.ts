import type { ServiceName } from './config';

/**
 * One line of the gateway's routing table: which service answers a path prefix. The table is the
 * `routes` of config/services.json (services-table.ts); the longest matching prefix wins, so a more
 * specific entry can hand part of a path to another service.
 */
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

function matches(route: Route, path: string): boolean {
  if (path === route.prefix) return true;
  // The spec writes paths both with and without their trailing slash (GET /api/v1.0/requests/?…).
  if (route.exact) return path === `${route.prefix}/`;
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
