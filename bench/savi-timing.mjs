// The request tool's two waits, in Chromium through the portal (gateway, identity, locator, requests, the
// shell and the mf-locator remote, all as built) on the geodata bench dataset (portal_bench_geo):
//
// - search: from Enter in the address box to the result list drawn (geocode call, React render);
// - parcel: from a click on the first result to its parcel drawn on the map (reverse call, the outline
//   rendered by OpenLayers: LocatorMap's data-parcel-drawn, set on the layer's first postrender).
//
// Both timed inside the page (performance.now around the event and a MutationObserver), so Playwright's
// own round trips are not counted. p50/p95 over --searches addresses (default 50) picked at random (fixed
// seed) from the dataset, after --warmup searches not counted (first chunk loads, JIT). Targets ≤ 300 ms.
//
// Each address is typed into the box key by key, --type-delay ms apart (default 40: 25 keys a second,
// faster than anyone types), as a user must type it: the keys clear the last results and selection and
// the suggestions run as they would, and the last place's map tiles load meanwhile. --pause adds ms of
// reading before typing (default 0); `--type-delay 0 --pause 0` fills the box at once and presses Enter
// while the last place's tiles are still loading (a stress case no user can produce).
//
// Usage: node bench/savi-timing.mjs [--scale 1000000] [--searches 50] [--warmup 3] [--type-delay 40]
//        [--pause 0]
// Needs the portal built (npx nx run-many -t build -p @portal/shell @portal/mf-locator @portal/identity
// @portal/locator @portal/requests @portal/gateway @portal/services-admin) and PostgreSQL + Redis running.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import {
  freePortsForAll,
  portalProcesses,
  ROOT,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { ensureGeoBenchDatabase } from './lib/geo-dataset.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'savi-timing.json');
const TARGET_MS = 300;
const OPTION_TITLE = 'Search by Street Address';

/** Seeds the demo accounts into the bench database (idempotent), for the browser to log in with. */
async function seedAccounts(url) {
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const dataSource = db.createDataSource(url);
  await dataSource.initialize();
  try {
    await db.seed(dataSource);
    return { email: 'user@portal.test', password: db.DEMO_PASSWORD };
  } finally {
    await dataSource.destroy();
  }
}

/** Addresses on parcels, as a user would type them, in a fixed random order. */
async function pickAddresses(url, count) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT house_number, street_name, town, parcel_id::text
         FROM geo.addresses
        WHERE parcel_id IS NOT NULL AND unit IS NULL AND house_number <> '' AND town <> ''
        ORDER BY md5(id::text || 'savi-timing') LIMIT $1`,
      [count],
    );
    return rows.map((row) => ({ query: `${row.house_number} ${row.street_name}, ${row.town}`, ...row }));
  } finally {
    await client.end();
  }
}

async function startPortal(databaseUrl) {
  const ports = await freePortsForAll();
  const gatewayPort = ports.gateway;
  const runDir = join(ROOT, 'var', 'bench-savi');
  const table = portalProcesses({
    ports,
    databaseUrl,
    varDir: runDir,
    publicUrl: `http://localhost:${gatewayPort}`,
    env: { AUTH_ATTEMPTS_PER_IP: '100000', AUTH_ATTEMPTS_PER_EMAIL: '100000' },
  });
  const running = table.map((spec) =>
    startProcess(spec, { logFile: join(runDir, 'logs', `${spec.name}.log`) }),
  );
  try {
    await Promise.all(running.map((service) => waitUntilReady(service)));
  } catch (error) {
    await stopProcesses(running);
    throw error;
  }
  return { baseUrl: `http://localhost:${gatewayPort}`, stop: () => stopProcesses(running) };
}

