#!/usr/bin/env node
// Monitoring of the portal, generated from config/services.json (issue 24) so that a new service or worker
// is scraped, alerted on and drawn without anyone remembering to:
//
//   node scripts/monitoring.mjs            writes docker/monitoring/ (prometheus.yml, alerts.yml, Grafana)
//   node scripts/monitoring.mjs --check    exits 1 naming every file that differs from what it would write
//
// One source for the alert rules: `alertRuleGroups()` is written to docker/monitoring/alerts.yml (the
// compose deployment's Prometheus) and, by scripts/k8s-manifests.mjs, into the `PrometheusRule` of
// docker/k8s/monitoring.yaml — the two cannot drift. `scrapeTargets()` and `prometheusConfig()` are also
// used by scripts/containers-test.mjs (Prometheus against the pods) and scripts/lib/monitoring.test.mjs.
//
// Labels every target carries (compose: static labels; Kubernetes: the PodMonitors' relabelings), which
// the rules and the dashboard use: `process` (the name in config/services.json: identity, iris-worker…)
// and `tier` (gateway, service, worker). Every series also carries `service` (prom-client's default label,
// the same name) and `instance`.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toYaml } from './k8s-manifests.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docker/monitoring');

export const SCRAPE_INTERVAL = '15s';
/** Instances of each kind in docker/compose.yml (the services as the Kubernetes Deployments' replicas). */
export const COMPOSE_INSTANCES = { gateway: 1, service: 2, worker: 1 };
/**
 * p95 latency above which a service is alerted on (seconds, over 10 minutes). The bench's targets are
 * tens of milliseconds for the hot paths (bench/README.md); these leave room for the slower calls each
 * service also answers (exports, uploads, PDFs polled) so that the alert means "something is wrong".
 */
export const LATENCY_P95_SECONDS = { default: 0.5, locator: 0.3, gateway: 1 };
/** Share of answers that are 5xx above which a service is alerted on (over 5 minutes). */
export const ERROR_RATIO = 0.02;

export function servicesTable() {
  return JSON.parse(readFileSync(join(root, 'config/services.json'), 'utf8'));
}

/** Every process of the table: the gateway, the services behind it and the workers, with its tier. */
export function processes(table = servicesTable()) {
  return [
    { name: table.gateway.name, tier: 'gateway', port: table.gateway.metricsPort },
    ...table.services.map((s) => ({ name: s.name, tier: s.routes ? 'service' : 'worker', port: s.port })),
  ];
}

/**
 * What Prometheus scrapes: one entry per instance of every process, `/metrics` on its port (the gateway's
 * metricsPort). options: host(name, i) -> the host of instance i (compose: `identity`, `identity-2`);
 * port(name, port) -> the port; instances(tier) -> how many of each.
 */
export function scrapeTargets(options = {}) {
  const host = options.host ?? ((name, i) => (i === 1 ? name : `${name}-${i}`));
  const port = options.port ?? ((_name, p) => p);
  const instances = options.instances ?? ((tier) => COMPOSE_INSTANCES[tier]);
  return processes(options.table).flatMap((p) =>
    Array.from({ length: instances(p.tier) }, (_, k) => ({
      target: `${host(p.name, k + 1)}:${port(p.name, p.port)}`,
      labels: { process: p.name, tier: p.tier },
    })),
  );
}

/** A Prometheus configuration scraping `targets` (scrapeTargets), with the alert rules of `ruleFiles`. */
export function prometheusConfig(targets, ruleFiles = ['alerts.yml']) {
  return {
    global: { scrape_interval: SCRAPE_INTERVAL, evaluation_interval: SCRAPE_INTERVAL },
    rule_files: ruleFiles,
    scrape_configs: [
      {
        job_name: 'portal',
        metrics_path: '/metrics',
        static_configs: targets.map(({ target, labels }) => ({ targets: [target], labels })),
      },
    ],
  };
}

