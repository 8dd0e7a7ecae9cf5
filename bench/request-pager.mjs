// The request console over 1 000 000 requests (issue 11):
//  - GET /api/v1.0/request/pager/: p50/p95 of first, middle and last pages × page sizes 20 and 100 (and
//    1000 for the default view) × every sort of the grid (both ways) × the common filters (none, the
//    console's default SAVI + not can't-locate, one status, an address contains, a date range).
//    Target p95 ≤ 50 ms for each combination.
//  - the xlsx export of 100 000 rows through the worker: time and the worker's peak memory (RSS sampled
//    every 100 ms; it must stay flat: the rows are streamed in batches).
// The database `portal_bench_requests` is made once (migrated, seeded, 1 000 000 generated requests) and
// reused. The services run in their own processes as `npm start` runs them (config/services.json),
// timed one request at a time over a kept-alive connection, to the answer's last byte.
// Side by side (issue 23): each combination is also read the plain way right after it — count(*) and
// OFFSET/LIMIT on the same filters and sort, straight on the database (bench/request-pager-baseline.mjs),
// --baseline-samples times after one warm-up (3: a deep OFFSET takes seconds, and then has no warm-up) — p50/p95 and the ratio of
// the p95s (baseline ÷ portal); --explain prints the plan of the baseline's slowest case.
// Usage: node bench/request-pager.mjs [--samples 20] [--requests 1000000] [--export-rows 100000]
//        [--skip-export] [--force] [--skip-baseline] [--baseline-samples 3] [--baseline-subset] [--explain]
//        [--sorts 'timeInQueue desc;created asc'] [--filters 'none;status QC check'] (only those)
//        [--out request-pager-1000-rows] (bench/results/<out>.json: a part measured again keeps the full
//        grid's file, results/request-pager[-5m].json, as it is)
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
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
import { ROOT, sleep } from '../scripts/lib/system.mjs';
import { benchSessionCookie, buildProject } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';
import { option, flag, benchLog } from './lib/cli.mjs';
import { explainBaselineCombination, measureBaselineCombination } from './request-pager-baseline.mjs';
import { ensureRequestsBenchDatabase, requestsBenchDatabase } from './lib/requests-dataset.mjs';

// The generator moved to bench/lib/requests-dataset.mjs (one database per scale); bench/load.mjs imports it from here.
export { ensureRequestsBenchDatabase, requestsBenchDatabase };
export const REQUESTS_BENCH_DATABASE = requestsBenchDatabase(1_000_000);

const require = createRequire(import.meta.url);

export const PAGER_TARGET_P95_MS = 50;
const log = benchLog('request-pager');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, timed to the answer's last byte. */
function timedGet(url, cookie) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { agent, headers: { cookie } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          ms: performance.now() - started,
          status: response.statusCode,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.on('error', reject);
  });
}

const SORTS = [
  { label: 'default (priority desc, created desc)', sort: null },
  { label: 'created asc', sort: { created: 1 } },
  { label: 'created desc', sort: { created: -1 } },
  { label: 'status asc', sort: { status: 1 } },
  { label: 'gripReference desc', sort: { gripReference: -1 } },
  { label: 'address asc', sort: { address: 1 } },
  { label: 'client asc', sort: { client: 1 } },
  { label: 'timeInQueue desc', sort: { timeInQueue: -1 } },
];
const FILTERS = [
  { label: 'none', filters: {} },
  { label: 'default (SAVI, not can\u2019t locate)', filters: { request_type: 'SAVI', cantlocate: 'No' } },
  { label: 'status QC check', filters: { status: 'QC check' } },
  { label: 'address contains "kloof"', filters: { address: 'kloof' } },
  { label: 'created in one month', filters: { start_date: '2026-03-01', end_date: '2026-03-31' } },
];

/**
 * --baseline-subset: the plain approach only for 20-row pages of these sorts (every filter, first, middle
 * and last page): at 5 000 000 requests a deep OFFSET takes half a minute, and all 243 took hours.
 */
const BASELINE_SUBSET_SORTS = ['default (priority desc, created desc)', 'created desc'];

function pagerUrl(base, { filters, sort, page, limit }) {
  const query = new URLSearchParams({ page: String(page), limit: String(limit), ...filters });
  if (sort) query.set('sort_object', JSON.stringify(sort));
  return `${base}/api/v1.0/request/pager/?${query}`;
}

/**
 * The portal's own plans for one combination (issue 23: the plan of the slowest case at each scale): the
 * service's requestPage (its build) in this process over its own pool, called once to read its kept list
 * (waiting for it, as the service's first request does), then again with every statement it sends run
 * under EXPLAIN (ANALYZE, BUFFERS) as well — the steady state the bench's samples measure.
 */
