// The locator's memory and the geodata's footprint at a scale (issue 23, "Sizing at 10 M addresses").
//
// The built locator runs as a process of its own (as in production) over the scale's bench database
// (bench/lib/geo-dataset.mjs), and 8 clients call it without pause for --seconds: geocode (the relevance
// queries in turn), reverse at points on erven, and z14 parcel tiles of the densest areas. Its RSS is read
// from /proc every 100 ms (start, p50, max; target ≤ 512 MB), and the database's connections from the
// locator (pg_stat_activity) every second. Then the database size and what takes it: each geo table's heap,
// TOAST and indexes (pg_total_relation_size) and each index, in bytes per address.
//
// Usage: node bench/locator-memory.mjs [--scale 1000000] [--seconds 60] [--clients 8]
// Writes bench/results/locator-memory.json (locator-memory-10m.json at 10 M).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  freePortsForAll,
  portalProcesses,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { ROOT } from '../scripts/lib/system.mjs';
import { ensureGeoBenchDatabase, geoBenchDatabaseName } from './lib/geo-dataset.mjs';
import { BENCH_PROCESS_ENV, benchSessionCookie, buildProject } from './lib/services.mjs';
import { benchLog, numberOption } from './lib/cli.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('locator-memory');
const TARGET_RSS_MB = 512;

const rssMbOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
};

/** Bytes of each geo table (heap, TOAST, indexes) and each index, and per address. */
export async function geoSizes(client) {
  const [{ addresses }] = (await client.query(`SELECT count(*)::float8 AS addresses FROM geo.addresses`))
    .rows;
  const { rows: tables } = await client.query(
    `SELECT c.relname AS table, pg_total_relation_size(c.oid)::float8 AS total,
            pg_relation_size(c.oid)::float8 AS heap, pg_indexes_size(c.oid)::float8 AS indexes,
            (pg_total_relation_size(c.oid) - pg_relation_size(c.oid) - pg_indexes_size(c.oid))::float8 AS toast,
            c.reltuples::float8 AS rows
       FROM pg_class c WHERE c.relnamespace = 'geo'::regnamespace AND c.relkind = 'r'
      ORDER BY 2 DESC`,
  );
  const { rows: indexes } = await client.query(
    `SELECT i.relname AS index, t.relname AS table, pg_relation_size(i.oid)::float8 AS bytes
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relnamespace = 'geo'::regnamespace ORDER BY 3 DESC LIMIT 20`,
  );
  const [{ database }] = (
    await client.query(`SELECT pg_database_size(current_database())::float8 AS database`)
  ).rows;
  const mb = (bytes) => round(bytes / 1024 / 1024);
  const perAddress = (bytes) => round(bytes / addresses);
  const geoTotal = tables.reduce((sum, table) => sum + table.total, 0);
  return {
    addresses,
    databaseMb: mb(database),
    databaseBytesPerAddress: perAddress(database),
    geoMb: mb(geoTotal),
    geoBytesPerAddress: perAddress(geoTotal),
    tables: tables.map((t) => ({
      table: t.table,
      rows: t.rows,
      totalMb: mb(t.total),
      heapMb: mb(t.heap),
      indexesMb: mb(t.indexes),
      toastMb: mb(t.toast),
      bytesPerAddress: perAddress(t.total),
    })),
    largestIndexes: indexes.map((i) => ({
      index: i.index,
      table: i.table,
      mb: mb(i.bytes),
      bytesPerAddress: perAddress(i.bytes),
    })),
  };
}