// `process` in the labels of the rules made per process: one alert name, told apart (promtool's lint).
const rule = (alert, expr, forDuration, severity, summary, description, process) => ({
  alert,
  expr,
  for: forDuration,
  labels: { severity, ...(process ? { process } : {}) },
  annotations: { summary, description },
});

/**
 * The alert rules, as Prometheus rule groups (the `groups` of a rules file and of a PrometheusRule).
 * Per-process rules come from the table: a new service gets its latency alert and its absence alert.
 */
export function alertRuleGroups(table = servicesTable()) {
  const procs = processes(table);
  const latency = procs
    .filter((p) => p.tier !== 'worker')
    .map((p) => {
      const limit = LATENCY_P95_SECONDS[p.name] ?? LATENCY_P95_SECONDS.default;
      return rule(
        'PortalLatencyP95High',
        `histogram_quantile(0.95, sum by (service, le) (rate(http_request_duration_seconds_bucket{service="${p.name}", route!="no route"}[5m]))) > ${limit}`,
        '10m',
        'warning',
        `${p.name}: p95 latency above ${limit * 1000} ms`,
        `The 95th percentile of the answers of ${p.name} has been {{ $value | humanizeDuration }} for 10 minutes (limit ${limit * 1000} ms). Look at the slowest routes on the Portal dashboard, the queries waiting for the database pool and the CPU of the host.`,
        p.name,
      );
    });
  return [
    {
      name: 'portal-http',
      rules: [
        rule(
          'PortalHttp5xxRateHigh',
          `sum by (service) (rate(http_request_duration_seconds_count{status_code=~"5.."}[5m])) / sum by (service) (rate(http_request_duration_seconds_count[5m])) > ${ERROR_RATIO}`,
          '5m',
          'critical',
          '{{ $labels.service }}: more than 2 % of answers are 5xx',
          '{{ $value | humanizePercentage }} of {{ $labels.service }} answers have been 5xx for 5 minutes. On the gateway, 502/503 name the service that did not answer; on a service, its log has the request ids.',
        ),
        ...latency,
      ],
    },
    {
      name: 'portal-queues',
      rules: [
        rule(
          'PortalQueueWaitingTooLong',
          'max by (queue) (queue_jobs{state="waiting"}) > 0 unless on (queue) sum by (queue) (increase(job_duration_seconds_count[10m])) > 0',
          '10m',
          'warning',
          'queue {{ $labels.queue }}: jobs waiting and none taken for 10 minutes',
          '{{ $value }} jobs of {{ $labels.queue }} are waiting and no job try of it has ended in 10 minutes: its workers are down, stuck or not started (see PortalWorkerDown).',
        ),
        rule(
          'PortalQueueBacklog',
          'max by (queue) (queue_jobs{state="waiting"}) > 100',
          '15m',
          'warning',
          'queue {{ $labels.queue }}: more than 100 jobs waiting for 15 minutes',
          '{{ $value }} jobs of {{ $labels.queue }} are waiting: the workers take them more slowly than they come. Scale the worker (KEDA does it on its own in Kubernetes; compose: `--scale`).',
        ),
        rule(
          'PortalJobsFailed',
          'sum by (queue) (increase(queue_job_failures_total{final="true"}[15m])) > 0',
          '0m',
          'warning',
          'queue {{ $labels.queue }}: jobs failed for good',
          '{{ $value }} jobs of {{ $labels.queue }} failed their last try in 15 minutes (Bull Board at /admin/queues lists them with their error).',
        ),
        rule(
          'PortalJobsStalled',
          'sum by (queue) (increase(queue_job_stalls_total[15m])) > 0',
          '0m',
          'warning',
          'queue {{ $labels.queue }}: stalled jobs',
          '{{ $value }} jobs of {{ $labels.queue }} lost their worker while running (killed, out of memory, or its event loop blocked past the lock) and were handed to another in 15 minutes.',
        ),
        rule(
          'PortalChromiumCrashing',
          'sum by (service) (increase(pdf_browser_restarts_total{reason="crashed"}[30m])) > 2',
          '0m',
          'warning',
          '{{ $labels.service }}: Chromium crashed more than twice in 30 minutes',
          'The PDF worker replaced a crashed browser {{ $value }} times: look at its memory limit (pdf_browser_memory_megabytes) and its log.',
        ),
      ],
    },
    {
      name: 'portal-processes',
      rules: [
        rule(
          'PortalWorkerDown',
          'up{tier="worker"} == 0',
          '2m',
          'critical',
          'worker {{ $labels.process }} ({{ $labels.instance }}) is down',
          'Prometheus has not reached {{ $labels.instance }} for 2 minutes: its queue is not being worked on by it.',
        ),
        rule(
          'PortalInstanceDown',
          'up{tier!="worker"} == 0',
          '2m',
          'warning',
          '{{ $labels.process }} instance {{ $labels.instance }} is down',
          'Prometheus has not reached {{ $labels.instance }} for 2 minutes; the gateway sends its calls to the other instance.',
        ),
        ...procs.map((p) =>
          rule(
            'PortalProcessAbsent',
            `absent(up{process="${p.name}"})`,
            '5m',
            'critical',
            `${p.name}: no instance scraped`,
            `Prometheus has no target of ${p.name} at all for 5 minutes: it is not deployed, or not discovered.`,
            p.name,
          ),
        ),
      ],
    },
    {
      name: 'portal-database',
      rules: [
        rule(
          'PortalDatabaseConnectionsNearLimit',
          'max(db_server_connections{reading="used"}) / max(db_server_connections{reading="max"}) > 0.8',
          '5m',
          'warning',
          'PostgreSQL: more than 80 % of max_connections in use',
          '{{ $value | humanizePercentage }} of the connections PostgreSQL allows are open. Sum of the pools (db_pool_max_connections) × instances must stay below max_connections (docs/operations.md).',
        ),
        rule(
          'PortalDatabasePoolWaiting',
          'max by (service, instance, pool) (db_pool_connections{state="waiting"}) > 0',
          '2m',
          'warning',
          '{{ $labels.service }} ({{ $labels.instance }}): queries waiting for a database connection',
          'The {{ $labels.pool }} pool of {{ $labels.instance }} has had queries waiting for a connection for 2 minutes: the pool is too small for the load, or queries are slow.',
        ),
      ],
    },
  ];
}

