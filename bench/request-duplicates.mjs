// The duplicate check (spec 02 §9, spec 03 "Duplicate check"; issue 23) over the generated requests:
// GET /api/v1.0/request/near/:id/100000 (the console's radius, DUPLICATE_RADIUS_M; at most 200 neighbours)
// as an admin, at requests in dense places (within a tenth of a degree of one of the generator's ten
// cities: over a million requests within 100 km of Johannesburg at 5 M) and in sparse ones (two degrees
// or more from every city: the uniform quarter of the points only). The requests service in its own
// process as `npm start` runs it, one request at a time over a kept-alive connection, timed to the
// answer's last byte. Every place is asked twice: the first call reads pages no earlier call read (the
// places are far apart), the second is the same place again. p50/p95 per kind of place; then the
// EXPLAIN (ANALYZE, BUFFERS) of the slowest place's statement (the service's nearRequests, its build, run in
// this process), whatever the scale — the plan is what changes with it. Target p95 ≤ 50 ms.
//
// Usage: node bench/request-duplicates.mjs [--requests 5000000] [--points 300]
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  freePortsForAll,
  portalProcesses,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { ROOT } from '../scripts/lib/system.mjs';
import { benchLog, numberOption } from './lib/cli.mjs';
import { CITIES, ensureRequestsBenchDatabase, requestsBenchDatabase } from './lib/requests-dataset.mjs';
import { benchSessionCookie, buildProject } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('request-duplicates');
export const DUPLICATE_TARGET_P95_MS = 50;
const RADIUS_M = 100_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function timedGet(url, cookie) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent, headers: { cookie } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            ms: performance.now() - started,
            status: response.statusCode,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      })
      .on('error', reject);
  });
}

/**
 * `perKind` requests of each kind of place, spread over the country (a stable sample: the same places on
 * every run of a database). Dense: within 0.1° of a city centre, the cities in turn; sparse: 2° or more
 * from every centre.
 */
async function pickPlaces(pg, perKind) {
  const centres = CITIES.map(([lng, lat]) => `ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326)`);
  const dense = [];
  for (let i = 0; dense.length < perKind; i = (i + 1) % centres.length) {
    const taken = dense.filter((place) => place.city === i).length;
    const { rows } = await pg.query(
      `SELECT r.id, r.lat, r.lng FROM requests.requests r
        WHERE r.point && ST_Expand(${centres[i]}, 0.1) ORDER BY r.id OFFSET $1 LIMIT 1`,
      [taken * 97],
    );
    dense.push({ ...rows[0], city: i, kind: 'dense' });
  }
  const { rows: sparse } = await pg.query(
    `SELECT r.id, r.lat, r.lng, 'sparse' AS kind FROM requests.requests r TABLESAMPLE SYSTEM (1) REPEATABLE (7)
      WHERE r.point IS NOT NULL AND ${centres.map((centre) => `NOT ST_DWithin(r.point, ${centre}, 2)`).join(' AND ')}
      ORDER BY r.id LIMIT $1`,
    [perKind],
  );
  // Interleaved, so that neither kind runs on a cache the other warmed.
  return dense.flatMap((place, i) => (sparse[i] ? [place, sparse[i]] : [place]));
}

/** EXPLAIN (ANALYZE, BUFFERS) of what nearRequests sends for a place (its build, in this process). */
async function explainNear(url, id) {
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const { nearRequests } = require(join(ROOT, 'services/requests/dist/queue/near.js'));
  const { DUPLICATE_MAX_NEIGHBOURS } = require(join(ROOT, 'libs/contracts/dist/index.js'));
  const ds = db.createDataSource(url);
  await ds.initialize();
  const plans = [];
  const traced = new Proxy(ds, {
    get(target, property) {
      if (property !== 'query') return Reflect.get(target, property);
      return async (sql, params) => {
        const plan = await target.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
        plans.push(plan.map((row) => row['QUERY PLAN']).join('\n'));
        return target.query(sql, params);
      };
    },
  });
  try {
    await nearRequests(traced, { id, radius: RADIUS_M, ownerId: null, limit: DUPLICATE_MAX_NEIGHBOURS });
    return plans.join('\n---\n');
  } finally {
    await ds.destroy();
  }
}

