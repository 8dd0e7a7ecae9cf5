// Import throughput of libs/geo's importers, into a throwaway database: a synthetic OpenStreetMap extract
// (address nodes along street grids around South African towns, plus building footprints) written with the
// importers' own PBF writer, and a GeoJSON FeatureCollection of square parcels. Reports rows per second
// (everything the import does: parsing, checks, ST_IsValid, batched upserts, linking).
//
// Side by side (issue 23), with --scales 1000000,10000000: the generator's world at each scale written as an
// .osm.pbf (libs/geo's exportGeneratedOsm: address nodes, streets, place nodes, buildings; kept in
// $TMPDIR/portal-bench-osm and reused), then loaded by the portal's OSM importer and by osm2pgsql (Debian
// package, flex output, bench/osm2pgsql/portal.lua: equivalent tables), each into its own throwaway database,
// in the same run: wall time, rows/s and the ratio.
// Needs the build of libs/geo and libs/db (`npm start` or `npx nx run @portal/geo:build` leaves it).
// Usage: node bench/geo-import.mjs [--addresses 200000] [--parcels 100000]
//        node bench/geo-import.mjs --scales 1000000,10000000 [--seed portal] [--progress lines]
//          [--importers portal-bulk,osm2pgsql] (portal-bulk: importOsm's bulk path, --bulk of the CLI;
//          portal: its upsert path, the way an update is loaded; any subset: merged with earlier figures)
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib/system.mjs';
import { round } from './stats.mjs';
import { benchLog, option } from './lib/cli.mjs';

const require = createRequire(import.meta.url);
const db = require(join(ROOT, 'libs/db/dist/index.js'));
const geo = require(join(ROOT, 'libs/geo/dist/index.js'));

const TOWNS = [
  ['Stellenbosch', 18.86, -33.935],
  ['Pretoria', 28.19, -25.745],
  ['Durban', 31.02, -29.86],
  ['Bloemfontein', 26.21, -29.12],
  ['Polokwane', 29.45, -23.9],
  ['George', 22.46, -33.96],
  ['Gqeberha', 25.6, -33.96],
  ['Kimberley', 24.76, -28.74],
];
const STREETS = [
  'Church',
  'Dorp',
  'Main',
  'Voortrekker',
  'Jan Smuts',
  'Nelson Mandela',
  'Oak',
  'Protea',
  'Long',
  'Station',
];
const TYPES = ['Street', 'Road', 'Avenue', 'Drive', 'Lane'];
const HOUSES_PER_STREET = 60;
/** About 12 m between houses, 150 m between streets. */
const HOUSE_STEP = 0.00012;
const STREET_STEP = 0.0015;

/** The synthetic extract: address nodes, then one building way (4 nodes) for every tenth address. */
async function writeExtract(file, addresses) {
  const writer = new geo.OsmPbfWriter(file);
  const buildings = [];
  let nodeId = 1;
  for (let i = 0; i < addresses; i++) {
    const street = Math.floor(i / HOUSES_PER_STREET);
    const [town, lon0, lat0] = TOWNS[street % TOWNS.length];
    const row = Math.floor(street / TOWNS.length);
    const lon = lon0 + (i % HOUSES_PER_STREET) * HOUSE_STEP;
    const lat = lat0 + (row % 200) * STREET_STEP * 0.1 + Math.floor(row / 200) * STREET_STEP;
    const name = `${STREETS[row % STREETS.length]} ${TYPES[Math.floor(row / STREETS.length) % TYPES.length]}`;
    await writer.node({
      id: nodeId++,
      lon,
      lat,
      tags: {
        'addr:housenumber': String((i % HOUSES_PER_STREET) + 1),
        'addr:street': name,
        'addr:suburb': `${town} Ext ${Math.floor(row / 50) + 1}`,
        'addr:city': town,
        'addr:postcode': '7600',
      },
    });
    if (i % 10 === 0) buildings.push([lon + 0.00002, lat + 0.00002]);
  }
  const ways = [];
  for (const [lon, lat] of buildings) {
    const first = nodeId;
    for (const [dx, dy] of [
      [0, 0],
      [0.00008, 0],
      [0.00008, 0.00006],
      [0, 0.00006],
    ]) {
      await writer.node({ id: nodeId++, lon: lon + dx, lat: lat + dy });
    }
    ways.push([first, first + 1, first + 2, first + 3, first]);
  }
  let wayId = 1;
  for (const refs of ways)
    await writer.way({ id: wayId++, refs, tags: { building: 'house', 'building:levels': '1' } });
  await writer.close();
  return { nodes: nodeId - 1, ways: ways.length };
}

