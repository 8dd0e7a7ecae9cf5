// config/services.json as the gateway routes it, here so that the services' tests can check the gateway
// sends every path of theirs to them (server-kit/testing), by the same rules the gateway uses.
import { readFileSync } from 'node:fs';

/**
 * One line of the gateway's routing table: which service answers a path prefix. The table is the
 * `routes` of config/services.json (readServicesTable, routesOf); the longest matching prefix wins, so a more
 * specific entry can hand part of a path to another service.
 */
export interface Route {
  /**
   * The path the entry owns. It matches the path itself and every path below it ('/a' matches '/a' and
   * '/a/b', never '/ab'); a prefix ending in '/' matches only the paths below it.
   */
  prefix: string;
  /** The service's name in config/services.json. */
  service: string;
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

/**
 * The entry that owns a path (query string ignored), if any: an exact entry for its path in either form
 * (so identity's exact /api/v1.0/services keeps /api/v1.0/services/ from services-admin's
 * /api/v1.0/services/), otherwise the one with the longest matching prefix.
 */
export function matchRoute(routes: readonly Route[], url: string): Route | undefined {
  const path = url.split('?', 1)[0];
  let best: Route | undefined;
  const rank = (route: Route) => (route.exact ? Number.MAX_SAFE_INTEGER : route.prefix.length);
  for (const route of routes) {
    if (matches(route, path) && (!best || rank(route) > rank(best))) best = route;
  }
  return best;
}

/** One process of config/services.json (the table `npm start`, the test harness and the benchmarks read too). */
export interface ServiceEntry {
  name: string;
  entry: string;
  /** The local default port; `<NAME>_URL` moves the service for the gateway. */
  port: number;
  /** The gateway's path prefixes for it; none for a worker. */
  routes?: Omit<Route, 'service'>[];
}

export interface ServicesTable {
  services: ServiceEntry[];
  /** The gateway's entry: its port is public, so its /metrics are on a port of their own. */
  gateway?: { port?: number; metricsPort?: number };
}

/**
 * Reads and checks config/services.json. A malformed table stops the gateway at start-up with the file
 * and the entry named, rather than routing part of the portal nowhere.
 */
export function readServicesTable(file: string): ServicesTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`The services table ${file} could not be read: ${(err as Error).message}`);
  }
  const services = (parsed as { services?: unknown }).services;
  if (!Array.isArray(services)) throw new Error(`The services table ${file} has no "services" list.`);
  const names = new Set<string>();
  for (const [i, service] of services.entries()) {
    const { name, port, routes } = (service ?? {}) as Partial<ServiceEntry>;
    const where = `${file}, services[${i}]`;
    if (typeof name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(name))
      throw new Error(`${where}: "name" must be a lower-case name such as "requests".`);
    if (names.has(name)) throw new Error(`${where}: "${name}" is listed twice.`);
    names.add(name);
    if (!Number.isInteger(port) || port! <= 0 || port! > 65535)
      throw new Error(`${where}: "port" must be a port number.`);
    for (const route of routes ?? []) {
      if (typeof route?.prefix !== 'string' || !route.prefix.startsWith('/'))
        throw new Error(`${where}: every route needs a "prefix" starting with '/'.`);
    }
  }
  const gateway = (parsed as { gateway?: ServicesTable['gateway'] }).gateway;
  return { services: services as ServiceEntry[], ...(gateway ? { gateway } : {}) };
}

/** The gateway's routing table: every service's prefixes, tagged with the service. */
export function routesOf(table: ServicesTable): Route[] {
  return table.services.flatMap(({ name, routes = [] }) =>
    routes.map(({ prefix, exact, websocket }) => ({
      prefix,
      service: name,
      ...(exact ? { exact } : {}),
      ...(websocket ? { websocket } : {}),
    })),
  );
}
