// Every screen of the portal in Chromium, cold: the login page and each signed-in screen of the shell and of
// every remote, each opened by an account whose role may open it, --runs times (default 5), each time in a
// fresh browser context (nothing cached; the session cookie comes from a login call made before the page
// is opened, so the page load is the only thing the browser fetches). Per screen:
//
// - JavaScript: bytes as transferred (compressed body, the encoding the browser and the gateway agreed on)
//   and the number of script files; how many of them were asked for before the first paint;
// - all requests the page made until the network was idle;
// - when `GET users/me` (the session) was asked for, beside when the first script was: the session should
//   be asked for with the code, not after it;
// - first contentful paint and largest contentful paint: p50 and p95 over the runs.
//
// The screens come from the remotes' PATHS (src/paths.ts of each mf-*): every path there must have a line in
// SCREENS below (which account opens it, with which query), so a new screen cannot be left out unnoticed.
// Targets (issue 23): LCP p95 ≤ 1 000 ms; JavaScript ≤ 350 KB (≤ 600 KB on a screen with a map); ≤ 15 script
// requests before the first paint.
//
// Usage: node bench/screens.mjs [--runs 5] [--only /savi,/iris] [--url http://localhost:8080] [--waterfall]
// --waterfall prints, for the first load of each screen, every script and call with when it was asked for and
// when it arrived (ms after navigation) beside the paints: where a screen's time goes. A run with --only
// leaves results/screens.json as it is (the table is of every screen).
// Without --url it starts a portal of its own on free ports (the main database, as built: npx nx run-many
// -t build first). Needs PostgreSQL (a located address for the request the request screens open).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import {
  freePortsForAll,
  portalProcesses,
  ROOT,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { databaseUrl } from '../scripts/lib/settings.mjs';
import { reportHouse, reportImprovement } from './lib/reports.mjs';
import { BENCH_PROCESS_ENV } from './lib/services.mjs';
import { benchLog, flag, numberOption, option } from './lib/cli.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('screens');
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'screens.json');
const PASSWORD = 'Portal-demo-2026';
export const TARGETS = { lcpP95Ms: 1000, scriptKB: 350, scriptKBWithMap: 600, scriptsBeforePaint: 15 };

/**
 * Each screen: its path, the account that opens it, the query it needs ({request}, {lat}, {lng}: the bench's
 * request), whether it shows a map (the larger JavaScript budget) and a selector that shows it is drawn.
 */
