#!/usr/bin/env node
// npm run bench: prepares the machine like `npm start`, starts the portal on free ports with the main
// (seeded) database, runs the benchmarks of bench/, prints the figures and writes them to bench/results/.
// page-for-model brings its own throwaway database of 100 000 users and its own services-admin.
import { writeFileSync } from 'node:fs';
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
import { measureLoginPage } from './login-page.mjs';
import { measureGatewayOverhead } from './gateway-overhead.mjs';
import { measurePageForModel, writePageForModelResults } from './page-for-model.mjs';
import { measureGeoImport } from './geo-import.mjs';
import { measureGeoSearch, writeGeoSearchResults } from './geo-search.mjs';
import { measureGeoTiles, writeGeoTilesResults } from './geo-tiles.mjs';
import { measureSaviTiming, writeSaviTimingResults } from './savi-timing.mjs';
import { measureRealtimeLatency, writeRealtimeLatencyResults } from './realtime-latency.mjs';
import { measureRequestPager, measureXlsxExport } from './request-pager.mjs';
import { measureIris } from './iris.mjs';
import { measureReportBuilder } from './reportbuilder.mjs';
import { measureAvsEditor } from './avs-editor.mjs';

await exitOnPrepareError(() => prepare());
const ports = await freePortsForAll();
// Benchmarks log in many times from one address: the limits would measure themselves instead.
const table = portalProcesses({
  ports,
  varDir: join(ROOT, 'var', 'bench'),
  env: {
    AUTH_ATTEMPTS_PER_IP: '100000',
    AUTH_ATTEMPTS_PER_EMAIL: '100000',
    LOG_LEVEL: 'warn',
    REQUEST_QUEUE_PREFIX: 'bench',
    IRIS_QUEUE_PREFIX: 'bench',
    REPORTBUILDER_QUEUE_PREFIX: 'bench',
  },
});
const running = table.map((spec) =>
  startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `${spec.name}.log`) }),
);
try {
  await Promise.all(running.map((service) => waitUntilReady(service)));
  const gateway = `http://localhost:${ports.gateway}`;
  const results = {
    machine: { cores: (await import('node:os')).cpus().length, node: process.version },
    loginPage: await measureLoginPage(gateway, 15),
    gatewayOverhead: await measureGatewayOverhead(gateway, `http://127.0.0.1:${ports.identity}`, 8),
    pageForModel: writePageForModelResults(await measurePageForModel({ users: 100_000 })),
    geoImport: await measureGeoImport({ addresses: 200_000, parcels: 100_000 }),
    geoSearch: writeGeoSearchResults(await measureGeoSearch({ scale: 1_000_000 })),
    geoTiles: writeGeoTilesResults(await measureGeoTiles({ scale: 1_000_000 })),
    // Starts its own portal on the geodata bench database (a browser per run).
    saviTiming: writeSaviTimingResults(await measureSaviTiming({ scale: 1_000_000 })),
    realtimeLatency: writeRealtimeLatencyResults(await measureRealtimeLatency({ base: gateway, edits: 100 })),
    // Its own database of 1 000 000 requests (made once) and its own requests service and worker.
    requestPager: await measureRequestPager({ samples: 20, count: 1_000_000 }),
    xlsxExport: await measureXlsxExport({ rows: 100_000 }),
    // Its own database with the risk layers, its own iris service and workers (one, then two).
    iris: await measureIris(),
    // Its own database; the report builder service and its PDF worker.
    reportBuilder: await measureReportBuilder(),
    // The address editor over the geodata bench database, its service in this process.
    avsEditor: await measureAvsEditor(),
  };
  console.log(JSON.stringify(results, null, 2));
  writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), JSON.stringify(results, null, 2) + '\n');
} finally {
  await stopProcesses(running);
}
