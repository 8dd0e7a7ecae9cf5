// Monitoring cannot forget a process, drift between compose and Kubernetes, or ship a rule that does not
// load or fire (issue 24). Over the generated files of scripts/monitoring.mjs and scripts/k8s-manifests.mjs:
// - both are current (what the generators write now);
// - every service and worker of config/services.json is scraped, each instance the compose file runs
//   (and the compose file runs two of every service behind the gateway, whose <NAME>_URL lists both), and
//   every Deployment is selected by a PodMonitor on a port it has;
// - the PrometheusRule holds exactly the rules of docker/monitoring/alerts.yml;
// - promtool (Debian's `prometheus` package, installed by scripts/prepare.mjs for the tests) checks the
//   configuration and both rule sets, and unit-tests the rules: each alert fires on the series it is for
//   and not on others. Without promtool those three tests skip, saying so.
// A node:test like the other checks of the scripts (plain Node ESM, no build step), run by `npm test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { toYaml } from '../k8s-manifests.mjs';
import { alertRuleGroups, COMPOSE_INSTANCES, processes, servicesTable } from '../monitoring.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const yamlDocs = (file) => YAML.parseAllDocuments(read(file)).map((doc) => doc.toJSON());
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
const NO_PROMTOOL = 'promtool is not installed (apt-get install -y prometheus; npm test prepares it)';