// ---- Grafana ----

let panelId = 0;
function panel(title, gridPos, targets, options = {}) {
  return {
    id: ++panelId,
    type: options.type ?? 'timeseries',
    title,
    gridPos,
    datasource: { type: 'prometheus', uid: 'portal-prometheus' },
    fieldConfig: { defaults: { unit: options.unit ?? 'short' }, overrides: [] },
    options: { legend: { displayMode: 'table', placement: 'right', calcs: ['lastNotNull', 'max'] } },
    targets: targets.map(([expr, legendFormat], i) => ({
      refId: String.fromCharCode(65 + i),
      expr,
      legendFormat,
    })),
  };
}
const row = (title, y) => ({
  id: ++panelId,
  type: 'row',
  title,
  collapsed: false,
  gridPos: { x: 0, y, w: 24, h: 1 },
  panels: [],
});

/**
 * The dashboard's panels that have series on any running portal once it has answered a few requests; the
 * others (5xx share, job durations, failures, stalls, Chromium restarts) stay empty until such an event.
 * The checks against a live Prometheus (e2e monitoring.spec, scripts/containers-test.mjs) require these.
 */
export const PANELS_DRAWN_ON_ANY_PORTAL = [
  'Requests per second by service',
  'p95 latency by service',
  'Slowest routes (p95)',
  'Jobs waiting by queue',
  'Jobs active / delayed / failed by queue',
  'Pool connections by process',
  'PostgreSQL connections',
  'Targets up',
  'Resident memory by instance',
];

/** Every query of the Portal dashboard with its panel's title: what Grafana asks Prometheus. */
export function dashboardQueries() {
  return grafanaDashboard().panels.flatMap((p) =>
    (p.targets ?? []).map((target) => ({ title: p.title, expr: target.expr })),
  );
}

