// The operations dashboard over 1 000 000 requests (issue 24): GET /api/v1.0/requests/insight, timed one
// call at a time over a kept-alive connection to the answer's last byte, for a year's range (the target:
// p95 ≤ 300 ms), with a type and a group filter, a quarter, a month and a week; plus the xlsx export of one
// chart over the year. The requests service runs in its own process as `npm start` runs it.
//
// The database is `portal_bench_requests` (bench/lib/requests-dataset.mjs makes it once and reuses it). Its history
// is what the figures read: when the requests have no status lines yet, each one is given the lines of its
// way through the workflow to its status (New → Ready for QS → In progress → QC check → Dispatch → Delivered →
// Finalised, Pending after In progress, Query after QC check, Cancelled from New), a stable 2–25 h between
// steps, 40 operators; status_changed_at set to the last line. Some PDF and export job rows are added too.
//
// Usage: node bench/insight.mjs [--samples 20] [--requests 1000000]
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadavg } from 'node:os';
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
import { benchLog, numberOption } from './lib/cli.mjs';
import { percentile, round } from './stats.mjs';
import { ensureRequestsBenchDatabase } from './lib/requests-dataset.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('insight');
export const INSIGHT_TARGET_P95_MS = 300;

/** Each status's way from New: the lines (from → to) a request at that status went through. */
const WAYS = {
  'Ready for QS': ['New', 'Ready for QS'],
  'In progress': ['New', 'Ready for QS', 'In progress'],
  Pending: ['New', 'Ready for QS', 'In progress', 'Pending'],
  'QC check': ['New', 'Ready for QS', 'In progress', 'QC check'],
  Query: ['New', 'Ready for QS', 'In progress', 'QC check', 'Query'],
  Dispatch: ['New', 'Ready for QS', 'In progress', 'QC check', 'Dispatch'],
  Delivered: ['New', 'Ready for QS', 'In progress', 'QC check', 'Dispatch', 'Delivered'],
  Finalised: ['New', 'Ready for QS', 'In progress', 'QC check', 'Dispatch', 'Delivered', 'Finalised'],
  Cancelled_rejected: ['New', 'Cancelled_rejected'],
};