test('docker/monitoring and docker/k8s are what their generators write', () => {
  for (const script of ['scripts/monitoring.mjs', 'scripts/k8s-manifests.mjs']) {
    const run = spawnSync(process.execPath, [script, '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, `${script} --check: ${run.stderr}`);
  }
});

test('Prometheus scrapes every instance of every service and worker that the compose file runs', () => {
  const config = yamlDocs('docker/monitoring/prometheus.yml')[0];
  const scraped = new Map(
    config.scrape_configs
      .flatMap((job) => job.static_configs)
      .flatMap(({ targets, labels }) => targets.map((target) => [target, labels])),
  );
  const compose = YAML.parse(read('docker/compose.yml'), { merge: true });
  const table = servicesTable();
  for (const p of processes(table)) {
    const count = COMPOSE_INSTANCES[p.tier];
    for (let i = 1; i <= count; i++) {
      const host = i === 1 ? p.name : `${p.name}-${i}`;
      assert.deepEqual(
        scraped.get(`${host}:${p.port}`),
        { process: p.name, tier: p.tier },
        `${host}:${p.port}`,
      );
      assert.ok(compose.services[host], `compose runs ${host}`);
    }
  }
  const env = compose.services.gateway.environment;
  for (const s of table.services.filter((entry) => entry.routes)) {
    assert.ok(COMPOSE_INSTANCES.service >= 2);
    const name = s.name.toUpperCase().replace(/-/g, '_');
    assert.equal(env[`${name}_URL`], `http://${s.name}:${s.port},http://${s.name}-2:${s.port}`, name);
    // The second instance is the first one (a YAML alias): same image, settings and volumes.
    assert.deepEqual(compose.services[`${s.name}-2`], compose.services[s.name]);
  }
  const mounts = compose.services.prometheus.volumes.join(' ');
  assert.match(mounts, /\.\/monitoring\/prometheus\.yml:/);
  assert.match(mounts, /\.\/monitoring\/alerts\.yml:/);
  assert.match(compose.services.grafana.volumes.join(' '), /\.\/monitoring\/grafana\/dashboards:/);
});

test('the PodMonitors select every Deployment of a service or worker on a port it has', () => {
  const monitors = yamlDocs('docker/k8s/monitoring.yaml').filter((d) => d.kind === 'PodMonitor');
  const selects = (monitor, podLabels) =>
    Object.entries(monitor.spec.selector.matchLabels ?? {}).every(([k, v]) => podLabels[k] === v) &&
    (monitor.spec.selector.matchExpressions ?? []).every(({ key, operator, values }) =>
      operator === 'In' ? values.includes(podLabels[key]) : !values.includes(podLabels[key]),
    );
  for (const p of processes()) {
    const [deployment] = yamlDocs(`docker/k8s/${p.name}.yaml`).filter((d) => d.kind === 'Deployment');
    const podLabels = deployment.spec.template.metadata.labels;
    const ports = deployment.spec.template.spec.containers[0].ports.map((port) => port.name);
    const matching = monitors.filter((m) => selects(m, podLabels));
    assert.equal(matching.length, 1, `${p.name}: selected by exactly one PodMonitor`);
    assert.ok(ports.includes(matching[0].spec.podMetricsEndpoints[0].port), `${p.name}: port`);
    const metricsPort = deployment.spec.template.spec.containers[0].ports.find(
      (port) => port.name === matching[0].spec.podMetricsEndpoints[0].port,
    );
    assert.equal(metricsPort.containerPort, p.port, `${p.name}: /metrics on ${p.port}`);
  }
});

test('the PrometheusRule holds exactly the rules of docker/monitoring/alerts.yml', () => {
  const [rule] = yamlDocs('docker/k8s/monitoring.yaml').filter((d) => d.kind === 'PrometheusRule');
  assert.deepEqual(rule.spec.groups, yamlDocs('docker/monitoring/alerts.yml')[0].groups);
  assert.deepEqual(rule.spec.groups, JSON.parse(JSON.stringify(alertRuleGroups())));
});

test('promtool checks the configuration and both rule sets', { skip: !promtool && NO_PROMTOOL }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-monitoring-'));
  const [rule] = yamlDocs('docker/k8s/monitoring.yaml').filter((d) => d.kind === 'PrometheusRule');
  writeFileSync(path.join(dir, 'prometheus-rule.yml'), toYaml([{ groups: rule.spec.groups }]));
  for (const [args, cwd] of [
    [['check', 'config', 'prometheus.yml'], path.join(ROOT, 'docker/monitoring')],
    [['check', 'rules', 'alerts.yml'], path.join(ROOT, 'docker/monitoring')],
    [['check', 'rules', 'prometheus-rule.yml'], dir],
  ]) {
    const run = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
    assert.equal(run.status, 0, `promtool ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  }
});

/** The rules without their annotations (promtool's unit tests compare them; the labels are the point). */
function rulesWithoutAnnotations() {
  return {
    groups: alertRuleGroups().map((group) => ({
      ...group,
      rules: group.rules.map(({ annotations: _annotations, ...rule }) => rule),
    })),
  };
}

const series = (name, labels, values) => ({
  series: `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')}}`,
  values,
});
const target = (process, tier, instance) => ({ job: 'portal', instance, process, tier });

test(
  'each alert fires on what it is for, and not on the rest (promtool test rules)',
  { skip: !promtool && NO_PROMTOOL },
  () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-alerts-'));
    writeFileSync(path.join(dir, 'rules.yml'), toYaml([rulesWithoutAnnotations()]));
    // Every process scraped and up, but the locator absent and one iris-worker down.
    const ups = processes()
      .filter((p) => p.name !== 'locator')
      .map((p) =>
        series(
          'up',
          target(p.name, p.tier, `${p.name}:${p.port}`),
          p.name === 'iris-worker' ? '0x30' : '1x30',
        ),
      );
    const tests = [
      {
        interval: '1m',
        input_series: [
          ...ups,
          // identity: 10 % 5xx; requests: none.
          series(
            'http_request_duration_seconds_count',
            { service: 'identity', status_code: '500' },
            '0+10x30',
          ),
          series(
            'http_request_duration_seconds_count',
            { service: 'identity', status_code: '200' },
            '0+90x30',
          ),
          series(
            'http_request_duration_seconds_count',
            { service: 'requests', status_code: '200' },
            '0+90x30',
          ),
          // iris-pdf: 3 waiting and no try ending; request-console: 3 waiting but its jobs are being done.
          series('queue_jobs', { queue: 'iris-pdf', state: 'waiting', instance: 'a' }, '3x30'),
          series(
            'job_duration_seconds_count',
            { queue: 'iris-pdf', outcome: 'completed', instance: 'a' },
            '5x30',
          ),
          series('queue_jobs', { queue: 'request-console', state: 'waiting', instance: 'b' }, '3x30'),
          series(
            'job_duration_seconds_count',
            { queue: 'request-console', outcome: 'completed', instance: 'b' },
            '0+2x30',
          ),
          // A final failure and a stall on reportbuilder-pdf; only retried tries on request-console.
          series(
            'queue_job_failures_total',
            { queue: 'reportbuilder-pdf', final: 'true', instance: 'c' },
            '0 0 0 1x27',
          ),
          series(
            'queue_job_failures_total',
            { queue: 'request-console', final: 'false', instance: 'b' },
            '0+1x30',
          ),
          series(
            'queue_job_failures_total',
            { queue: 'request-console', final: 'true', instance: 'b' },
            '0x30',
          ),
          series('queue_job_stalls_total', { queue: 'reportbuilder-pdf', instance: 'c' }, '0 0 0 1x27'),
          // PostgreSQL: 92 of 97 connections; one pool with queries waiting, one without.
          series('db_server_connections', { reading: 'used', instance: 'a' }, '92x30'),
          series('db_server_connections', { reading: 'max', instance: 'a' }, '97x30'),
          series(
            'db_pool_connections',
            { service: 'locator', instance: 'l', pool: 'read', state: 'waiting' },
            '4x30',
          ),
          series(
            'db_pool_connections',
            { service: 'identity', instance: 'i', pool: 'main', state: 'waiting' },
            '0x30',
          ),
        ],
        alert_rule_test: [
          {
            eval_time: '10m',
            alertname: 'PortalHttp5xxRateHigh',
            exp_alerts: [{ exp_labels: { service: 'identity', severity: 'critical' } }],
          },
          {
            eval_time: '10m',
            alertname: 'PortalWorkerDown',
            exp_alerts: [
              {
                exp_labels: { ...target('iris-worker', 'worker', 'iris-worker:3106'), severity: 'critical' },
              },
            ],
          },
          { eval_time: '10m', alertname: 'PortalInstanceDown', exp_alerts: [] },
          {
            eval_time: '10m',
            alertname: 'PortalProcessAbsent',
            exp_alerts: [{ exp_labels: { process: 'locator', severity: 'critical' } }],
          },
          {
            eval_time: '25m',
            alertname: 'PortalQueueWaitingTooLong',
            exp_alerts: [{ exp_labels: { queue: 'iris-pdf', severity: 'warning' } }],
          },
          { eval_time: '25m', alertname: 'PortalQueueBacklog', exp_alerts: [] },
          {
            eval_time: '10m',
            alertname: 'PortalJobsFailed',
            exp_alerts: [{ exp_labels: { queue: 'reportbuilder-pdf', severity: 'warning' } }],
          },
          {
            eval_time: '10m',
            alertname: 'PortalJobsStalled',
            exp_alerts: [{ exp_labels: { queue: 'reportbuilder-pdf', severity: 'warning' } }],
          },
          {
            eval_time: '10m',
            alertname: 'PortalDatabaseConnectionsNearLimit',
            exp_alerts: [{ exp_labels: { severity: 'warning' } }],
          },
          {
            eval_time: '10m',
            alertname: 'PortalDatabasePoolWaiting',
            exp_alerts: [
              { exp_labels: { service: 'locator', instance: 'l', pool: 'read', severity: 'warning' } },
            ],
          },
        ],
      },
      {
        // p95 per service against its own limit: the locator at ~0.4 s (limit 0.3 s), identity at ~0.4 s
        // (limit 0.5 s).
        interval: '1m',
        input_series: ['locator', 'identity'].flatMap((service) => [
          series('http_request_duration_seconds_bucket', { service, route: '/x', le: '0.25' }, '0x30'),
          series('http_request_duration_seconds_bucket', { service, route: '/x', le: '0.5' }, '0+10x30'),
          series('http_request_duration_seconds_bucket', { service, route: '/x', le: '+Inf' }, '0+10x30'),
        ]),
        alert_rule_test: [
          {
            eval_time: '20m',
            alertname: 'PortalLatencyP95High',
            exp_alerts: [{ exp_labels: { service: 'locator', process: 'locator', severity: 'warning' } }],
          },
        ],
      },
    ];
    writeFileSync(
      path.join(dir, 'rules.test.yml'),
      YAML.stringify({ rule_files: ['rules.yml'], evaluation_interval: '1m', tests }),
    );
    const run = spawnSync('promtool', ['test', 'rules', 'rules.test.yml'], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, `promtool test rules:\n${run.stdout}${run.stderr}`);
  },
);
