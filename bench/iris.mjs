// IRiS risk reports and their PDFs (issue 12):
//  - report computation: PUT /api/v1.0/iris/ (the risk data of a request's point computed and stored) for
//    fresh requests at points spread over the risk layers (Boland DEM, Cape Town, the rest of the country),
//    one at a time: p50/p95. Target p95 ≤ 300 ms.
//  - PDF latency with a warm worker: from the generate call to the ready poll answering done (polled every
//    50 ms here, faster than the screen's 3 s, to see the worker's own time): p50/p95. Target p95 ≤ 2 s.
//  - throughput: a batch of PDFs queued at once, rendered by 1 and then by 2 worker processes: PDFs/minute.
//  - the worker's memory over 200 jobs (the worker process plus its Chromium, proportional set size, sampled
//    every 200 ms): first and last 20 jobs' mean and the peak — flat, no leak (the browser is recycled every
//    IRIS_BROWSER_MAX_JOBS jobs).
// The database `portal_bench_iris` (migrated, seeded, risk layers from ../shared/data) is made once and reused.
// The service and workers run as `npm start` runs them (config/services.json), on free ports.
// Usage: node bench/iris.mjs [--reports 200] [--latency 30] [--batch 60] [--memory-jobs 200]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import {
  findFreePort,
  freePortsForAll,
  portalProcesses,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { databaseUrl } from '../scripts/lib/settings.mjs';
import { ROOT, sleep } from '../scripts/lib/system.mjs';
import { benchSessionCookie, buildProject } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';
import { numberOption, benchLog } from './lib/cli.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('iris');

export const IRIS_BENCH_DATABASE = 'portal_bench_iris';
export const IRIS_TARGETS = { computationP95Ms: 300, pdfP95Ms: 2000 };

/** Points the reports are made for: a stable spread over the Boland DEM, Cape Town and the country. */
function benchPoints(count) {
  const points = [];
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const areas = [
    { lat: [-34.0, -33.55], lng: [18.9, 19.6] }, // the elevation model (Stellenbosch–Paarl–Worcester)
    { lat: [-34.1, -33.8], lng: [18.4, 18.75] }, // Cape Town: precincts and fire stations
    { lat: [-34.0, -22.5], lng: [18.0, 32.0] }, // anywhere: nearest stations, often no elevation
  ];
  for (let i = 0; i < count; i++) {
    const area = areas[i % areas.length];
    points.push({
      lat: area.lat[0] + random() * (area.lat[1] - area.lat[0]),
      lng: area.lng[0] + random() * (area.lng[1] - area.lng[0]),
    });
  }
  return points;
}

/** Makes (once) the bench database: migrated, seeded, with the risk layers. Answers its URL. */
export async function ensureIrisBenchDatabase() {
  await buildProject('@portal/iris');
  await buildProject('@portal/geo');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const geo = require(join(ROOT, 'libs/geo/dist/index.js'));
  const url = db.withDatabase(databaseUrl(), IRIS_BENCH_DATABASE);
  const created = await db.ensureDatabase(url);
  await db.runMigrations(url);
  const ds = db.createDataSource(url);
  await ds.initialize();
  try {
    if (created) await db.seed(ds);
    if (await geo.riskLayersEmpty(ds)) {
      const dir = geo.findSharedDataDir();
      if (!dir) throw new Error('../shared/data is needed for the IRiS bench (the risk layers).');
      log(`importing the risk layers from ${dir}`);
      await geo.importRiskLayers(ds, dir);
    }
  } finally {
    await ds.destroy();
  }
  return url;
}

/** `count` new IRIS requests of the admin at the bench points; answers their ids. */
async function newRequests(url, points) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, address, point)
       SELECT 'IRIS', 'New', u.id, u.name, u.email, 'bench point ' || p.i,
              ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326)
         FROM identity.users u,
              unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS p(lat, lng, i)
        WHERE u.email = 'admin@portal.test'
        RETURNING id`,
      [points.map((p) => p.lat), points.map((p) => p.lng)],
    );
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

async function call(base, cookie, method, path, body) {
  const started = performance.now();
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  const ms = performance.now() - started;
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 200)}`);
  return { ms, json: text ? JSON.parse(text) : null };
}

/** Creates the reports and finishes their imagery step (no coverage), ready to generate. */
async function createReports(base, cookie, url, count) {
  const ids = await newRequests(url, benchPoints(count));
  const reports = [];
  const times = [];
  for (const requestId of ids) {
    const { ms, json } = await call(base, cookie, 'PUT', '/api/v1.0/iris/', { requestId });
    times.push(ms);
    await call(base, cookie, 'POST', `/api/v1.0/iris/${json.report._id}/imagery/highres/1`, {
      counts: { 1: 5 },
    });
    reports.push({ reportId: json.report._id, requestId });
  }
  return { reports, times };
}

async function untilDone(base, cookie, reportId, pollMs) {
  for (;;) {
    const { json } = await call(base, cookie, 'GET', `/api/v1.0/iris/${reportId}/pdf/ready/`);
    if (json.pdfReady) return;
    if (json.state === 'failed') throw new Error(`PDF of ${reportId} failed: ${json.error}`);
    await sleep(pollMs);
  }
}

const generate = (base, cookie, { reportId, requestId }) =>
  call(base, cookie, 'GET', `/api/v1.0/iris/${reportId}/${requestId}/pdf/generate/`);

/** Memory (MB) of a process and its descendants (its Chromium), as the worker itself measures it. */
const treeMb = (pid) => require(join(ROOT, 'libs/pdf-jobs/dist/index.js')).processTreeMemoryMb(pid);