/** Gives every request the status lines of its way to its status, once (when there are none). */
async function ensureHistory(client) {
  const [{ lines }] = (
    await client.query(`SELECT count(*)::int AS lines FROM requests.request_history WHERE field = 'status'`)
  ).rows;
  if (lines > 0) {
    log(`history: ${lines.toLocaleString('en-ZA')} status lines, reused`);
    return lines;
  }
  const steps = Object.entries(WAYS).flatMap(([status, way]) =>
    way.slice(1).map((to, i) => [status, i + 1, way[i], to]),
  );
  const values = steps
    .map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}::int, $${i * 4 + 3}, $${i * 4 + 4})`)
    .join(', ');
  const started = performance.now();
  // A step's time: created + step × (2 to 25 h, stable per request) + step hours, never after now.
  await client.query(
    `INSERT INTO requests.request_history (request_id, at, user_id, user_name, field, from_value, to_value)
     SELECT r.id,
            least(now(), r.created_at + s.step * ((2 + abs(hashtext(r.id::text)) % 24) * interval '1 hour')),
            md5('operator' || (abs(hashtext(r.id::text || s.step)) % 40))::uuid,
            'Operator ' || (abs(hashtext(r.id::text || s.step)) % 40), 'status', s.from_status, s.to_status
       FROM requests.requests r JOIN (VALUES ${values}) AS s(status, step, from_status, to_status)
         ON s.status = r.status`,
    steps.flat(),
  );
  await client.query(`UPDATE requests.requests r SET status_changed_at = h.at
                        FROM (SELECT request_id, max(at) AS at FROM requests.request_history
                               WHERE field = 'status' GROUP BY request_id) h
                       WHERE h.request_id = r.id`);
  // Report PDFs of the dispatched requests, and some console exports, with durations.
  await client.query(`INSERT INTO pdf.jobs (id, kind, subject_id, version, state, started_at, finished_at)
     SELECT 'savi:' || r.id || ':v1', 'savi', r.id, 1,
            CASE WHEN abs(hashtext(r.id::text)) % 50 = 0 THEN 'failed' ELSE 'done' END,
            r.status_changed_at, r.status_changed_at + (5 + abs(hashtext(r.id::text)) % 40) * interval '1 second'
       FROM requests.requests r WHERE r.status IN ('Dispatch', 'Delivered', 'Finalised')
     ON CONFLICT DO NOTHING`);
  await client.query(`INSERT INTO requests.console_jobs (kind, user_id, state, params, started_at, finished_at, rows)
     SELECT 'xlsx', md5('user1')::uuid, 'done', '{"ids":null,"filters":{}}',
            now() - i * interval '1 hour', now() - i * interval '1 hour' + (20 + i % 90) * interval '1 second', 1000
       FROM generate_series(1, 5000) AS i`);
  for (const table of ['requests.request_history', 'requests.requests', 'pdf.jobs', 'requests.console_jobs'])
    await client.query(`VACUUM ANALYZE ${table}`);
  const [{ made }] = (
    await client.query(`SELECT count(*)::int AS made FROM requests.request_history WHERE field = 'status'`)
  ).rows;
  log(
    `history: ${made.toLocaleString('en-ZA')} status lines made in ${round((performance.now() - started) / 1000)} s`,
  );
  return made;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

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
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on('error', reject);
  });
}

const DAY = 86_400_000;
/** A SAST day, `daysAgo` before today. */
const sastDay = (daysAgo) => new Date(Date.now() + 2 * 3_600_000 - daysAgo * DAY).toISOString().slice(0, 10);

export async function measureInsight({ samples = 20, count = 1_000_000 } = {}) {
  const url = await ensureRequestsBenchDatabase({ count });
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  let historyLines;
  let group;
  try {
    historyLines = await ensureHistory(client);
    [{ group }] = (
      await client.query(
        `SELECT group_id AS group FROM requests.requests WHERE group_id IS NOT NULL
          GROUP BY group_id ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows;
  } finally {
    await client.end();
  }
  await buildProject('@portal/requests');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const ds = db.createDataSource(url);
  await ds.initialize();
  const admin = await ds.getRepository(db.UserEntity).findOneByOrFail({ email: 'admin@portal.test' });
  await ds.destroy();
  const cookie = benchSessionCookie({ sub: admin.id, email: admin.email, roles: ['authenticated', 'admin'] });

  const year = { from: sastDay(364), to: sastDay(0) };
  const cases = [
    { label: 'a year (365 days, by week)', query: year, target: true },
    { label: 'a year, SAVI only', query: { ...year, type: 'SAVI' }, target: true },
    { label: "a year, the busiest group's", query: { ...year, group }, target: true },
    { label: 'a year, late list page 100', query: { ...year, latePage: '100' }, target: true },
    { label: 'a quarter (90 days, by week)', query: { from: sastDay(89), to: sastDay(0) } },
    { label: 'a month (30 days, by day)', query: { from: sastDay(29), to: sastDay(0) } },
    { label: 'a week (7 days, by day)', query: { from: sastDay(6), to: sastDay(0) } },
  ];

  const ports = await freePortsForAll();
  const [spec] = portalProcesses({
    databaseUrl: url,
    ports,
    only: ['requests'],
    varDir: join(ROOT, 'var', 'bench'),
    env: { LOG_LEVEL: 'warn' },
  });
  const service = startProcess(spec, { logFile: join(ROOT, 'var', 'bench', 'insight.log') });
  const rows = [];
  try {
    await waitUntilReady(service);
    const base = `http://127.0.0.1:${spec.port}`;
    // Every call is timed, answered or not: a call over the service's statement timeout (10 s) is a 500,
    // counted in `failed` and timed all the same (the time it took to fail).
    const measure = async (label, path, target) => {
      for (let i = 0; i < 2; i++) await timedGet(`${base}${path}`, cookie);
      const times = [];
      let last;
      let failed = 0;
      for (let i = 0; i < samples; i++) {
        const answer = await timedGet(`${base}${path}`, cookie);
        times.push(answer.ms);
        if (answer.status === 200) last = answer;
        else failed += 1;
      }
      const row = {
        case: label,
        p50: round(percentile(times, 50)),
        p95: round(percentile(times, 95)),
        failed,
        target,
      };
      rows.push({ row, body: last?.body });
      log(
        `${label}: p50 ${row.p50} ms, p95 ${row.p95} ms${failed ? `, ${failed} of ${samples} failed` : ''}`,
      );
      return { row, body: last?.body };
    };
    for (const c of cases) {
      const { body } = await measure(
        c.label,
        `/api/v1.0/requests/insight?${new URLSearchParams(c.query)}`,
        Boolean(c.target),
      );
      if (c === cases[0] && body) {
        const answer = JSON.parse(body.toString());
        const created = answer.flow.reduce((sum, r) => sum + r.created, 0);
        const finished = answer.flow.reduce((sum, r) => sum + r.finished, 0);
        log(
          `  the year's figures: ${created.toLocaleString('en-ZA')} created, ${finished.toLocaleString('en-ZA')} finished, ` +
            `turnaround median ${answer.turnaround[0].medianHours} h / p90 ${answer.turnaround[0].p90Hours} h, ` +
            `${answer.late.total.toLocaleString('en-ZA')} late, ${answer.backlog.length} backlog points`,
        );
        rows.at(-1).row.figures = {
          created,
          finished,
          late: answer.late.total,
          turnaround: answer.turnaround[0],
        };
      }
    }
    await measure(
      'export: a year of the backlog as xlsx',
      `/api/v1.0/requests/insight/export.xlsx?${new URLSearchParams({ ...year, chart: 'backlog' })}`,
      false,
    );
  } finally {
    await stopProcesses([service]);
  }
  const measured = rows.map(({ row }) => row);
  const targeted = measured.filter((row) => row.target);
  return {
    requests: count,
    // The machine is shared: its load average (1, 5, 15 min) as the calls ended, beside the figures.
    loadAverage: loadavg().map((n) => round(n)),
    historyLines,
    samples,
    target: `p95 ≤ ${INSIGHT_TARGET_P95_MS} ms for a year's range`,
    p95WorstYear: Math.max(...targeted.map((row) => row.p95)),
    overTarget: targeted.filter((row) => row.p95 > INSIGHT_TARGET_P95_MS).map((row) => row.case),
    rows: measured,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureInsight({
    samples: numberOption('samples', 20),
    count: numberOption('requests', 1_000_000),
  });
  writeFileSync(join(ROOT, 'bench/results/insight.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
  await sleep(0);
}