/** Presses Enter in the box (already filled) and waits for the result list: ms inside the page. */
function timeSearch(page) {
  return page.evaluate(
    (title) =>
      new Promise((resolve, reject) => {
        const box = document.querySelector(`input[aria-label="${title}"]`);
        if (!box) return reject(new Error('no search box'));
        const found = () => document.querySelector('ul[aria-label="Search results"] [role="button"]');
        const timeout = setTimeout(() => reject(new Error('no results within 10 s')), 10_000);
        const started = performance.now();
        box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        // The Enter handler drops the old results at once (React flushes discrete events synchronously).
        // Only results drawn after the old ones went count.
        let cleared = !found();
        const observer = new MutationObserver(() => {
          if (!found()) {
            cleared = true;
            return;
          }
          if (!cleared) return;
          observer.disconnect();
          clearTimeout(timeout);
          resolve(performance.now() - started);
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
    OPTION_TITLE,
  );
}

/** Clicks the first result and waits for its parcel drawn on the map: ms inside the page. */
function timeParcel(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const map = document.querySelector('[data-testid="locator-map"]');
        const first = document.querySelector('ul[aria-label="Search results"] [role="button"]');
        if (!map || !first) return reject(new Error('no map or no result'));
        const timeout = setTimeout(() => reject(new Error('no parcel drawn within 10 s')), 10_000);
        const started = performance.now();
        first.click();
        const observer = new MutationObserver(() => {
          if (!map.getAttribute('data-parcel-drawn')) return;
          observer.disconnect();
          clearTimeout(timeout);
          resolve(performance.now() - started);
        });
        observer.observe(map, { attributes: true, attributeFilter: ['data-parcel-drawn'] });
      }),
  );
}

const summary = (samples) => ({
  p50: round(percentile(samples, 50)),
  p95: round(percentile(samples, 95)),
  max: round(Math.max(...samples)),
  targetMs: TARGET_MS,
  met: percentile(samples, 95) <= TARGET_MS,
});

const callSummary = (samples) => ({
  p50: round(percentile(samples, 50)),
  p95: round(percentile(samples, 95)),
});

export async function measureSaviTiming({
  scale = 1_000_000,
  searches = 50,
  warmup = 3,
  typeDelayMs = 40,
  pauseMs = 0,
} = {}) {
  const databaseUrl = await ensureGeoBenchDatabase({ scale });
  const account = await seedAccounts(databaseUrl);
  const addresses = await pickAddresses(databaseUrl, searches + warmup);
  const portal = await startPortal(databaseUrl);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const search = [];
  const parcel = [];
  // The calls' own share (resource timing in the page: request sent to answer read).
  const geocodeCalls = [];
  const reverseCalls = [];
  let noParcel = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${portal.baseUrl}/auth/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
    await page.goto(`${portal.baseUrl}/savi`);
    await page.getByRole('button', { name: new RegExp(`^${OPTION_TITLE}`) }).click();
    const box = page.getByRole('textbox', { name: OPTION_TITLE });
    for (const [index, address] of addresses.entries()) {
      // A user reads the answer and types the next address; the map's tile loads for the last place
      // (parsed on the main thread) go on meanwhile, as they would.
      if (pauseMs > 0) await page.waitForTimeout(pauseMs);
      if (typeDelayMs > 0) {
        await box.clear();
        await box.pressSequentially(address.query, { delay: typeDelayMs });
      } else {
        await box.fill(address.query);
      }
      const searchMs = await timeSearch(page);
      // The previous parcel is gone once the new results are in (nothing is selected).
      await page.waitForFunction(
        () => !document.querySelector('[data-testid="locator-map"]')?.getAttribute('data-parcel-drawn'),
      );
      let parcelMs = null;
      try {
        parcelMs = await timeParcel(page);
      } catch {
        // A first result without a parcel (a street or a place) draws none: counted apart.
        noParcel += index >= warmup ? 1 : 0;
      }
      const calls = await page.evaluate(() => {
        const last = (path) =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => new URL(entry.name).pathname === path)
            .at(-1)?.duration ?? null;
        const answer = { geocode: last('/api/avs/geocode'), reverse: last('/api/avs/reverse') };
        performance.clearResourceTimings();
        return answer;
      });
      if (index < warmup) continue;
      search.push(searchMs);
      if (calls.geocode !== null) geocodeCalls.push(calls.geocode);
      if (parcelMs !== null) parcel.push(parcelMs);
      if (calls.reverse !== null) reverseCalls.push(calls.reverse);
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
  return {
    measuredAt: new Date().toISOString(),
    dataset: `portal_bench_geo, ${scale} addresses`,
    searches: search.length,
    warmup,
    typeDelayMs,
    pauseMs,
    enterToResultsMs: { ...summary(search), geocodeCall: callSummary(geocodeCalls) },
    selectionToParcelMs: {
      ...summary(parcel),
      withoutParcel: noParcel,
      reverseCall: callSummary(reverseCalls),
    },
  };
}

/** Writes the figures to bench/results/savi-timing.json and returns them (for bench/run.mjs). */
export function writeSaviTimingResults(result) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const result = await measureSaviTiming({
    scale: Number(arg('scale', '1000000')),
    searches: Number(arg('searches', '50')),
    warmup: Number(arg('warmup', '3')),
    typeDelayMs: Number(arg('type-delay', '40')),
    pauseMs: Number(arg('pause', '0')),
  });
  console.log(JSON.stringify(writeSaviTimingResults(result), null, 2));
}