export async function explainPortalCombination(url, { filters, sort, limit, page }) {
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const dist = (file) => require(join(ROOT, 'services/requests/dist/queue', file));
  const { requestPage, settleKeptLists } = dist('pager.js');
  const { parseRequestFilters } = dist('filters.js');
  const { parseSort, STAFF_DEFAULT_SORT } = dist('sort.js');
  const ds = db.createDataSource(url);
  await ds.initialize();
  const plans = [];
  let explaining = false;
  const traced = new Proxy(ds, {
    get(target, property) {
      if (property !== 'query') return Reflect.get(target, property);
      return async (sql, params) => {
        if (explaining) {
          const plan = await target.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
          plans.push(plan.map((row) => row['QUERY PLAN']).join('\n'));
        }
        return target.query(sql, params);
      };
    },
  });
  try {
    const input = {
      filters: parseRequestFilters(filters),
      ownerId: null,
      sort: parseSort(sort ? JSON.stringify(sort) : undefined, STAFF_DEFAULT_SORT),
      page,
      limit,
    };
    await requestPage(traced, input, { wait: true });
    explaining = true;
    await requestPage(traced, input);
    explaining = false;
    await settleKeptLists(traced);
    return plans.join('\n---\n');
  } finally {
    await ds.destroy();
  }
}

