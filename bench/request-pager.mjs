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
//        [--skip-export] [--force] [--skip-baseline] [--baseline-samples 3] [--explain]
import { readFileSync, writeFileSync } from 'node:fs';
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
import { databaseUrl } from '../scripts/lib/settings.mjs';
import { ROOT, sleep } from '../scripts/lib/system.mjs';
import { benchSessionCookie, buildProject } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';
import { option, flag, benchLog } from './lib/cli.mjs';
import { explainBaselineCombination, measureBaselineCombination } from './request-pager-baseline.mjs';

const require = createRequire(import.meta.url);

export const REQUESTS_BENCH_DATABASE = 'portal_bench_requests';
export const PAGER_TARGET_P95_MS = 50;
const log = benchLog('request-pager');

/**
 * Generates `count` requests in one statement per 100 000 (generate_series): types 70 % SAVI, 20 % AVS,
 * 10 % IRIS; 5 % can't locate; statuses spread over the workflow; 4 % priority; created over two years;
 * 2 000 users in 150 groups; points across the country; addresses from street and town lists.
 */
async function generateRequests(client, count) {
  const batch = 100_000;
  for (let start = 0; start < count; start += batch) {
    const n = Math.min(batch, count - start);
    await client.query(
      `INSERT INTO requests.requests
         (request_type, request_sub_type, status, user_id, user_name, user_email, group_id, group_name, group_code,
          address, lat, lng, point, cant_locate, priority, reference_string, created_at, updated_at,
          status_changed_at, report_invoice_number, number_of_buildings, unit_price, property_type, rve_total)
       SELECT t.type,
              CASE WHEN t.cant THEN 'Can''t Locate' WHEN t.type = 'SAVI' THEN 'Replacement Value Estimate' END,
              (ARRAY['New','Ready for QS','In progress','Pending','Cancelled_rejected','QC check','Query',
                     'Dispatch','Delivered','Finalised'])[1 + (pg_temp.hashint(i * 7) % 10)],
              md5('user' || (i % 2000))::uuid, 'User ' || (i % 2000), 'user' || (i % 2000) || '@bench.test',
              md5('group' || (i % 150))::uuid, 'Insurer ' || (i % 150), 'INS' || (i % 150),
              (1 + i % 250) || ' ' || (ARRAY['Main','Church','Kloof','Long','Voortrekker','Jan Smuts','Oak',
                     'Nelson Mandela','Beach','Station'])[1 + i % 10] || ' Street, '
                || (ARRAY['Stellenbosch','Pretoria','Durban','Bloemfontein','Polokwane','Gqeberha',
                     'Kimberley','Mbombela','Cape Town','Johannesburg'])[1 + (i / 10) % 10],
              lat, lng, ST_SetSRID(ST_MakePoint(lng, lat), 4326), t.cant, pg_temp.hashint(i * 13) % 25 = 0,
              'KM' || lpad((i % 1000000)::text, 6, '0'),
              now() - (pg_temp.hashint(i * 3) % (730 * 24 * 60)) * interval '1 minute',
              now(), now(),
              CASE WHEN pg_temp.hashint(i * 5) % 4 = 0 THEN 'INV-' || (i % 5000) END,
              1 + i % 4, 1500 + (i % 7) * 250, (ARRAY['AGRICULTURAL','COMMERCIAL','RESIDENTIAL'])[1 + i % 3],
              CASE WHEN pg_temp.hashint(i * 11) % 3 = 0 THEN 500000 + (i % 997) * 3000 END
         FROM generate_series($1::bigint, $2::bigint) AS i,
              LATERAL (SELECT CASE WHEN pg_temp.hashint(i) % 10 < 7 THEN 'SAVI' WHEN pg_temp.hashint(i) % 10 < 9 THEN 'AVS'
                                   ELSE 'IRIS' END AS type,
                              pg_temp.hashint(i * 17) % 20 = 0 AS cant,
                              -34 + (pg_temp.hashint(i * 19) % 11000) / 1000.0 AS lat,
                              18 + (pg_temp.hashint(i * 23) % 13000) / 1000.0 AS lng) t`,
      [start + 1, start + n],
    );
    log(`  ${(start + n).toLocaleString('en-ZA')} of ${count.toLocaleString('en-ZA')} requests`);
  }
}