/**
 * Asks a live Prometheus (its base URL) every query of the dashboard, as Grafana would: answers the
 * problems found — a query Prometheus refuses, a panel of PANELS_DRAWN_ON_ANY_PORTAL without series, a
 * name in that list that no panel has — as sentences (none: the dashboard draws).
 */
export async function dashboardProblems(prometheusUrl) {
  const queries = dashboardQueries();
  const problems = PANELS_DRAWN_ON_ANY_PORTAL.filter((title) => !queries.some((q) => q.title === title)).map(
    (title) => `no panel "${title}" in the dashboard`,
  );
  for (const { title, expr } of queries) {
    const answer = await (
      await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)
    ).json();
    if (answer.status !== 'success') problems.push(`${title}: ${expr}: ${answer.error}`);
    else if (PANELS_DRAWN_ON_ANY_PORTAL.includes(title) && answer.data.result.length === 0)
      problems.push(`${title}: ${expr}: no series`);
  }
  return problems;
}

/** The Portal dashboard: requests, latency, errors, queues, jobs, Chromium, database pools, targets. */
export function grafanaDashboard() {
  panelId = 0;
  const half = (x, y) => ({ x, y, w: 12, h: 8 });
  return {
    uid: 'portal',
    title: 'Portal',
    description:
      'Generated by scripts/monitoring.mjs (issue 24): requests, latency and errors per service; queues, jobs and Chromium of the workers; the database pools; the scrape targets.',
    tags: ['portal'],
    timezone: 'browser',
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-3h', to: 'now' },
    templating: { list: [] },
    annotations: { list: [] },
    panels: [
      row('Requests', 0),
      panel('Requests per second by service', half(0, 1), [
        ['sum by (service) (rate(http_request_duration_seconds_count[5m]))', '{{service}}'],
      ]),
      panel(
        '5xx share by service',
        half(12, 1),
        [
          [
            'sum by (service) (rate(http_request_duration_seconds_count{status_code=~"5.."}[5m])) / sum by (service) (rate(http_request_duration_seconds_count[5m]))',
            '{{service}}',
          ],
        ],
        { unit: 'percentunit' },
      ),
      panel(
        'p95 latency by service',
        half(0, 9),
        [
          [
            'histogram_quantile(0.95, sum by (service, le) (rate(http_request_duration_seconds_bucket{route!="no route"}[5m])))',
            '{{service}}',
          ],
        ],
        { unit: 's' },
      ),
      panel(
        'Slowest routes (p95)',
        half(12, 9),
        [
          [
            'topk(10, histogram_quantile(0.95, sum by (service, route, le) (rate(http_request_duration_seconds_bucket{route!="no route"}[5m]))))',
            '{{service}} {{route}}',
          ],
        ],
        { unit: 's' },
      ),
      row('Queues and jobs', 17),
      panel('Jobs waiting by queue', half(0, 18), [
        ['max by (queue) (queue_jobs{state="waiting"})', '{{queue}}'],
      ]),
      panel('Jobs active / delayed / failed by queue', half(12, 18), [
        ['max by (queue) (queue_jobs{state="active"})', '{{queue}} active'],
        ['max by (queue) (queue_jobs{state="delayed"})', '{{queue}} delayed'],
        ['max by (queue) (queue_jobs{state="failed"})', '{{queue}} failed'],
      ]),
      panel(
        'Job duration p50 / p95 by queue',
        half(0, 26),
        [
          [
            'histogram_quantile(0.5, sum by (queue, le) (rate(job_duration_seconds_bucket[15m])))',
            '{{queue}} p50',
          ],
          [
            'histogram_quantile(0.95, sum by (queue, le) (rate(job_duration_seconds_bucket[15m])))',
            '{{queue}} p95',
          ],
        ],
        { unit: 's' },
      ),
      panel('Failed tries, stalls and Chromium restarts (per 15 min)', half(12, 26), [
        [
          'sum by (queue, final) (increase(queue_job_failures_total[15m]))',
          '{{queue}} failed (final {{final}})',
        ],
        ['sum by (queue) (increase(queue_job_stalls_total[15m]))', '{{queue}} stalled'],
        [
          'sum by (service, reason) (increase(pdf_browser_restarts_total[15m]))',
          '{{service}} Chromium {{reason}}',
        ],
      ]),
      row('Database', 34),
      panel('Pool connections by process', half(0, 35), [
        ['sum by (service, pool) (db_pool_connections{state="in_use"})', '{{service}} {{pool}} in use'],
        ['sum by (service, pool) (db_pool_connections{state="waiting"})', '{{service}} {{pool}} waiting'],
      ]),
      panel('PostgreSQL connections', half(12, 35), [
        ['max(db_server_connections{reading="used"})', 'used'],
        ['max(db_server_connections{reading="max"})', 'max_connections less the reserve'],
        ['sum(db_pool_max_connections{pool="main"})', 'sum of the pools (their most)'],
      ]),
      row('Processes', 43),
      panel('Targets up', half(0, 44), [['up', '{{process}} {{instance}}']]),
      panel(
        'Resident memory by instance',
        half(12, 44),
        [['process_resident_memory_bytes', '{{service}} {{instance}}']],
        { unit: 'bytes' },
      ),
    ],
  };
}

