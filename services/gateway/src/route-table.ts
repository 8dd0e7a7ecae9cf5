import type { Route } from '@portal/server-kit';

// The matching rules (longest prefix, exact entries, trailing slashes) are server-kit's, shared with the
// services' tests; the gateway adds how it mounts the proxy.
export { matchRoute, type Route } from '@portal/server-kit';

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
