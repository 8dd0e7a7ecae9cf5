// The portal under load through the gateway (issue 15): 50 concurrent connections (autocannon), each call
// alone for --seconds after a 3 s warm-up, with an admin's session from a real login:
//  - GET /api/v1.0/users/me (identity);
//  - POST /api/avs/geocode (locator), the relevance queries of bench/relevance-queries.json in turn, as the
//    locator's address search sends them (' South Africa' appended);
//  - GET /api/v1.0/tiles/parcels/14/{x}/{y}.mvt (locator), the 100 densest z14 parcel tiles in turn;
//  - GET /api/v1.0/request/pager/ (requests), first and deeper pages of the console's default view and of
//    other sorts and filters in turn.
// Reports req/s, p50/p99 latency, non-2xx answers and errors (target: 0 of either).
// It starts its own portal on free ports: identity, locator, requests and the gateway (bench/lib's
// databases: the locator on portal_bench_geo, 1 000 000 addresses; the others on
// portal_bench_requests, 1 000 000 requests and the seeded users; both made once and reused).
// Usage: node bench/load.mjs [--seconds 12] [--connections 50]   (or: node bench/run.mjs --only load)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  freePortsForAll,
  freePortsForInstances,
  portalProcesses,
  readServicesTable,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { ROOT } from '../scripts/lib/system.mjs';
import { ensureGeoBenchDatabase } from './lib/geo-dataset.mjs';
import { BENCH_PROCESS_ENV, buildProject } from './lib/services.mjs';
import { ensureRequestsBenchDatabase } from './request-pager.mjs';
import { round } from './stats.mjs';
import { option, benchLog } from './lib/cli.mjs';

const log = benchLog('load');

/**
 * The service that reads the geodata (portal_bench_geo); the others use portal_bench_requests, which holds
 * the seeded users (the address editor reads its caller's account: on the geodata database, which has no
 * users, it answers 401).
 */
const GEO_SERVICES = new Set(['locator']);

/**
 * Starts a portal for the benchmarks: `services` (names of config/services.json, each with `instances`
 * of it when asked) and the gateway, on free ports, over the bench databases. Answers the running
 * processes, their specs by name, the gateway's URL and stop().
 * @param {{ services: string[], instances?: Record<string, number>, env?: Record<string, string>, logName?: string }} options
 */
export async function startBenchPortal({ services, instances = {}, env = {}, logName = 'load' }) {
  const requestsUrl = await ensureRequestsBenchDatabase({ count: 1_000_000 });
  const geoUrl = await ensureGeoBenchDatabase({ scale: 1_000_000 });
  await buildProject('@portal/gateway');
  for (const name of services) await buildProject(`@portal/${name}`);
  const ports = await freePortsForAll();
  Object.assign(ports, await freePortsForInstances(instances, ports));
  const varDir = join(ROOT, 'var', 'bench');
  const specs = portalProcesses({
    ports,
    instances,
    databaseUrl: requestsUrl,
    varDir,
    only: [...services, 'gateway'],
    env: { ...BENCH_PROCESS_ENV, ...env },
  }).map((spec) =>
    GEO_SERVICES.has(spec.name.split('#')[0])
      ? { ...spec, env: { ...spec.env, DATABASE_URL: geoUrl } }
      : spec,
  );
  const logFile = (spec) => join(varDir, `${logName}-${spec.name.replace('#', '-')}.log`);
  const running = specs.map((spec) => startProcess(spec, { logFile: logFile(spec) }));
  try {
    await Promise.all(running.map((process) => waitUntilReady(process)));
  } catch (err) {
    await stopProcesses(running);
    throw err;
  }
  const gatewaySpec = specs.find((spec) => spec.name === 'gateway');
  return {
    running,
    specs: Object.fromEntries(specs.map((spec) => [spec.name, spec])),
    logFile,
    geoUrl,
    requestsUrl,
    gateway: `http://127.0.0.1:${gatewaySpec.port}`,
    stop: () => stopProcesses(running),
  };
}

/** The routed services of config/services.json (the ones behind the gateway). */
export const routedServices = () =>
  readServicesTable()
    .services.filter((service) => service.routes?.length)
    .map((service) => service.name);