export async function measureIris({ reports = 200, latency = 30, batch = 60, memoryJobs = 200 } = {}) {
  const url = await ensureIrisBenchDatabase();
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const ds = db.createDataSource(url);
  await ds.initialize();
  const admin = await ds.getRepository(db.UserEntity).findOneByOrFail({ email: 'admin@portal.test' });
  await ds.destroy();
  const cookie = benchSessionCookie({ sub: admin.id, email: admin.email, roles: ['authenticated', 'admin'] });
  const ports = await freePortsForAll();
  const prefix = `bench-iris-${Date.now()}`;
  const env = { LOG_LEVEL: 'warn', IRIS_QUEUE_PREFIX: prefix };
  const specs = portalProcesses({
    databaseUrl: url,
    ports,
    only: ['iris', 'iris-worker'],
    varDir: join(ROOT, 'var', 'bench'),
    env,
  });
  const running = specs.map((spec) =>
    startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `iris-${spec.name}.log`) }),
  );
  const extra = [];
  try {
    await Promise.all(running.map((process) => waitUntilReady(process)));
    const base = `http://127.0.0.1:${ports.iris}`;
    const worker = running.find((process) => process.spec.name === 'iris-worker');

    // 1. Report computation.
    await createReports(base, cookie, url, 5); // warm-up
    const computed = await createReports(base, cookie, url, reports);
    const computation = {
      reports,
      p50Ms: round(percentile(computed.times, 50)),
      p95Ms: round(percentile(computed.times, 95)),
      maxMs: round(Math.max(...computed.times)),
    };
    log(`report computation: ${JSON.stringify(computation)}`);

    // 2. PDF latency, warm worker (3 warm-ups), one at a time.
    const pool = computed.reports;
    let next = 0;
    const take = (n) => {
      if (next + n > pool.length)
        throw new Error(`--reports must be at least 3 + latency + 2 × batch (${3 + latency + 2 * batch}).`);
      return pool.slice(next, (next += n));
    };
    for (const report of take(3)) {
      await generate(base, cookie, report);
      await untilDone(base, cookie, report.reportId, 50);
    }
    const pdfTimes = [];
    for (const report of take(latency)) {
      const started = performance.now();
      await generate(base, cookie, report);
      await untilDone(base, cookie, report.reportId, 50);
      pdfTimes.push(performance.now() - started);
    }
    const pdfLatency = {
      samples: latency,
      p50Ms: round(percentile(pdfTimes, 50)),
      p95Ms: round(percentile(pdfTimes, 95)),
      maxMs: round(Math.max(...pdfTimes)),
    };
    log(`PDF generate → ready, warm worker: ${JSON.stringify(pdfLatency)}`);

    // 3. Throughput with 1, then 2 worker processes (each renders 2 pages at once).
    const throughput = async (label) => {
      const jobs = take(batch);
      const started = performance.now();
      for (const report of jobs) await generate(base, cookie, report);
      for (const report of jobs) await untilDone(base, cookie, report.reportId, 200);
      const minutes = (performance.now() - started) / 60_000;
      const result = {
        workers: label,
        pdfs: batch,
        seconds: round(minutes * 60),
        pdfsPerMinute: round(batch / minutes),
      };
      log(`throughput: ${JSON.stringify(result)}`);
      return result;
    };
    const one = await throughput(1);
    const second = { ...worker.spec, name: 'iris-worker-2', port: await findFreePort() };
    second.env = { ...second.env, PORT: String(second.port) };
    extra.push(startProcess(second, { logFile: join(ROOT, 'var', 'bench', 'iris-worker-2.log') }));
    await waitUntilReady(extra[0]);
    const two = await throughput(2);
    await stopProcesses(extra.splice(0));

    // 4. Memory of the one worker over `memoryJobs` jobs, queued in batches of 20.
    const more = await createReports(base, cookie, url, memoryJobs);
    const samples = [];
    const sampler = setInterval(
      () => samples.push({ at: performance.now(), mb: treeMb(worker.child.pid) }),
      200,
    );
    const marks = [];
    for (let i = 0; i < memoryJobs; i += 20) {
      const slice = more.reports.slice(i, i + 20);
      for (const report of slice) await generate(base, cookie, report);
      for (const report of slice) await untilDone(base, cookie, report.reportId, 100);
      marks.push(performance.now());
    }
    clearInterval(sampler);
    const between = (from, to) => samples.filter((s) => s.at >= from && s.at < to).map((s) => s.mb);
    const mean = (values) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
    const memory = {
      jobs: memoryJobs,
      firstTwentyMeanMb: round(mean(between(0, marks[0]))),
      lastTwentyMeanMb: round(mean(between(marks.at(-2) ?? 0, marks.at(-1)))),
      peakMb: round(Math.max(...samples.map((s) => s.mb))),
      samples: samples.length,
    };
    log(`worker memory over ${memoryJobs} jobs (worker + Chromium, PSS): ${JSON.stringify(memory)}`);
    return { computation, pdfLatency, throughput: [one, two], memory, targets: IRIS_TARGETS };
  } finally {
    await stopProcesses([...extra, ...running]);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureIris({
    reports: numberOption('reports', 200),
    latency: numberOption('latency', 30),
    batch: numberOption('batch', 60),
    memoryJobs: numberOption('memory-jobs', 200),
  });
  writeFileSync(join(ROOT, 'bench/results/iris.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
}