const SCREENS = [
  { path: '/auth/login', account: null, ready: 'input[name="email"]' },
  { path: '/', account: 'user@portal.test' },
  // mf-locator
  { path: '/savi', account: 'user@portal.test', map: true },
  { path: '/avs', account: 'user@portal.test', map: true },
  { path: '/locate', account: 'user@portal.test', map: true },
  { path: '/spatialkey', account: 'user@portal.test', map: true },
  // mf-iris
  { path: '/iris', account: 'user@portal.test', map: true },
  // mf-avs-editor
  { path: '/avs/editor', account: 'operator@portal.test', map: true },
  // mf-requests-admin
  { path: '/requests', account: 'user@portal.test' },
  { path: '/requests/admin', account: 'operator@portal.test' },
  {
    path: '/requests/admin/qs-checklist',
    account: 'operator@portal.test',
    query: 'requestID={request}&lat={lat}&lng={lng}',
    map: true,
  },
  {
    path: '/requests/admin/qc-checklist',
    account: 'qc@portal.test',
    query: 'requestID={request}&lat={lat}&lng={lng}',
    map: true,
  },
  {
    path: '/requests/admin/qc-checklist-launcher',
    account: 'qc@portal.test',
    query: 'requestID={request}&lat={lat}&lng={lng}',
    map: true,
  },
  {
    path: '/requests/admin/duplicate-check',
    account: 'operator@portal.test',
    query: 'requestID={request}',
    map: true,
  },
  {
    path: '/requests/admin/satellite-map',
    account: 'operator@portal.test',
    query: 'requestID={request}&lat={lat}&lng={lng}',
    map: true,
  },
  { path: '/requests/insight', account: 'admin@portal.test' },
  // mf-reportbuilder: a report as a valuer sees it while building it (benchReport: a request in progress
  // with a residential section, its building and their improvements), each screen on that section,
  // building or improvement ({report} and the ids REPORT_SECTION_ID and 0)
  { path: '/reportbuilder/property-overview', account: 'operator@portal.test', query: 'requestID={report}' },
  {
    path: '/reportbuilder/section-overview',
    account: 'operator@portal.test',
    query: 'requestID={report}&sectionID={section}',
  },
  {
    path: '/reportbuilder/building-overview',
    account: 'operator@portal.test',
    query: 'requestID={report}&sectionID={section}&buildingID=0',
  },
  {
    path: '/reportbuilder/building-improvement-overview',
    account: 'operator@portal.test',
    query: 'requestID={report}&sectionID={section}&buildingID=0&improvementID=0',
  },
  {
    path: '/reportbuilder/section-improvement-overview',
    account: 'operator@portal.test',
    query: 'requestID={report}&sectionID={section}&improvementID=0',
  },
  {
    path: '/reportbuilder/leaflet-page',
    account: 'operator@portal.test',
    query: 'requestID={report}&sectionID={section}&improvementID=0',
    map: true,
  },
  { path: '/reportbuilder/view-report', account: 'operator@portal.test', query: 'requestID={report}' },
  {
    path: '/reportbuilder/edit-report-address',
    account: 'operator@portal.test',
    query: 'requestID={report}',
  },
  // mf-services-admin
  { path: '/services/admin', account: 'admin@portal.test' },
  { path: '/services/admin/users', account: 'admin@portal.test' },
  { path: '/services/admin/groups', account: 'admin@portal.test' },
  // The rates editor as it is opened, on a group (ratesHref: ?groupID=…); without one it only says so.
  { path: '/services/admin/rates', account: 'rates@portal.test', query: 'groupID={group}' },
  { path: '/services/admin/usage', account: 'admin@portal.test' },
  { path: '/services/admin/groups/:groupId/api-keys', account: 'admin@portal.test' },
  { path: '/services/admin/groups/:groupId/webhooks', account: 'admin@portal.test' },
  { path: '/services/admin/my-group', account: 'claims@portal.test', skip: 'opens my-group/api-keys' },
  { path: '/services/admin/my-group/api-keys', account: 'claims@portal.test' },
  { path: '/services/admin/my-group/webhooks', account: 'claims@portal.test' },
  { path: '/services/admin/my-group/usage', account: 'claims@portal.test' },
];

/** Every `'/…'` string value inside `export const PATHS = { … }` of each remote's src/paths.ts. */
function remotePaths() {
  const remotes = JSON.parse(readFileSync(join(ROOT, 'config', 'remotes.json'), 'utf8')).remotes;
  return remotes.flatMap((remote) => {
    const source = readFileSync(join(ROOT, remote.dist, '..', 'src', 'paths.ts'), 'utf8');
    const block = source.match(/export const PATHS = \{([\s\S]*?)\}\s*as const/)?.[1] ?? '';
    // Another remote's path named for a link (reportbuilder's requestsAdmin) is that remote's screen.
    const own = remote.routes.map((prefix) => prefix.replace(/\/+$/, ''));
    return [...block.matchAll(/:\s*'(\/[^']*)'/g)]
      .map((m) => m[1])
      .filter((path) => own.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)));
  });
}

/** The screens to measure; fails when a remote declares a path SCREENS does not list. */
export function screensToMeasure() {
  const listed = new Set(SCREENS.map((screen) => screen.path));
  const declared = remotePaths();
  const missing = declared.filter((path) => !listed.has(path));
  if (missing.length)
    throw new Error(`bench/screens.mjs: add ${missing.join(', ')} to SCREENS (which account opens it).`);
  // A listed remote path no remote declares any more (or not yet) is left out.
  const declaredSet = new Set(declared);
  return SCREENS.filter(
    (screen) =>
      !screen.skip && (screen.account === null || screen.path === '/' || declaredSet.has(screen.path)),
  );
}