export async function measureRequestPager({
  samples = 20,
  count = 1_000_000,
  force = false,
  withBaseline = true,
  baselineSamples = 3,
  explain = false,
  baselineSubset = false,
  /** Only these sorts (their labels), e.g. to measure one again. */
  sorts = null,
  /** Only these filters (their labels). */
  filters = null,
} = {}) {
  const url = await ensureRequestsBenchDatabase({ count, force });
  await buildProject('@portal/requests');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const ds = db.createDataSource(url);
  await ds.initialize();
  const admin = await ds.getRepository(db.UserEntity).findOneByOrFail({ email: 'admin@portal.test' });
  await ds.destroy();
  const adminCookie = benchSessionCookie({
    sub: admin.id,
    email: admin.email,
    roles: ['authenticated', 'admin'],
  });

  const ports = await freePortsForAll();
  const [spec] = portalProcesses({
    databaseUrl: url,
    ports,
    only: ['requests'],
    varDir: join(ROOT, 'var', 'bench'),
    env: { LOG_LEVEL: 'warn' },
  });
  const service = startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `request-pager-${count}.log`) });
  const combinations = [];
  let pg = null;
  if (withBaseline) {
    const { Client } = require('pg');
    pg = new Client({ connectionString: url });
    await pg.connect();
  }
  let sideBySide = null;
  let slowestPortal = null;
  const failures = [];
  try {
    await waitUntilReady(service);
    const base = `http://127.0.0.1:${spec.port}`;
    for (const filter of FILTERS) {
      for (const { label: sortLabel, sort } of SORTS.filter((s) => !sorts || sorts.includes(s.label))) {
        if (filters && !filters.includes(filter.label)) continue;
        const sizes = sort === null && filter.label.startsWith('default') ? [20, 100, 1000] : [20, 100];
        for (const limit of sizes) {
          const first = await timedGet(
            pagerUrl(base, { filters: filter.filters, sort, page: 1, limit }),
            adminCookie,
          );
          if (first.status !== 200) {
            // Measured and reported, not fatal: the other combinations still run (e.g. a count past the
            // statement timeout at 5 M answers 500).
            failures.push({
              filter: filter.label,
              sort: sortLabel,
              limit,
              page: 'first',
              status: first.status,
            });
            log(
              `${filter.label} | ${sortLabel} | ${limit}: the pager answered ${first.status}: ${first.body.slice(0, 200)}`,
            );
            continue;
          }
          const { total } = JSON.parse(first.body);
          const lastPage = Math.max(1, Math.ceil(total / limit));
          for (const [where, page] of [
            ['first', 1],
            ['middle', Math.max(1, Math.ceil(lastPage / 2))],
            ['last', lastPage],
          ]) {
            const pageUrl = pagerUrl(base, { filters: filter.filters, sort, page, limit });
            for (let i = 0; i < 2; i++) await timedGet(pageUrl, adminCookie);
            const times = [];
            let failed = 0;
            for (let i = 0; i < samples; i++) {
              const answer = await timedGet(pageUrl, adminCookie);
              times.push(answer.ms);
              if (answer.status !== 200) failed++;
            }
            if (failed > 0) {
              failures.push({ filter: filter.label, sort: sortLabel, limit, page: where, failed });
              log(
                `${filter.label} | ${sortLabel} | ${limit} | ${where}: ${failed} of ${samples} answers failed`,
              );
            }
            const row = {
              combination: { filters: filter.filters, sort, limit, page },
              filter: filter.label,
              sort: sortLabel,
              limit,
              page: where,
              total,
              p50: round(percentile(times, 50)),
              p95: round(percentile(times, 95)),
              // The machine is shared: the 1-minute load average when the samples were taken, beside them.
              load: round(loadavg()[0]),
            };
            // The plain approach for the same combination, right after it (issue 23, side by side).
            if (pg && (!baselineSubset || (limit === 20 && BASELINE_SUBSET_SORTS.includes(sortLabel)))) {
              const plain = await measureBaselineCombination(pg, row.combination, baselineSamples);
              if (plain.total !== total)
                throw new Error(`baseline counted ${plain.total}, the pager ${total} (${row.filter})`);
              row.baseline = { p50: plain.p50, p95: plain.p95 };
              row.ratioP95 = round(plain.p95 / row.p95, 2);
            }
            combinations.push(row);
            log(
              `${row.filter} | ${row.sort} | ${limit} | ${where}: p50 ${row.p50} ms, p95 ${row.p95} ms, load ${row.load}` +
                (row.baseline
                  ? `; OFFSET/LIMIT + count(*) p50 ${row.baseline.p50} ms, p95 ${row.baseline.p95} ms (× ${row.ratioP95})`
                  : ''),
            );
          }
        }
      }
    }
    if (pg) {
      const withPlain = combinations.filter((c) => c.baseline);
      const ratios = withPlain.map((c) => c.ratioP95);
      const slowest = withPlain.reduce((a, b) => (b.baseline.p95 > a.baseline.p95 ? b : a));
      sideBySide = {
        approach:
          'SELECT count(*) … WHERE <filters>; SELECT <row columns> … WHERE <filters> ORDER BY <sort>, id LIMIT n OFFSET m, straight on one connection',
        baselineSamples,
        combinations: withPlain.length,
        portalP95Worst: Math.max(...withPlain.map((c) => c.p95)),
        portalP95Median: round(
          percentile(
            withPlain.map((c) => c.p95),
            50,
          ),
        ),
        baselineP95Worst: slowest.baseline.p95,
        baselineP95Median: round(
          percentile(
            withPlain.map((c) => c.baseline.p95),
            50,
          ),
        ),
        ratioP95: {
          min: Math.min(...ratios),
          median: round(percentile(ratios, 50)),
          max: Math.max(...ratios),
        },
        baselineOverTarget: withPlain.filter((c) => c.baseline.p95 > PAGER_TARGET_P95_MS).length,
        ratioIs: 'baseline ÷ portal',
        slowestBaseline: {
          filter: slowest.filter,
          sort: slowest.sort,
          limit: slowest.limit,
          page: slowest.page,
          p95: slowest.baseline.p95,
          portalP95: slowest.p95,
        },
      };
      if (explain) {
        sideBySide.slowestBaseline.plan = await explainBaselineCombination(pg, slowest.combination);
        log(
          `baseline's slowest case (${slowest.filter} | ${slowest.sort} | ${slowest.limit} | ${slowest.page}): EXPLAIN (ANALYZE, BUFFERS)\n` +
            `${sideBySide.slowestBaseline.plan.count}\n${sideBySide.slowestBaseline.plan.page}`,
        );
      }
    }
    // The portal's slowest case, its plans printed at every scale (a plan that changes with scale shows).
    const slowest = combinations.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    slowestPortal = {
      filter: slowest.filter,
      sort: slowest.sort,
      limit: slowest.limit,
      page: slowest.page,
      p50: slowest.p50,
      p95: slowest.p95,
      plan: await explainPortalCombination(url, slowest.combination),
    };
    log(
      `the pager's slowest case (${slowest.filter} | ${slowest.sort} | ${slowest.limit} | ${slowest.page}, p95 ${slowest.p95} ms): EXPLAIN (ANALYZE, BUFFERS) of its statements\n${slowestPortal.plan}`,
    );
  } finally {
    await pg?.end();
    await stopProcesses([service]);
  }
  for (const row of combinations) delete row.combination;
  const all = combinations.map((c) => c.p95);
  return {
    requests: count,
    samples,
    combinations: combinations.length,
    p95Worst: Math.max(...all),
    p95Median: round(percentile(all, 50)),
    overTarget: combinations.filter((c) => c.p95 > PAGER_TARGET_P95_MS),
    failures,
    slowest: slowestPortal,
    target: `p95 ≤ ${PAGER_TARGET_P95_MS} ms each`,
    sideBySide,
    rows: combinations,
  };
}