export async function measureDuplicateCheck({ count = 5_000_000, points = 300 } = {}) {
  const url = await ensureRequestsBenchDatabase({ count });
  await buildProject('@portal/requests');
  const { Client } = require('pg');
  const pg = new Client({ connectionString: url });
  await pg.connect();
  const [admin] = (await pg.query(`SELECT id, email FROM identity.users WHERE email = 'admin@portal.test'`))
    .rows;
  const places = await pickPlaces(pg, Math.ceil(points / 2));
  await pg.end();
  const cookie = benchSessionCookie({ sub: admin.id, email: admin.email, roles: ['authenticated', 'admin'] });
  const ports = await freePortsForAll();
  const [spec] = portalProcesses({
    databaseUrl: url,
    ports,
    only: ['requests'],
    varDir: join(ROOT, 'var', 'bench'),
    env: { LOG_LEVEL: 'warn' },
  });
  const service = startProcess(spec, {
    logFile: join(ROOT, 'var', 'bench', `request-duplicates-${count}.log`),
  });
  const calls = [];
  try {
    await waitUntilReady(service);
    const base = `http://127.0.0.1:${spec.port}`;
    const nearUrl = (id) => `${base}/api/v1.0/request/near/${id}/${RADIUS_M}`;
    // Warm-ups on places outside the sample: the service's first calls (connections, JIT of the code).
    for (const place of places.slice(-3)) await timedGet(nearUrl(place.id), cookie);
    for (const place of places) {
      for (const call of ['first', 'again']) {
        const answer = await timedGet(nearUrl(place.id), cookie);
        if (answer.status !== 200)
          throw new Error(`near answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        const body = JSON.parse(answer.body);
        calls.push({
          id: place.id,
          kind: place.kind,
          call,
          ms: answer.ms,
          neighbours: body.requests.length,
          truncated: body.truncated,
        });
      }
    }
  } finally {
    await stopProcesses([service]);
  }
  const summary = (rows) => ({
    calls: rows.length,
    p50: round(
      percentile(
        rows.map((row) => row.ms),
        50,
      ),
    ),
    p95: round(
      percentile(
        rows.map((row) => row.ms),
        95,
      ),
    ),
    max: round(Math.max(...rows.map((row) => row.ms))),
    neighboursMedian: percentile(
      rows.map((row) => row.neighbours),
      50,
    ),
    truncated: rows.filter((row) => row.truncated).length,
  });
  const byKind = {};
  for (const kind of ['dense', 'sparse'])
    for (const call of ['first', 'again']) {
      const rows = calls.filter((row) => row.kind === kind && row.call === call);
      if (rows.length) byKind[`${kind}, ${call}`] = summary(rows);
    }
  const slowest = calls.reduce((a, b) => (b.ms > a.ms ? b : a));
  const plan = await explainNear(url, slowest.id);
  log(
    `slowest place (${slowest.kind}, ${slowest.call} call, ${round(slowest.ms)} ms, ${slowest.neighbours} neighbours): EXPLAIN (ANALYZE, BUFFERS) now\n${plan}`,
  );
  const all = summary(calls);
  return {
    requests: count,
    radiusM: RADIUS_M,
    places: places.length,
    all,
    byKind,
    overTarget: calls.filter((row) => row.ms > DUPLICATE_TARGET_P95_MS).length,
    target: `p95 ≤ ${DUPLICATE_TARGET_P95_MS} ms`,
    slowest: { ...slowest, ms: round(slowest.ms), plan },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureDuplicateCheck({
    count: numberOption('requests', 5_000_000),
    points: numberOption('points', 300),
  });
  const scale =
    result.requests === 1_000_000 ? '' : `-${requestsBenchDatabase(result.requests).split('_').pop()}`;
  writeFileSync(
    join(ROOT, `bench/results/request-duplicates${scale}.json`),
    JSON.stringify(result, null, 2) + '\n',
  );
  const { slowest, ...rest } = result;
  console.log(JSON.stringify({ ...rest, slowest: { ...slowest, plan: undefined } }, null, 2));
  process.exit(0);
}