/** An admin's session through the gateway (a real login): the Cookie header. */
export async function adminCookie(gateway) {
  const res = await fetch(`${gateway}/api/v1.0/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@portal.test', password: 'Portal-demo-2026' }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The `count` z14 tiles holding the most parcels ({ x, y }), for tile URLs with data. */
export async function denseTiles(geoUrl, count = 100) {
  const client = new pg.Client({ connectionString: geoUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `WITH c AS (SELECT ST_X(ST_PointOnSurface(geom)) AS lng, ST_Y(ST_PointOnSurface(geom)) AS lat FROM geo.parcels)
       SELECT floor((lng + 180) / 360 * 16384)::int AS x,
              floor((1 - ln(tan(radians(lat)) + 1 / cos(radians(lat))) / pi()) / 2 * 16384)::int AS y,
              count(*)::int AS parcels
       FROM c GROUP BY 1, 2 ORDER BY parcels DESC, x, y LIMIT $1`,
      [count],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** The geocode queries the locator's search sends (the relevance set), in a fixed order. */
export async function geocodeQueries() {
  const { readFile } = await import('node:fs/promises');
  const queries = JSON.parse(await readFile(new URL('./relevance-queries.json', import.meta.url), 'utf8'));
  return queries.map((q) => `${q.query} South Africa`);
}

/** Pager URLs of the console: default view and other sorts and filters, first and deeper pages. */
export function pagerPaths() {
  const views = [
    {},
    { request_type: 'SAVI', cantlocate: 'No' },
    { status: 'QC check' },
    { sort_object: JSON.stringify({ created: 1 }) },
    { sort_object: JSON.stringify({ status: 1 }) },
    { address: 'kloof' },
  ];
  const paths = [];
  for (const view of views)
    for (const page of [1, 2, 50])
      for (const limit of [20, 100])
        paths.push(
          `/api/v1.0/request/pager/?${new URLSearchParams({ page: String(page), limit: String(limit), ...view })}`,
        );
  return paths;
}

/** Cycles through a list: each call the next one. */
const turns = (items) => {
  let i = 0;
  return () => items[i++ % items.length];
};

/**
 * One autocannon run: `connections` connections for `seconds`. `request(i)` is the i-th call's
 * { method, path, body? }. Answers req/s, p50/p99 and the failures.
 */
export function cannon(base, { cookie, connections, seconds, next }) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        headers: { cookie },
        requests: [
          {
            setupRequest: (request) => {
              const { method, path, body } = next();
              return {
                ...request,
                method,
                path,
                ...(body === undefined
                  ? {}
                  : {
                      body: JSON.stringify(body),
                      headers: { ...request.headers, 'content-type': 'application/json' },
                    }),
              };
            },
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          reqPerSec: round(result.requests.average),
          requests: result.requests.total,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes: Object.fromEntries(
            Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
          ),
        });
      },
    );
    autocannon.track(instance, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
  });
}

export async function measureLoad({ seconds = 12, connections = 50, warmup = 3 } = {}) {
  const portal = await startBenchPortal({ services: ['identity', 'locator', 'requests'] });
  try {
    const cookie = await adminCookie(portal.gateway);
    const tiles = await denseTiles(portal.geoUrl, 100);
    const queries = await geocodeQueries();
    const calls = {
      'GET users/me': turns([{ method: 'GET', path: '/api/v1.0/users/me' }]),
      'POST geocode': turns(
        queries.map((address) => ({ method: 'POST', path: '/api/avs/geocode', body: { address } })),
      ),
      'GET parcels tile z14': turns(
        tiles.map(({ x, y }) => ({ method: 'GET', path: `/api/v1.0/tiles/parcels/14/${x}/${y}.mvt` })),
      ),
      'GET request pager': turns(pagerPaths().map((path) => ({ method: 'GET', path }))),
    };
    const results = {};
    for (const [name, next] of Object.entries(calls)) {
      await cannon(portal.gateway, { cookie, connections, seconds: warmup, next });
      const result = await cannon(portal.gateway, { cookie, connections, seconds, next });
      log(
        `${name}: ${result.reqPerSec} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
          `non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
      );
      results[name] = result;
    }
    const failures = Object.values(results).reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
    return {
      connections,
      secondsPerCall: seconds,
      warmupSeconds: warmup,
      through: 'gateway (one instance of identity, locator and requests)',
      datasets: {
        geo: '1 000 000 addresses (portal_bench_geo)',
        requests: '1 000 000 requests (portal_bench_requests)',
      },
      calls: results,
      failures,
      target: '0 non-2xx, 0 errors',
      pass: failures === 0,
    };
  } finally {
    await portal.stop();
  }
}

/** Writes the figures to bench/results/load.json and returns them. */
export function writeLoadResults(result) {
  writeFileSync(new URL('./results/load.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = writeLoadResults(
    await measureLoad({
      seconds: Number(option('seconds', '12')),
      connections: Number(option('connections', '50')),
    }),
  );
  console.log(JSON.stringify(result, null, 2));
  if (!result.pass) process.exitCode = 1;
}
