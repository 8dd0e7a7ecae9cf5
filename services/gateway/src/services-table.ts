import { readFileSync } from 'node:fs';
import type { Route } from './route-table';

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
  return { services: services as ServiceEntry[] };
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