async function startPortal() {
  const ports = await freePortsForAll();
  const runDir = join(ROOT, 'var', 'bench-screens');
  const table = portalProcesses({ ports, varDir: runDir, env: BENCH_PROCESS_ENV });
  const running = table.map((spec) =>
    startProcess(spec, { logFile: join(runDir, 'logs', `${spec.name}.log`) }),
  );
  try {
    // Three minutes: on a shared 2-core machine a service can take more than the usual minute to start.
    await Promise.all(running.map((service) => waitUntilReady(service, 180_000)));
  } catch (error) {
    await stopProcesses(running);
    throw error;
  }
  return { baseUrl: `http://localhost:${ports.gateway}`, stop: () => stopProcesses(running) };
}

/** A located point of the database's geodata, and KMI's group id (the group pages' :groupId). */
async function benchData(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const [point] = (
      await client.query(
        `SELECT ST_Y(point) AS lat, ST_X(point) AS lng FROM geo.addresses
          WHERE parcel_id IS NOT NULL AND unit IS NULL AND house_number <> '' ORDER BY id LIMIT 1`,
      )
    ).rows;
    const [group] = (await client.query(`SELECT id::text FROM identity.groups WHERE code = 'KMI'`)).rows;
    return { point, groupId: group?.id };
  } catch (error) {
    throw new Error(
      `bench/screens.mjs reads a located address and KMI's group from ${url}: ${error.message}`,
    );
  } finally {
    await client.end();
  }
}

/** Logs `account` in inside `context` (its cookie jar), by the login call the login page makes. */
async function logIn(context, baseUrl, account) {
  const answer = await context.request.post(`${baseUrl}/api/v1.0/login`, {
    data: { email: account, password: PASSWORD },
  });
  if (!answer.ok()) throw new Error(`Login as ${account}: ${answer.status()} ${await answer.text()}`);
}

/**
 * A SAVi request of user@portal.test at the point, made once per key (a fixed Idempotency-Key: the same
 * request on every run of the bench): `bench-screens-request-1` is the one the request screens open, as
 * created; `bench-screens-report-1` the report screens' (benchReport).
 */
async function benchRequest(browser, baseUrl, point, key = 'bench-screens-request-1') {
  const context = await browser.newContext();
  try {
    await logIn(context, baseUrl, 'user@portal.test');
    const reverse = await context.request.post(`${baseUrl}/api/avs/reverse`, {
      data: { lat: point.lat, lng: point.lng, searchOption: 'address' },
    });
    if (!reverse.ok()) throw new Error(`reverse: ${reverse.status()} ${await reverse.text()}`);
    const { result } = await reverse.json();
    const created = await context.request.put(`${baseUrl}/api/v1.0/request/`, {
      data: {
        requestType: 'SAVI',
        requestSubType: 'Replacement Value Estimate',
        Searched_For: result.address.formatted_address,
        mode: 'address',
        Selected_Address: result.address.formatted_address,
        coordinates: point,
        selected: result.address,
        parcel: result.parcel,
        reference: { POLICY_NUMBER: 'KM000023' },
      },
      headers: { 'Idempotency-Key': key },
    });
    if (!created.ok()) throw new Error(`request: ${created.status()} ${await created.text()}`);
    return created.headers()['location'].match(/\/request\/([^/]+)\/any/)[1];
  } finally {
    await context.close();
  }
}

/** The section the report screens open (a section's id: letters, digits, '_' and '-'). */
const REPORT_SECTION_ID = 'bench-main-house';

/**
 * The request the report screens open, as a valuer has it while building the report: started (In
 * progress) and with a residential section — a two-storey house with a paved yard, and a driveway on the
 * section itself — saved through the report builder's API as its screens save it. Made once: a request
 * already in progress with sections is used as it is.
 */