const JSON_ATOM = String.raw`(?:"(?:[^"\\\n]|\\.)*"|-?[\d.e+-]+|true|false|null)`;
/**
 * JSON as Prettier writes it (two spaces; an array of plain values on one line when it fits in the
 * workspace's 110 columns), so the generated file passes `prettier --check` without running Prettier.
 */
function prettierJson(value) {
  const text = JSON.stringify(value, null, 2);
  const list = new RegExp(String.raw`\[\n\s+(${JSON_ATOM}(?:,\n\s+${JSON_ATOM})*)\n\s*\]`, 'g');
  return `${text.replace(list, (whole, items, offset) => {
    const one = `[${items.split(/,\n\s+/).join(', ')}]`;
    const lineStart = text.lastIndexOf('\n', offset) + 1;
    return offset - lineStart + one.length + 1 <= 110 ? one : whole;
  })}\n`;
}

const GENERATED =
  '# Generated by scripts/monitoring.mjs from config/services.json: edit that (or the script) and run\n# `node scripts/monitoring.mjs`; `--check` tells whether this file is current.';

/** The files of docker/monitoring, as { relative path: text }. */
export function monitoringFiles() {
  return {
    'prometheus.yml': toYaml([prometheusConfig(scrapeTargets())], GENERATED),
    'alerts.yml': toYaml([{ groups: alertRuleGroups() }], GENERATED),
    'grafana/provisioning/datasources/prometheus.yml': toYaml(
      [
        {
          apiVersion: 1,
          datasources: [
            {
              name: 'Prometheus',
              uid: 'portal-prometheus',
              type: 'prometheus',
              access: 'proxy',
              url: 'http://prometheus:9090',
              isDefault: true,
            },
          ],
        },
      ],
      GENERATED,
    ),
    'grafana/provisioning/dashboards/portal.yml': toYaml(
      [
        {
          apiVersion: 1,
          providers: [
            {
              name: 'portal',
              folder: 'Portal',
              type: 'file',
              disableDeletion: true,
              options: { path: '/var/lib/grafana/dashboards' },
            },
          ],
        },
      ],
      GENERATED,
    ),
    'grafana/dashboards/portal.json': prettierJson(grafanaDashboard()),
  };
}

function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [file, text] of Object.entries(monitoringFiles())) {
    const path = join(outDir, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    stale.push(file);
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  if (check && stale.length) {
    console.error(`docker/monitoring is not what scripts/monitoring.mjs writes: ${stale.join(', ')}`);
    console.error('run: node scripts/monitoring.mjs');
    process.exit(1);
  }
  const count = readdirSync(outDir, { recursive: true }).length;
  console.log(
    check
      ? `${relative(root, outDir)}: current (${count} entries)`
      : `${relative(root, outDir)}: ${stale.length ? `wrote ${stale.join(', ')}` : 'nothing to change'}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