export async function measureLocatorMemory({ scale = 1_000_000, seconds = 60, clients = 8 } = {}) {
  const url = await ensureGeoBenchDatabase({ scale });
  await buildProject('@portal/locator');
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  const ports = await freePortsForAll();
  const [spec] = portalProcesses({
    ports,
    databaseUrl: url,
    varDir: join(ROOT, 'var', 'bench'),
    only: ['locator'],
    env: BENCH_PROCESS_ENV,
  });
  const running = startProcess(spec, { logFile: join(ROOT, 'var', 'bench', 'locator-memory.log') });
  try {
    await waitUntilReady(running);
    const pid = running.child.pid;
    const base = `http://127.0.0.1:${spec.port}`;
    const cookie = benchSessionCookie({ sub: randomUUID(), email: 'bench@portal.test', name: 'Bench' });

    const queries = JSON.parse(readFileSync(join(ROOT, 'bench', 'relevance-queries.json'), 'utf8')).map(
      (q) => q.query,
    );
    const { rows: points } = await client.query(
      `SELECT ST_Y(point) AS lat, ST_X(point) AS lng FROM geo.addresses ORDER BY md5(id::text) LIMIT 500`,
    );
    const { rows: tiles } = await client.query(
      `WITH c AS (SELECT ST_X(point) AS lng, ST_Y(point) AS lat FROM geo.addresses ORDER BY md5(id::text) LIMIT 20000)
       SELECT floor((lng + 180) / 360 * 16384)::int AS x,
              floor((1 - ln(tan(radians(lat)) + 1 / cos(radians(lat))) / pi()) / 2 * 16384)::int AS y
         FROM c GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 200`,
    );
    const calls = [
      (i) => ({
        path: '/api/avs/geocode',
        body: { address: `${queries[i % queries.length]} South Africa` },
      }),
      (i) => ({ path: '/api/avs/reverse', body: points[i % points.length] }),
      (i) => ({
        path: `/api/v1.0/tiles/parcels/14/${tiles[i % tiles.length].x}/${tiles[i % tiles.length].y}.mvt`,
      }),
    ];

    const rss = [];
    const connections = [];
    const loads = [];
    const startRss = rssMbOf(pid);
    const sampler = setInterval(() => rss.push(rssMbOf(pid)), 100);
    const connectionSampler = setInterval(async () => {
      loads.push(loadavg()[0]);
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      connections.push(rows[0].n);
    }, 1000);
    const until = Date.now() + seconds * 1000;
    let requests = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = c; Date.now() < until; i += clients) {
          const { path, body } = calls[i % calls.length](Math.floor(i / calls.length));
          const res = await fetch(`${base}${path}`, {
            method: body ? 'POST' : 'GET',
            headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          });
          await res.arrayBuffer();
          requests += 1;
          if (res.status !== 200) failed += 1;
        }
      }),
    );
    clearInterval(sampler);
    clearInterval(connectionSampler);
    const maxRss = Math.max(...rss);
    return {
      scale,
      database: geoBenchDatabaseName(scale),
      locator: {
        seconds,
        clients,
        requests,
        failed,
        rssMb: {
          start: round(startRss),
          p50: round(percentile(rss, 50)),
          max: round(maxRss),
          samples: rss.length,
        },
        target: `RSS ≤ ${TARGET_RSS_MB} MB`,
        pass: maxRss <= TARGET_RSS_MB,
        databaseConnectionsMax: Math.max(...connections),
        loadAverage: { min: round(Math.min(...loads)), max: round(Math.max(...loads)) },
      },
      postgres: Object.fromEntries(
        await Promise.all(
          ['max_connections', 'shared_buffers', 'work_mem', 'maintenance_work_mem'].map(async (name) => [
            name,
            (await client.query(`SHOW ${name}`)).rows[0][name],
          ]),
        ),
      ),
      sizes: await geoSizes(client),
    };
  } finally {
    await stopProcesses([running]);
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const scale = numberOption('scale', 1_000_000);
  const result = await measureLocatorMemory({
    scale,
    seconds: numberOption('seconds', 60),
    clients: numberOption('clients', 8),
  });
  const file = join(
    ROOT,
    'bench',
    'results',
    scale === 1_000_000
      ? 'locator-memory.json'
      : `locator-memory-${geoBenchDatabaseName(scale).replace('portal_bench_geo_', '')}.json`,
  );
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  log(
    `locator RSS ${JSON.stringify(result.locator.rssMb)} MB over ${result.locator.requests} requests (${result.locator.failed} failed)`,
  );
  log(`database ${result.sizes.databaseMb} MB, ${result.sizes.databaseBytesPerAddress} bytes per address`);
  console.table(result.sizes.tables);
  console.table(result.sizes.largestIndexes);
}