async function benchReport(browser, baseUrl, point) {
  const id = await benchRequest(browser, baseUrl, point, 'bench-screens-report-1');
  const context = await browser.newContext();
  try {
    await logIn(context, baseUrl, 'operator@portal.test');
    const api = `${baseUrl}/api/v1.0`;
    const report = await (await context.request.get(`${api}/reportbuilder/sections/${id}`)).json();
    if (Object.keys(report.sections ?? {}).length) return id;
    // New → Ready for QS (the QS check) → In progress (Start report), as the console moves it.
    const steps =
      { New: ['Ready for QS', 'In progress'], 'Ready for QS': ['In progress'] }[report.status] ?? [];
    for (const status of steps) {
      const moved = await context.request.post(`${api}/request/update_status`, { data: { _id: id, status } });
      if (!moved.ok()) throw new Error(`update_status ${status}: ${moved.status()} ${await moved.text()}`);
    }
    const marker = (number) => ({ lat: point.lat, lng: point.lng, number });
    const saved = await context.request.post(`${api}/reportbuilder/section`, {
      data: {
        ID: id,
        sections: {
          [REPORT_SECTION_ID]: {
            name: 'Main house',
            type: 'Residential',
            includeImage: true,
            comment: '',
            marker: marker(1),
            groups: [{ name: 'Main' }],
            improvements: [reportImprovement('Driveway', 60, marker(2))],
            buildings: [
              reportHouse({
                name: 'House',
                marker: marker(1),
                floors: [
                  [180, false, 'Ground'],
                  [120, false, 'First'],
                ],
                improvements: [reportImprovement('Paved yard', 150, marker(3))],
              }),
            ],
          },
        },
      },
    });
    if (!saved.ok()) throw new Error(`report sections: ${saved.status()} ${await saved.text()}`);
    return id;
  } finally {
    await context.close();
  }
}

/** What the page itself saw: paints, and every resource it fetched (resource timing, same origin). */
function readPage() {
  return new Promise((resolve) => {
    let lcp = NaN;
    let lcpElement = null;
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      const last = entries[entries.length - 1];
      lcp = last.startTime;
      // What painted last as the largest: where to look when a screen is over the budget.
      const element = last.element;
      lcpElement = element
        ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}` +
          `${last.url ? ` ${new URL(last.url).pathname}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`
        : null;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    // The observer's buffered entries arrive in a task of their own.
    setTimeout(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const resources = performance.getEntriesByType('resource').map((entry) => ({
        url: entry.name,
        type: entry.initiatorType,
        start: entry.startTime,
        end: entry.responseEnd,
        bytes: entry.encodedBodySize,
        transferred: entry.transferSize,
      }));
      resolve({ fcp, lcp, lcpElement, resources });
    }, 100);
  });
}

const isScript = (url) => /\.m?js$/.test(new URL(url).pathname);

/**
 * Which container served a script, and its file in the build: `/remotes/<name>/<file>` is that remote's
 * dist (config/remotes.json), anything else the shell's.
 */
function scriptFile(url) {
  const { pathname } = new URL(url);
  const remote = pathname.match(/^\/remotes\/([^/]+)\/(.+)$/);
  if (!remote) return { container: 'shell', file: join(ROOT, 'shell', 'dist', pathname.slice(1)) };
  const entry = JSON.parse(readFileSync(join(ROOT, 'config', 'remotes.json'), 'utf8')).remotes.find(
    (r) => r.name === remote[1],
  );
  return entry ? { container: remote[1], file: join(ROOT, entry.dist, remote[2]) } : null;
}

const sourcesOfFile = new Map();

/**
 * The modules a built script holds, from its source map: a module's path in the workspace
 * (`node_modules/@mui/material/Menu/Menu.mjs`, `libs/web-kit/src/…`, `mf-locator/src/…`). Webpack's own
 * runtime modules (`webpack/runtime/…`, the share and container glue) are left out: every container
 * necessarily has its own.
 */
