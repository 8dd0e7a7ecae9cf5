#!/usr/bin/env node
// npm run bench: prepares the machine like `npm start`, starts the portal on free ports with the main
// (seeded) database, runs the benchmarks of bench/, prints the figures and writes them to bench/results/.
// `node bench/run.mjs --only load,rolling-restart` runs just those.
// page-for-model brings its own throwaway database of 100 000 users and its own services-admin.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitOnPrepareError, prepare } from '../scripts/prepare.mjs';
import {
  freePortsForAll,
  portalProcesses,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { ROOT } from '../scripts/lib/system.mjs';
import { BENCH_PROCESS_ENV } from './lib/services.mjs';
import { measureScreens, writeScreensResults } from './screens.mjs';
import { measureGatewayOverhead } from './gateway-overhead.mjs';
import { measurePageForModel, writePageForModelResults } from './page-for-model.mjs';
import { measureGeoImport, measureOsmSideBySide } from './geo-import.mjs';
import { measureGeoSearch, writeGeoSearchResults } from './geo-search.mjs';
import { measureGeoTiles, writeGeoTilesResults } from './geo-tiles.mjs';
import { measureSaviTiming, writeSaviTimingResults } from './savi-timing.mjs';
import { measureRealtimeLatency, writeRealtimeLatencyResults } from './realtime-latency.mjs';
import { measureRequestPager, measureXlsxExport } from './request-pager.mjs';
import { measureIris } from './iris.mjs';
import { measureReportBuilder } from './reportbuilder.mjs';
import { measureAvsEditor } from './avs-editor.mjs';
import { measureImagery, writeImageryResults } from './imagery.mjs';
import { measureLoad, writeLoadResults } from './load.mjs';
import { measureRollingRestart, writeRollingRestartResults } from './rolling-restart.mjs';
import { measureMetering } from './metering.mjs';
import { measureWebhooks, writeWebhooksResults } from './webhooks.mjs';

// `--only load,rolling-restart` runs just those (names as the results' keys, or in kebab case); their
// figures are merged into bench/results/latest.json, the others' kept.
const onlyIndex = process.argv.indexOf('--only');
const only =
  onlyIndex > 0
    ? process.argv[onlyIndex + 1].split(',').map((name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase()))
    : null;
const wanted = (name) => !only || only.includes(name);
const NAMES = [
  'screens',
  'gatewayOverhead',
  'pageForModel',
  'geoImport',
  'geoSearch',
  'geoTiles',
  'saviTiming',
  'realtimeLatency',
  'requestPager',
  'xlsxExport',
  'iris',
  'reportBuilder',
  'avsEditor',
  'imagery',
  'load',
  'rollingRestart',
  'metering',
  'webhooks',
];
const unknown = (only ?? []).filter((name) => !NAMES.includes(name));
if (unknown.length) {
  console.error(`No benchmark ${unknown.join(', ')}; there are: ${NAMES.join(', ')}.`);
  process.exit(2);
}

await exitOnPrepareError(() => prepare({ osm2pgsql: wanted('geoImport') }));
/** The benchmarks in order: each a thunk, given the gateway and identity of the portal started here. */
const benchmarks = {
  // Every screen, cold, in Chromium through the portal started here (5 loads each).
  screens: async ({ gateway }) => writeScreensResults(await measureScreens({ baseUrl: gateway, runs: 5 })),
  gatewayOverhead: ({ gateway, identity }) => measureGatewayOverhead(gateway, identity, 8),
  pageForModel: async () => writePageForModelResults(await measurePageForModel({ users: 100_000 })),
  // The synthetic extract and GeoJSON, then the generated world at 1 M beside osm2pgsql (10 M: by hand,
  // node bench/geo-import.mjs --scales 10000000, it takes hours).
  geoImport: async () => ({
    ...(await measureGeoImport({ addresses: 200_000, parcels: 100_000 })),
    osm2pgsql: await measureOsmSideBySide({ scales: [1_000_000] }),
  }),
  geoSearch: async () => writeGeoSearchResults(await measureGeoSearch({ scale: 1_000_000 })),
  geoTiles: async () => writeGeoTilesResults(await measureGeoTiles({ scale: 1_000_000 })),
  // Starts its own portal on the geodata bench database (a browser per run).
  saviTiming: async () => writeSaviTimingResults(await measureSaviTiming({ scale: 1_000_000 })),
  realtimeLatency: async ({ gateway }) =>
    writeRealtimeLatencyResults(await measureRealtimeLatency({ base: gateway, edits: 100 })),
  // Its own database of 1 000 000 requests (made once) and its own requests service and worker.
  requestPager: () => measureRequestPager({ samples: 20, count: 1_000_000 }),
  xlsxExport: () => measureXlsxExport({ rows: 100_000 }),
  // Its own database with the risk layers, its own iris service and workers (one, then two).
  iris: () => measureIris(),
  // Its own database; the report builder service and its PDF worker.
  reportBuilder: () => measureReportBuilder(),
  // The address editor over the geodata bench database, its service in this process.
  avsEditor: () => measureAvsEditor(),
  // Its own database (a generated suburb with dated buildings and three surveys), the locator in this process.
  imagery: async () => writeImageryResults(await measureImagery()),
  // Its own portal (identity, locator, requests, gateway) over the bench databases: 50 connections.
  load: async () => writeLoadResults(await measureLoad({ seconds: 12, connections: 50 })),
  // Its own portals: two instances of every service, then one, each restarted under load.
  rollingRestart: async () => writeRollingRestartResults(await measureRollingRestart({ clients: 20 })),
  // Its own locators (metering off, on; a session, an API key) over a generated database.
  metering: () => measureMetering(),
  // Its own requests worker and a receiver: a status change to the receiver's signed callback.
  webhooks: async () => writeWebhooksResults(await measureWebhooks()),
};
if (Object.keys(benchmarks).join() !== NAMES.join())
  throw new Error('bench/run.mjs: NAMES and benchmarks differ.');
// The portal started here serves the benchmarks that take a running one.
const needsPortal = ['screens', 'gatewayOverhead', 'realtimeLatency'].some(wanted);
const ports = await freePortsForAll();
const table = portalProcesses({ ports, varDir: join(ROOT, 'var', 'bench'), env: BENCH_PROCESS_ENV });
const running = needsPortal
  ? table.map((spec) => startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `${spec.name}.log`) }))
  : [];
try {
  await Promise.all(running.map((service) => waitUntilReady(service)));
  const portal = {
    gateway: `http://localhost:${ports.gateway}`,
    identity: `http://127.0.0.1:${ports.identity}`,
  };
  const latestFile = join(ROOT, 'bench', 'results', 'latest.json');
  const results = {
    ...(only && existsSync(latestFile) ? JSON.parse(readFileSync(latestFile, 'utf8')) : {}),
    machine: { cores: (await import('node:os')).cpus().length, node: process.version },
  };
  for (const [name, measure] of Object.entries(benchmarks))
    if (wanted(name)) results[name] = await measure(portal);
  console.log(JSON.stringify(results, null, 2));
  writeFileSync(latestFile, JSON.stringify(results, null, 2) + '\n');
} finally {
  await stopProcesses(running);
}