/** The resident memory of a process now (Linux), in MB. */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

/**
 * The xlsx export of `rows` requests through the service and the worker, as the console asks for it
 * (POST export_to_excel with filters; the job polled until done): wall time, and the worker's resident
 * memory sampled every 100 ms before and during the job. Flat memory is the point: the rows are streamed.
 */
export async function measureXlsxExport({ rows = 100_000, count = 1_000_000 } = {}) {
  const url = await ensureRequestsBenchDatabase({ count });
  await buildProject('@portal/requests');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const ds = db.createDataSource(url);
  await ds.initialize();
  const admin = await ds.getRepository(db.UserEntity).findOneByOrFail({ email: 'admin@portal.test' });
  // The oldest `rows` requests: a created_at range that holds exactly that many.
  const [{ until }] = await ds.query(
    'SELECT created_at AS until FROM requests.requests ORDER BY created_at OFFSET $1 LIMIT 1',
    [rows],
  );
  await ds.destroy();
  const cookie = benchSessionCookie({ sub: admin.id, email: admin.email, roles: ['authenticated', 'admin'] });
  const ports = await freePortsForAll();
  const specs = portalProcesses({
    databaseUrl: url,
    ports,
    only: ['requests', 'requests-worker'],
    varDir: join(ROOT, 'var', 'bench'),
    env: { LOG_LEVEL: 'warn', REQUEST_QUEUE_PREFIX: `bench-xlsx-${count}`, REQUEST_JOB_CONCURRENCY: '1' },
  });
  const running = specs.map((spec) =>
    startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `xlsx-${count}-${spec.name}.log`) }),
  );
  try {
    await Promise.all(running.map((process) => waitUntilReady(process)));
    const worker = running.find((process) => process.spec.name === 'requests-worker');
    const base = `http://127.0.0.1:${ports.requests}`;
    const idle = rssMb(worker.child.pid);
    const samples = [];
    const sampler = setInterval(() => samples.push(rssMb(worker.child.pid)), 100);
    const started = performance.now();
    const answer = await fetch(`${base}/api/v1.0/request/savi/export_to_excel`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { end_date: new Date(new Date(until).getTime() - 1).toISOString() } }),
    });
    if (answer.status !== 202)
      throw new Error(`export_to_excel answered ${answer.status}: ${await answer.text()}`);
    const { id } = await answer.json();
    let job;
    for (;;) {
      job = await (await fetch(`${base}/api/v1.0/request/jobs/${id}`, { headers: { cookie } })).json();
      if (job.state === 'done' || job.state === 'failed') break;
      await sleep(200);
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (job.state !== 'done') throw new Error(`the export failed: ${job.error}`);
    const file = await fetch(`${base}${job.downloadUrl}`, { headers: { cookie } });
    const bytes = (await file.arrayBuffer()).byteLength;
    const result = {
      rows: job.rows,
      seconds: round(seconds),
      rowsPerSecond: Math.round(job.rows / seconds),
      fileMb: round(bytes / 1024 / 1024),
      workerRssMb: {
        idle: round(idle),
        peak: round(Math.max(...samples)),
        p50: round(percentile(samples, 50)),
      },
    };
    log(`xlsx export: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await stopProcesses(running);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureRequestPager({
    samples: Number(option('samples', 20)),
    count: Number(option('requests', 1_000_000)),
    force: flag('force'),
    withBaseline: !flag('skip-baseline'),
    baselineSamples: Number(option('baseline-samples', 3)),
    explain: flag('explain'),
    baselineSubset: flag('baseline-subset'),
    sorts: option('sorts', null)?.split(';') ?? null,
    filters: option('filters', null)?.split(';') ?? null,
  });
  if (!flag('skip-export'))
    result.xlsxExport = await measureXlsxExport({
      rows: Number(option('export-rows', 100_000)),
      count: result.requests,
    });
  const scale =
    result.requests === 1_000_000 ? '' : `-${requestsBenchDatabase(result.requests).split('_').pop()}`;
  writeFileSync(
    join(ROOT, `bench/results/${option('out', `request-pager${scale}`)}.json`),
    JSON.stringify(result, null, 2) + '\n',
  );
  const { rows, ...summary } = result;
  console.log(JSON.stringify({ ...summary, rows: rows.length }, null, 2));
  await sleep(0);
}