function modulesOfScript(file) {
  if (!sourcesOfFile.has(file)) {
    const map = `${file}.map`;
    const projectDir = join(file, '..', '..');
    const sources = existsSync(map) ? JSON.parse(readFileSync(map, 'utf8')).sources : [];
    sourcesOfFile.set(
      file,
      sources
        .map((source) => source.replace(/^webpack:\/\/[^/]*\//, ''))
        .filter((source) => !/^(webpack\/|external |ignored )/.test(source))
        .map((source) => relative(ROOT, join(projectDir, source.split('?')[0]))),
    );
  }
  return sourcesOfFile.get(file);
}

/**
 * The federation glue in each container's entry (`@module-federation/webpack-bundler-runtime` and what it
 * imports): webpack runtime bound to that container's `__webpack_require__`, one per container by design
 * ("It cant be external, it IS webpack runtime … this has to be 1 per runtime": module-federation-examples
 * #3821). Counted apart (`containerRuntime`) like webpack's own runtime; `runtime-core` is the shell's.
 */
const CONTAINER_FEDERATION_GLUE = /^node_modules\/@module-federation\//;
const isContainerEntry = (script) => /\/(main|remoteEntry)\.js$/.test(script);

/**
 * Modules shipped twice on one page: the same module in scripts from two different containers (the shell
 * and a remote, or two remotes), or in two scripts of one container. Each such module is a second copy of
 * code the page already had; for a module with state (a React context, OpenLayers' projections) it is
 * also a second, disconnected instance. Answers `[{ module, scripts: [container/file, …] }]`; with
 * `{ containerRuntime: true }`, the per-container federation glue instead (see above).
 */
export function modulesShippedTwice(scriptUrls, { containerRuntime = false } = {}) {
  const byModule = new Map();
  for (const url of scriptUrls) {
    const served = scriptFile(url);
    if (!served) continue;
    const name = `${served.container}/${served.file.split('/').pop()}`;
    for (const module of new Set(modulesOfScript(served.file))) {
      if (!byModule.has(module)) byModule.set(module, []);
      byModule.get(module).push(name);
    }
  }
  const glue = ([module, scripts]) =>
    CONTAINER_FEDERATION_GLUE.test(module) && scripts.every(isContainerEntry);
  return [...byModule]
    .filter((entry) => entry[1].length > 1 && glue(entry) === containerRuntime)
    .map(([module, scripts]) => ({ module, scripts }));
}

/**
 * Waits until the page has drawn text of its own in `main` and nothing more was fetched for 600 ms. On a busy
 * 2-core machine 'networkidle' (500 ms without a request) can come while the page's scripts are still
 * running, before the page asks for its next chunk: such a load was measured half-drawn (a tenth of its
 * scripts, no largest paint).
 */
async function pageDrawn(page) {
  await page
    .waitForFunction(() => (document.querySelector('main')?.textContent ?? '').trim().length > 0, null, {
      timeout: 20_000,
    })
    .catch(() => undefined);
  let seen = -1;
  for (let waited = 0; waited < 15_000; waited += 600) {
    const count = await page.evaluate(() => performance.getEntriesByType('resource').length);
    if (count === seen) return;
    seen = count;
    await page.waitForTimeout(600);
  }
}

async function measureOnce(browser, baseUrl, screen, url) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    if (screen.account) await logIn(context, baseUrl, screen.account);
    const page = await context.newPage();
    // A map screen fetches hundreds of tiles: keep every entry (the default buffer holds 250).
    await page.addInitScript(() => performance.setResourceTimingBufferSize(5000));
    const encodings = new Set();
    page.on('response', (response) => {
      if (isScript(response.url())) encodings.add(response.headers()['content-encoding'] ?? 'identity');
    });
    await page.goto(url, { waitUntil: 'networkidle', timeout: 30_000 }).catch((error) => {
      if (!/Timeout/.test(error.message)) throw error;
    });
    if (screen.ready) await page.waitForSelector(screen.ready, { timeout: 10_000 });
    await pageDrawn(page);
    const landed = new URL(page.url()).pathname;
    const { fcp, lcp, lcpElement, resources } = await page.evaluate(readPage);
    const scripts = resources.filter((r) => isScript(r.url));
    const session = resources.find((r) => new URL(r.url).pathname === '/api/v1.0/users/me');
    const firstScript = Math.min(...scripts.map((r) => r.start));
    const scriptUrls = [...new Set(scripts.map((r) => r.url))];
    const twice = modulesShippedTwice(scriptUrls);
    const containerRuntime = modulesShippedTwice(scriptUrls, { containerRuntime: true });
    return {
      landed,
      fcp,
      lcp,
      lcpElement,
      resources,
      scriptBytes: scripts.reduce((sum, r) => sum + r.bytes, 0),
      scripts: scripts.length,
      scriptsBeforePaint: scripts.filter((r) => r.start < fcp).length,
      requests: resources.length + 1, // + the page itself
      sessionAskedMs: session ? session.start : NaN,
      sessionAfterScripts: session ? scripts.filter((r) => r.end <= session.start).length : NaN,
      firstScriptMs: firstScript,
      encodings: [...encodings],
      twice,
      containerRuntime,
    };
  } finally {
    await context.close();
  }
}

