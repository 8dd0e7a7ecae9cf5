import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { toYaml } from '../../scripts/k8s-manifests.mjs';
import { findFreePort, GATEWAY_METRICS } from '../../scripts/lib/processes.mjs';
import {
  alertRuleGroups,
  dashboardProblems,
  dashboardQueries,
  prometheusConfig,
  scrapeTargets,
} from '../../scripts/monitoring.mjs';
import { signedIn } from '../support/auth';
import { harness } from '../support/env';

// Monitoring for the people who run it (issue 24), against the portal this run started: the real
// Prometheus (Debian's `prometheus` package, which the prepare step installs for the tests) is given
// the scrape targets and the alert rules that docker/monitoring is generated from (scripts/monitoring.mjs),
// pointed at this run's processes, and must scrape every service and worker and load every rule; then
// every query of the provisioned Grafana dashboard (docker/monitoring/grafana/dashboards/portal.json) is
// asked of it, so a panel whose PromQL is wrong or whose series no process publishes fails here, not on
// an operator's screen. (Grafana itself runs only in the compose deployment: no image registry is reachable
// from the machines that run this suite; `npm run test:containers` plays the same checks against the pods.)

/** The portal's queues (contracts PORTAL_QUEUES) that the queue panels must show, one series each. */
const QUEUES = [
  'request-console',
  'iris-pdf',
  'reportbuilder-pdf',
  'webhook-dispatch',
  'webhook-delivery',
  'notifications',
];

interface PromAnswer<T> {
  status: 'success' | 'error';
  error?: string;
  data: T;
}
type Vector = { resultType: string; result: { metric: Record<string, string> }[] };

let prometheus: ChildProcess | undefined;
let dataDir: string | undefined;

test.afterAll(() => {
  prometheus?.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('Prometheus scrapes every process, loads every alert rule and answers every panel of the Grafana dashboard', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  expect(
    spawnSync('prometheus', ['--version']).status,
    'prometheus is installed (apt-get install -y prometheus; npm test prepares it)',
  ).toBe(0);
  const { ports } = harness();
  const targets = scrapeTargets({
    host: () => '127.0.0.1',
    // The gateway publishes its metrics on a port of their own (its main port is public).
    port: (name: string) => (name === 'gateway' ? ports[GATEWAY_METRICS] : ports[name]),
    instances: () => 1,
  }) as { target: string; labels: Record<string, string> }[];
  expect(targets.length).toBeGreaterThan(10);
  for (const { target } of targets)
    expect(target, 'every target has a port of this run').not.toMatch(/:undefined$/);

  dataDir = mkdtempSync(join(tmpdir(), 'portal-prometheus-'));
  const config = prometheusConfig(targets, ['alerts.yml']) as Record<string, unknown>;
  // Scraped every 2 s instead of 15 s, so that rates have two samples within seconds.
  config.global = { scrape_interval: '2s', evaluation_interval: '2s' };
  writeFileSync(join(dataDir, 'alerts.yml'), toYaml([{ groups: alertRuleGroups() }]));
  writeFileSync(join(dataDir, 'prometheus.yml'), toYaml([config]));
  const checked = spawnSync('promtool', ['check', 'config', join(dataDir, 'prometheus.yml')], {
    encoding: 'utf8',
  });
  expect(checked.status, checked.stdout + checked.stderr).toBe(0);

  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${join(dataDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dataDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  );
  const ask = async <T>(path: string): Promise<PromAnswer<T>> =>
    (await fetch(`${base}${path}`)).json() as never;
  const query = (expr: string) => ask<Vector>(`/api/v1/query?query=${encodeURIComponent(expr)}`);

  await expect
    .poll(async () => (await fetch(`${base}/-/ready`).catch(() => undefined))?.status, { timeout: 30_000 })
    .toBe(200);

  // Every process of config/services.json, scraped and up.
  const wanted = targets.map((t) => t.target).sort();
  await expect
    .poll(
      async () => {
        const answer = await ask<{ activeTargets: { health: string; labels: { instance: string } }[] }>(
          '/api/v1/targets',
        );
        const up = new Set(
          answer.data.activeTargets.filter((t) => t.health === 'up').map((t) => t.labels.instance),
        );
        return wanted.filter((target) => !up.has(target));
      },
      { timeout: 60_000, message: 'targets not scraped (down or not yet)' },
    )
    .toEqual([]);

  // Every alert rule loaded (and evaluated: Prometheus reports the rule's health after each evaluation).
  const rules = alertRuleGroups().flatMap((group: { rules: { alert: string }[] }) => group.rules);
  await expect
    .poll(
      async () => {
        const answer = await ask<{ groups: { rules: { name: string; health: string }[] }[] }>(
          '/api/v1/rules',
        );
        return answer.data.groups
          .flatMap((group) => group.rules)
          .filter((rule) => rule.health === 'ok')
          .map((rule) => rule.name)
          .sort();
      },
      { timeout: 30_000, message: 'alert rules loaded and evaluated without error' },
    )
    .toEqual(rules.map((rule: { alert: string }) => rule.alert).sort());

  // Traffic through the gateway for the request panels: a user signs in and opens screens.
  const user = await signedIn(browser, 'user@portal.test');
  await user.goto('/requests');
  await user.goto('/savi');
  // Two scrapes after the traffic, so that rate() over the panels' windows has it.
  await new Promise((resolve) => setTimeout(resolve, 5_000));

  // Every query of the dashboard (what scripts/monitoring.mjs writes as portal.json, which
  // scripts/lib/monitoring.test.mjs keeps current), asked as Grafana asks it.
  const exprs = dashboardQueries() as { title: string; expr: string }[];
  expect(exprs.length).toBeGreaterThan(10);
  await expect.poll(() => dashboardProblems(base), { timeout: 30_000 }).toEqual([]);

  // What the operators look at first: each queue's waiting jobs, and the request rates by service.
  const waitingPanel = exprs.find(({ title }) => title === 'Jobs waiting by queue');
  expect(waitingPanel, 'the dashboard has the "Jobs waiting by queue" panel').toBeDefined();
  await expect
    .poll(
      async () => (await query(waitingPanel!.expr)).data.result.map((series) => series.metric.queue).sort(),
      {
        timeout: 30_000,
      },
    )
    .toEqual(expect.arrayContaining(QUEUES));
  const ratePanel = exprs.find(({ title }) => title === 'Requests per second by service');
  expect(ratePanel, 'the dashboard has the "Requests per second by service" panel').toBeDefined();
  await expect
    .poll(async () => (await query(ratePanel!.expr)).data.result.map((series) => series.metric.service), {
      timeout: 30_000,
    })
    .toEqual(expect.arrayContaining(['gateway', 'identity', 'requests']));
  const upPanel = exprs.find(({ expr }) => expr === 'up');
  const up = await query(upPanel!.expr);
  expect(up.data.result).toHaveLength(targets.length);
});