/** A FeatureCollection of square erven, written as a stream. */
async function writeParcels(file, count) {
  const out = createWriteStream(file);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"type":"FeatureCollection","features":[\n');
  const size = 0.0002;
  for (let i = 0; i < count; i++) {
    const [town, lon0, lat0] = TOWNS[i % TOWNS.length];
    const k = Math.floor(i / TOWNS.length);
    const lon = lon0 + (k % 400) * size;
    const lat = lat0 - 0.2 - Math.floor(k / 400) * size;
    const ring = [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ].map(([x, y]) => [round(x, 7), round(y, 7)]);
    const feature = {
      type: 'Feature',
      properties: { PRCL_NO: String(k + 1), PORTION: 0, TOWN: town, PARCEL_ID: `P${i}` },
      geometry: { type: 'Polygon', coordinates: [ring] },
    };
    await write(`${i ? ',\n' : ''}${JSON.stringify(feature)}`);
  }
  await write('\n]}\n');
  out.end();
  await once(out, 'finish');
}

const megabytes = (file) => round(statSync(file).size / 1e6, 2);
const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const cpuSeconds = ({ user, system }) => (user + system) / 1e6;

/** An import's wall time (from `started`, a performance.now()), rows and rows/s, rows per table. */
function importFigures(summary, started) {
  const seconds = (performance.now() - started) / 1000;
  const total = sum(summary.loaded);
  return {
    seconds: round(seconds),
    rows: total,
    rowsPerSecond: Math.round(total / seconds),
    loaded: summary.loaded,
    rejected: sum(summary.rejected),
  };
}

export async function measureGeoImport({ addresses = 200_000, parcels = 100_000, progress = 'none' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-geo-import-'));
  const database = await db.createTestDatabase();
  try {
    const pbf = join(dir, 'synthetic.osm.pbf');
    const extract = await writeExtract(pbf, addresses);
    let started = performance.now();
    const osm = await geo.importOsm(database.dataSource, pbf, { progress });
    const osmSeconds = (performance.now() - started) / 1000;

    const geojson = join(dir, 'parcels.geojson');
    await writeParcels(geojson, parcels);
    started = performance.now();
    const parcelRun = await geo.importParcels(database.dataSource, geojson, { progress });
    const parcelSeconds = (performance.now() - started) / 1000;
    // The same file again: every row meets its earlier self (updates instead of inserts).
    started = performance.now();
    const again = await geo.importParcels(database.dataSource, geojson, { progress, link: false });
    const againSeconds = (performance.now() - started) / 1000;

    return {
      osm: {
        fileMB: megabytes(pbf),
        elements: extract.nodes + extract.ways,
        loaded: osm.loaded,
        rejected: sum(osm.rejected),
        seconds: round(osmSeconds),
        rowsPerSecond: Math.round(sum(osm.loaded) / osmSeconds),
        elementsPerSecond: Math.round((extract.nodes + extract.ways) / osmSeconds),
      },
      parcels: {
        fileMB: megabytes(geojson),
        loaded: parcelRun.loaded.parcels,
        rejected: sum(parcelRun.rejected),
        seconds: round(parcelSeconds),
        rowsPerSecond: Math.round(parcelRun.loaded.parcels / parcelSeconds),
        reimportRowsPerSecond: Math.round(again.loaded.parcels / againSeconds),
      },
      note: 'throwaway database; OSM rows = addresses + streets + buildings; includes checks, ST_IsValid, upserts and linking',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

const log = benchLog('geo-import');
const OSM2PGSQL = '/usr/bin/osm2pgsql';
const STYLE = join(ROOT, 'bench', 'osm2pgsql', 'portal.lua');
/** osm2pgsql's tables (bench/osm2pgsql/portal.lua), in public of its throwaway database. */
const OSM2PGSQL_TABLES = ['addresses', 'streets', 'street_lines', 'places', 'buildings'];
const load1 = () => round(loadavg()[0], 1);

/**
 * The generated world of a scale as an .osm.pbf, written once into `dir` and reused while its summary
 * (written after the file is complete) is there.
 */
async function generatedExtract(dir, scale, seed, progress) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `world-${scale}-${seed}.osm.pbf`);
  const summary = `${file}.json`;
  if (existsSync(file) && existsSync(summary)) {
    log(`${scale}: reusing ${file}`);
    return { ...JSON.parse(readFileSync(summary, 'utf8')), reused: true };
  }
  rmSync(summary, { force: true });
  log(`${scale}: writing the generated world to ${file}`);
  let last = 0;
  const result = await geo.exportGeneratedOsm({
    scale,
    seed,
    file,
    onProgress: (p) => {
      if (progress === 'none' || Date.now() - last < 15_000) return;
      last = Date.now();
      log(`  export: ${p.addresses} of ${p.target} addresses, towns ${p.towns}/${p.townCount}`);
    },
  });
  const memoryMB = Math.round(process.memoryUsage().rss / 1e6);
  writeFileSync(summary, JSON.stringify({ ...result, memoryMB }, null, 2));
  return { ...result, memoryMB, reused: false };
}

/** Runs osm2pgsql (flex, the portal style) into the database at `url`; answers its wall time in s. */
async function runOsm2pgsql(url, file, logFile) {
  const args = [
    '--output=flex',
    `--style=${STYLE}`,
    '--create',
    // Non-slim import: node locations in memory (the portal's importer also keeps them in memory).
    '--cache=4000',
    '--number-processes=2',
    '--log-level=info',
    '-d',
    url,
    file,
  ];
  const out = createWriteStream(logFile);
  const started = performance.now();
  const child = spawn(OSM2PGSQL, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const [code] = await once(child, 'exit');
  const seconds = (performance.now() - started) / 1000;
  out.end();
  if (code !== 0) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
    throw new Error(`osm2pgsql exited with ${code}:\n${tail}`);
  }
  return seconds;
}

/**
 * At each scale: the extract, the portal's importer into a throwaway database, osm2pgsql into another;
 * wall time, rows/s, and ratio = portal time ÷ osm2pgsql time. Each importer's rows are its own tables'
 * (the portal: addresses, streets, places, buildings; osm2pgsql the same and street_lines).
 */
export async function measureOsmSideBySide({
  scales = [1_000_000],
  seed = 'portal',
  progress = 'none',
  dir = join(tmpdir(), 'portal-bench-osm'),
  importers = ['portal-bulk', 'osm2pgsql'],
} = {}) {
  if (importers.includes('osm2pgsql') && !existsSync(OSM2PGSQL))
    throw new Error(`${OSM2PGSQL} is missing: apt-get install -y osm2pgsql (npm run bench installs it)`);
  const rows = [];
  for (const scale of scales) {
    const extract = await generatedExtract(dir, scale, seed, progress);

    const loadBefore = load1();
    let database;
    let portal;
    if (importers.includes('portal'))
      try {
        database = await db.createTestDatabase();
        log(`${scale}: the portal's importer`);
        const started = performance.now();
        const summary = await geo.importOsm(database.dataSource, extract.file, { progress });
        portal = importFigures(summary, started);
      } finally {
        await database?.drop();
      }
    if (portal) log(`${scale}: portal ${portal.seconds} s, ${portal.rowsPerSecond} rows/s`);

    let portalBulk;
    if (importers.includes('portal-bulk'))
      try {
        database = await db.createTestDatabase();
        log(`${scale}: the portal's importer, bulk (--bulk)`);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        const started = performance.now();
        const cpuBefore = await backendCpuSeconds(client);
        const nodeCpuBefore = process.cpuUsage();
        try {
          const summary = await geo.importOsm(client, extract.file, { progress, bulk: true });
          portalBulk = {
            ...importFigures(summary, started),
            // This process (reading the file, staging) and the import's own backend (COPY, INSERT … SELECT,
            // half the index builds; the other half run on a second connection, not counted).
            nodeCpuSeconds: round(cpuSeconds(process.cpuUsage(nodeCpuBefore))),
            backendCpuSeconds:
              cpuBefore === undefined ? undefined : round((await backendCpuSeconds(client)) - cpuBefore),
          };
        } finally {
          await client.end();
        }
      } finally {
        await database?.drop();
      }
    if (portalBulk) log(`${scale}: portal bulk ${portalBulk.seconds} s, ${portalBulk.rowsPerSecond} rows/s`);

    let osm2pgsql;
    if (importers.includes('osm2pgsql'))
      try {
        database = await db.createTestDatabase();
        log(`${scale}: osm2pgsql (flex, ${STYLE.slice(ROOT.length + 1)})`);
        const logFile = join(dir, `osm2pgsql-${scale}.log`);
        const seconds = await runOsm2pgsql(database.url, extract.file, logFile);
        const loaded = {};
        for (const table of OSM2PGSQL_TABLES) {
          const [{ count }] = await database.dataSource.query(
            `SELECT count(*)::int AS count FROM public.${table}`,
          );
          loaded[table] = count;
        }
        const total = sum(loaded);
        osm2pgsql = {
          seconds: round(seconds),
          rows: total,
          rowsPerSecond: Math.round(total / seconds),
          loaded,
        };
      } finally {
        await database?.drop();
      }
    if (osm2pgsql) log(`${scale}: osm2pgsql ${osm2pgsql.seconds} s, ${osm2pgsql.rowsPerSecond} rows/s`);

    // Both read the same rows out of the file: the counts must agree table for table.
    for (const [name, ours] of [
      ['portal', portal],
      ['portal bulk', portalBulk],
    ])
      for (const table of ours && osm2pgsql ? ['addresses', 'streets', 'places', 'buildings'] : []) {
        if (ours.loaded[table] !== osm2pgsql.loaded[table])
          throw new Error(
            `${scale}: ${table} differ: ${name} ${ours.loaded[table]}, osm2pgsql ${osm2pgsql.loaded[table]}`,
          );
      }
    rows.push({
      scale,
      extract: {
        file: extract.file,
        fileMB: round(extract.bytes / 1e6, 1),
        nodes: extract.counts.nodes,
        ways: extract.counts.ways,
        addresses: extract.counts.addresses,
        buildings: extract.counts.buildings,
        exportSeconds: round(extract.elapsedMs / 1000),
        rssMBAfterExport: extract.memoryMB,
        reused: extract.reused,
      },
      portal,
      portalBulk,
      osm2pgsql,
      /** How many times longer the portal's importer took than osm2pgsql (upsert path; bulk path). */
      ratio: portal && osm2pgsql ? round(portal.seconds / osm2pgsql.seconds, 2) : null,
      bulkRatio: portalBulk && osm2pgsql ? round(portalBulk.seconds / osm2pgsql.seconds, 2) : null,
      loadAverage: { before: loadBefore, after: load1() },
    });
  }
  return {
    rows,
    note:
      'same .osm.pbf, same run, each into a throwaway database; portal = libs/geo importOsm (parse, checks, ' +
      'batched upserts into geo.* with their GiST/trigram indexes, linking); portalBulk = importOsm bulk ' +
      '(COPY into temporary tables while reading, one INSERT … SELECT per table, indexes set aside and built ' +
      'once by two connections, linking, ANALYZE); osm2pgsql 1.8 flex non-slim ' +
      '(COPY, then GiST index and CLUSTER per table); ratio = portal seconds ÷ osm2pgsql seconds; ' +
      'shared 2-core machine, load average given',
  };
}

if (import.meta.url === `file://${process.argv[1]}` && option('scales', undefined)) {
  const scales = option('scales', '')
    .split(',')
    .map((value) => Number(value.replace(/[_ ]/g, '')));
  if (scales.some((scale) => !Number.isInteger(scale) || scale < 1)) {
    console.error(`--scales takes whole numbers of addresses, e.g. 1000000,10000000`);
    process.exit(2);
  }
  const result = await measureOsmSideBySide({
    scales,
    seed: option('seed', 'portal'),
    progress: option('progress', 'lines'),
    importers: option('importers', 'portal-bulk,osm2pgsql').split(','),
  });
  console.log(JSON.stringify(result, null, 2));
  const file = new URL('./results/geo-import-osm2pgsql.json', import.meta.url);
  // Scales (and importers, with --importers) measured in earlier runs stay unless measured again.
  const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).rows ?? []) : [];
  const merged = [
    ...earlier.filter((row) => !scales.includes(row.scale)),
    ...result.rows.map((row) => {
      const before = earlier.find((old) => old.scale === row.scale) ?? {};
      const portal = row.portal ?? before.portal;
      const portalBulk = row.portalBulk ?? before.portalBulk;
      const osm2pgsql = row.osm2pgsql ?? before.osm2pgsql;
      const ratio = portal && osm2pgsql ? round(portal.seconds / osm2pgsql.seconds, 2) : null;
      const bulkRatio = portalBulk && osm2pgsql ? round(portalBulk.seconds / osm2pgsql.seconds, 2) : null;
      return { ...before, ...row, portal, portalBulk, osm2pgsql, ratio, bulkRatio };
    }),
  ].sort((a, b) => a.scale - b.scale);
  writeFileSync(file, JSON.stringify({ ...result, rows: merged }, null, 2) + '\n');
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureGeoImport({
    addresses: Number(option('addresses', '200000')),
    parcels: Number(option('parcels', '100000')),
    progress: option('progress', 'auto'),
  });
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    new URL('./results/geo-import.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
}

/** CPU seconds (user + system) the client's PostgreSQL backend has used, from /proc; undefined elsewhere. */
async function backendCpuSeconds(client) {
  const {
    rows: [{ pid }],
  } = await client.query('SELECT pg_backend_pid() AS pid');
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