const median = (values) => percentile(values, 50);

/** One load's scripts and calls in the order they were asked for, with the paints among them. */
function logWaterfall(path, sample) {
  const events = [
    ...sample.resources
      .filter((r) => r.type !== 'img' && !/\/tiles?\//.test(r.url))
      .map((r) => ({
        at: r.start,
        text: `${round(r.start)} → ${round(r.end)} ms  ${round(r.bytes / 1024)} KB  ${new URL(r.url).pathname}`,
      })),
    { at: sample.fcp, text: `${round(sample.fcp)} ms  first contentful paint` },
    { at: sample.lcp, text: `${round(sample.lcp)} ms  largest contentful paint: ${sample.lcpElement}` },
  ].sort((a, b) => a.at - b.at);
  log(`waterfall of ${path}:`);
  for (const event of events) log(`  ${event.text}`);
}

/** Measures every screen `runs` times against a running portal at `baseUrl`. */
export async function measureScreens({ baseUrl, runs = 5, only, waterfall = false } = {}) {
  const screens = screensToMeasure().filter((screen) => !only || only.includes(screen.path));
  const { point, groupId } = await benchData(databaseUrl());
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const results = [];
  try {
    const request = screens.some((s) => s.query?.includes('{request}'))
      ? await benchRequest(browser, baseUrl, point)
      : null;
    const report = screens.some((s) => s.query?.includes('{report}'))
      ? await benchReport(browser, baseUrl, point)
      : null;
    for (const screen of screens) {
      const query = (screen.query ?? '')
        .replace('{request}', request)
        .replace('{report}', report)
        .replace('{section}', REPORT_SECTION_ID)
        .replace('{group}', groupId)
        .replace('{lat}', String(point.lat))
        .replace('{lng}', String(point.lng));
      const path = screen.path.replace(':groupId', groupId);
      const url = `${baseUrl}${path}${query ? `?${query}` : ''}`;
      const samples = [];
      for (let run = 0; run < runs; run++) samples.push(await measureOnce(browser, baseUrl, screen, url));
      if (waterfall) logWaterfall(screen.path, samples[0]);
      const lcp = samples.map((s) => s.lcp).filter((v) => !Number.isNaN(v));
      const fcp = samples.map((s) => s.fcp).filter((v) => !Number.isNaN(v));
      const scriptKB = round(median(samples.map((s) => s.scriptBytes)) / 1024);
      const budgetKB = screen.map ? TARGETS.scriptKBWithMap : TARGETS.scriptKB;
      const row = {
        screen: screen.path,
        account: screen.account ?? 'anonymous',
        landed: samples[0].landed,
        map: !!screen.map,
        scriptKB,
        scripts: median(samples.map((s) => s.scripts)),
        scriptsBeforePaint: median(samples.map((s) => s.scriptsBeforePaint)),
        requests: median(samples.map((s) => s.requests)),
        sessionAskedMs: round(median(samples.map((s) => s.sessionAskedMs))),
        scriptsDoneBeforeSession: median(samples.map((s) => s.sessionAfterScripts)),
        fcpMs: { p50: round(percentile(fcp, 50)), p95: round(percentile(fcp, 95)) },
        lcpMs: { p50: round(percentile(lcp, 50)), p95: round(percentile(lcp, 95)) },
        // Every load's largest paint in order: for comparing two builds load by load (A/B runs).
        lcpLoadsMs: lcp.map(round),
        // The element of each load's largest paint, with how many loads it was.
        lcpElements: [
          ...samples
            .reduce((counts, s) => counts.set(s.lcpElement, (counts.get(s.lcpElement) ?? 0) + 1), new Map())
            .entries(),
        ].map(([element, loads]) => ({ element: element ?? 'none', loads })),
        encodings: [...new Set(samples.flatMap((s) => s.encodings))],
        // Every load of a screen fetches the same code; the first one's duplicates stand for all.
        modulesShippedTwice: samples[0].twice.length,
        twice: samples[0].twice.slice(0, 50), // the first 50: enough to see the cause
        // The federation glue of each container on the page (one per container by design; see above).
        federationGlueModules: samples[0].containerRuntime.length,
      };
      row.met =
        row.modulesShippedTwice === 0 &&
        scriptKB <= budgetKB &&
        row.scriptsBeforePaint <= TARGETS.scriptsBeforePaint &&
        percentile(lcp, 95) <= TARGETS.lcpP95Ms;
      log(
        `${row.screen} (${row.account}${row.landed !== path ? ` → ${row.landed}` : ''}): ${scriptKB} KB in ` +
          `${row.scripts} scripts (${row.scriptsBeforePaint} before paint), ${row.requests} requests, ` +
          `users/me at ${row.sessionAskedMs} ms after ${row.scriptsDoneBeforeSession} scripts, ` +
          `FCP p50 ${row.fcpMs.p50} ms, LCP p50 ${row.lcpMs.p50} / p95 ${row.lcpMs.p95} ms` +
          `${row.modulesShippedTwice ? `, ${row.modulesShippedTwice} modules shipped twice` : ''}` +
          `${row.federationGlueModules ? ` (and ${row.federationGlueModules} modules of per-container federation glue)` : ''}` +
          `${row.met ? '' : '  (over budget)'}`,
      );
      for (const { element, loads } of row.lcpElements)
        log(`  largest paint: ${element} (${loads} of ${runs})`);
      for (const { module, scripts } of row.twice.slice(0, 10))
        log(`  twice: ${module} in ${scripts.join(', ')}`);
      results.push(row);
    }
  } finally {
    await browser.close();
  }
  const { loadavg } = await import('node:os');
  return { runs, targets: TARGETS, loadAverage: loadavg().map((v) => round(v, 2)), screens: results };
}

/** Writes bench/results/screens.json and answers the result. */
export function writeScreensResults(result) {
  writeFileSync(RESULTS_FILE, JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = option('only', undefined)?.split(',');
  const runs = numberOption('runs', 5);
  const given = option('url', undefined);
  const portal = given ? { baseUrl: given, stop: async () => undefined } : await startPortal();
  try {
    const measured = await measureScreens({
      baseUrl: portal.baseUrl,
      runs,
      only,
      waterfall: flag('waterfall'),
    });
    const result = only ? measured : writeScreensResults(measured);
    // A module shipped twice is a build mistake, not noise: fail the run (the table still gets written).
    const twice = result.screens.filter((screen) => screen.modulesShippedTwice > 0);
    if (twice.length) {
      log(
        `modules shipped twice on ${twice.map((s) => `${s.screen} (${s.modulesShippedTwice})`).join(', ')}`,
      );
      process.exitCode = 1;
    }
  } finally {
    await portal.stop();
  }
}