/** portal_bench_requests, migrated, seeded and holding `count` requests (made once, then reused). */
export async function ensureRequestsBenchDatabase({ count = 1_000_000, force = false } = {}) {
  await buildProject('@portal/db');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const { Client } = require('pg');
  const url = db.withDatabase(databaseUrl(), REQUESTS_BENCH_DATABASE);
  const created = await db.ensureDatabase(url);
  const applied = await db.runMigrations(url);
  if (applied.length) log(`migrations applied: ${applied.join(', ')}`);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    if (created) {
      const ds = db.createDataSource(url);
      await ds.initialize();
      await db.seed(ds);
      await ds.destroy();
    }
    // A stable pseudo-random integer, so the dataset is the same on every machine.
    await client.query(`CREATE OR REPLACE FUNCTION pg_temp.hashint(bigint) RETURNS bigint LANGUAGE sql IMMUTABLE
                          AS $$ SELECT abs(hashtext($1::text))::bigint $$`);
    const [{ n }] = (await client.query('SELECT count(*)::int AS n FROM requests.requests')).rows;
    if (!force && n >= count) {
      log(`${REQUESTS_BENCH_DATABASE} holds ${n.toLocaleString('en-ZA')} requests: reused`);
      return url;
    }
    if (n > 0) await client.query('TRUNCATE requests.requests CASCADE');
    const started = performance.now();
    await generateRequests(client, count);
    // VACUUM as autovacuum would after a bulk load: the visibility map lets the pager's index walks skip the heap.
    await client.query('VACUUM ANALYZE requests.requests');
    log(
      `generated ${count.toLocaleString('en-ZA')} requests in ${round((performance.now() - started) / 1000)} s`,
    );
    return url;
  } finally {
    await client.end();
  }
}

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

function pagerUrl(base, { filters, sort, page, limit }) {
  const query = new URLSearchParams({ page: String(page), limit: String(limit), ...filters });
  if (sort) query.set('sort_object', JSON.stringify(sort));
  return `${base}/api/v1.0/request/pager/?${query}`;
}

export async function measureRequestPager({
  samples = 20,
  count = 1_000_000,
  force = false,
  withBaseline = true,
  baselineSamples = 3,
  explain = false,
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
  const service = startProcess(spec, { logFile: join(ROOT, 'var', 'bench', 'request-pager.log') });
  const combinations = [];
  let pg = null;
  if (withBaseline) {
    const { Client } = require('pg');
    pg = new Client({ connectionString: url });
    await pg.connect();
  }
  let sideBySide = null;
  try {
    await waitUntilReady(service);
    const base = `http://127.0.0.1:${spec.port}`;
    for (const filter of FILTERS) {
      for (const { label: sortLabel, sort } of SORTS) {
        const sizes = sort === null && filter.label.startsWith('default') ? [20, 100, 1000] : [20, 100];
        for (const limit of sizes) {
          const first = await timedGet(
            pagerUrl(base, { filters: filter.filters, sort, page: 1, limit }),
            adminCookie,
          );
          if (first.status !== 200)
            throw new Error(`pager answered ${first.status}: ${first.body.slice(0, 300)}`);
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
            for (let i = 0; i < samples; i++) times.push((await timedGet(pageUrl, adminCookie)).ms);
            const row = {
              filter: filter.label,
              sort: sortLabel,
              limit,
              page: where,
              total,
              p50: round(percentile(times, 50)),
              p95: round(percentile(times, 95)),
            };
            // The plain approach for the same combination, right after it (issue 23, side by side).
            if (pg) {
              const combination = { filters: filter.filters, sort, limit, page };
              const plain = await measureBaselineCombination(pg, combination, baselineSamples);
              if (plain.total !== total)
                throw new Error(`baseline counted ${plain.total}, the pager ${total} (${row.filter})`);
              row.baseline = { p50: plain.p50, p95: plain.p95 };
              row.ratioP95 = round(plain.p95 / row.p95, 2);
              row.combination = combination;
            }
            combinations.push(row);
            log(
              `${row.filter} | ${row.sort} | ${limit} | ${where}: p50 ${row.p50} ms, p95 ${row.p95} ms` +
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
export async function measureXlsxExport({ rows = 100_000 } = {}) {
  const url = await ensureRequestsBenchDatabase({});
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
    env: { LOG_LEVEL: 'warn', REQUEST_QUEUE_PREFIX: 'bench-xlsx', REQUEST_JOB_CONCURRENCY: '1' },
  });
  const running = specs.map((spec) =>
    startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `xlsx-${spec.name}.log`) }),
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
  });
  if (!flag('skip-export'))
    result.xlsxExport = await measureXlsxExport({ rows: Number(option('export-rows', 100_000)) });
  writeFileSync(join(ROOT, 'bench/results/request-pager.json'), JSON.stringify(result, null, 2) + '\n');
  const { rows, ...summary } = result;
  console.log(JSON.stringify({ ...summary, rows: rows.length }, null, 2));
  await sleep(0);
}
