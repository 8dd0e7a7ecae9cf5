// The geodata benchmarks' databases, one per scale on the server of DATABASE_URL (default 127.0.0.1), so
// the 1 M and 10 M figures can sit side by side: `portal_bench_geo` for 1 000 000 addresses (the default),
// `portal_bench_geo_10m` for 10 000 000, `portal_bench_geo_<N>` for any other scale. Each is migrated and
// generated at its scale (seed 'portal') and reused while its last finished generator run had that scale
// and seed, so the search, reverse, tile and editor benchmarks pay for the generation once. A fresh
// database is written by the generator's bulk path (COPY, indexes built at the end, a checkpoint per town):
// a run stopped half-way goes on where it stopped when started again. Needs PostgreSQL with PostGIS
// running; builds @portal/geo (and its dependencies) first, which Nx skips when nothing changed.
//
//   import { ensureGeoBenchDatabase } from './lib/geo-dataset.mjs';
//   const url = await ensureGeoBenchDatabase({ scale: 1_000_000 });
//
// Alone: node bench/lib/geo-dataset.mjs [--scale N] [--seed S] [--force]   (prints the URL)
// It prints the generation's figures: addresses/s of the writing (and of the whole run with the index
// builds and the vacuum), and the CPU seconds of this process (its worker threads too) and of the
// database's PostgreSQL backends.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import { databaseUrl } from '../../scripts/lib/settings.mjs';
import { bin, NX_ENV, ROOT, run } from '../../scripts/lib/system.mjs';

export const GEO_BENCH_DATABASE = 'portal_bench_geo';
const require = createRequire(import.meta.url);

/** The database of a scale: portal_bench_geo (1 M), portal_bench_geo_10m (10 M), portal_bench_geo_<N>. */
export function geoBenchDatabaseName(scale) {
  if (scale === 1_000_000) return GEO_BENCH_DATABASE;
  if (scale % 1_000_000 === 0) return `${GEO_BENCH_DATABASE}_${scale / 1_000_000}m`;
  return `${GEO_BENCH_DATABASE}_${scale}`;
}

/** What a bench's results file of a scale is called after: '' at 1 M, '-10m' at 10 M, '-<N>' otherwise. */
export function scaleSuffix(scale = 1_000_000) {
  const name = geoBenchDatabaseName(scale);
  return name === GEO_BENCH_DATABASE ? '' : `-${name.slice(GEO_BENCH_DATABASE.length + 1)}`;
}

/** The URL of the bench database of a scale (whether or not it is generated yet). */
export function geoBenchDatabaseUrl(scale = 1_000_000) {
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  return db.withDatabase(databaseUrl(), geoBenchDatabaseName(scale));
}

async function buildGeoLibrary() {
  const { code } = await run(bin('nx'), ['run', '@portal/geo:build', '--outputStyle=stream'], {
    env: NX_ENV,
    onLine: () => undefined,
  });
  if (code !== 0) throw new Error('The build of @portal/geo failed (output above).');
}

/** CPU seconds a local process has used (user + system), from /proc; undefined elsewhere. */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * The CPU seconds of every PostgreSQL backend of `database` on this machine, by pid (from the process
 * titles in /proc): the run's own connection, its worker threads' and the index builds'. A backend that
 * has exited keeps the last value seen, so call it often (the progress does).
 */
function backendCpu(database, seen = new Map()) {
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return seen;
  }
  for (const pid of pids) {
    let title;
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // "postgres: [cluster: ]user database host(port) state"
    const words = title.split(/[\s\0]+/);
    if (words[0] !== 'postgres:' || !words.slice(1, 5).includes(database)) continue;
    const cpu = cpuSecondsOf(pid);
    if (cpu !== undefined) seen.set(pid, Math.max(seen.get(pid) ?? 0, cpu));
  }
  return seen;
}
const sumOf = (seen) => [...seen.values()].reduce((sum, value) => sum + value, 0);

const figure = (value) => Math.round(value).toLocaleString('en-ZA');
const duration = (seconds) =>
  seconds >= 90 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;

/**
 * The URL of a database holding the generator's dataset at `scale` addresses (seed `seed`), creating,
 * migrating and generating it when it does not hold exactly that yet (a database holding another finished
 * scale is dropped and made again: the bulk path needs it empty).
 */
export async function ensureGeoBenchDatabase({
  scale = 1_000_000,
  seed = 'portal',
  force = false,
  log = (line) => console.log(`[geo-bench] ${line}`),
} = {}) {
  await buildGeoLibrary();
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const geo = require(join(ROOT, 'libs/geo/dist/index.js'));
  const { Client } = require('pg');
  const name = geoBenchDatabaseName(scale);
  const url = db.withDatabase(databaseUrl(), name);
  const wanted = geo.describeRun(scale, seed);

  if (await db.ensureDatabase(url)) log(`created database ${name}`);
  let client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client
      .query(
        `SELECT input, loaded FROM geo.import_runs
          WHERE source = 'generator' AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`,
      )
      .catch(() => ({ rows: [] })); // not migrated yet
    if (!force && rows[0]?.input === wanted) {
      log(`${name} already holds ${wanted} (${rows[0].loaded.addresses} addresses): reused`);
      return url;
    }
    if (rows[0] || force) {
      log(`${name} held ${rows[0]?.input ?? 'a forced run'}: dropped and made again`);
      await client.end();
      await db.dropDatabase(url, name);
      await db.ensureDatabase(url);
      client = new Client({ connectionString: url });
      await client.connect();
    }
    const applied = await db.runMigrations(url);
    if (applied.length) log(`migrations applied: ${applied.length}`);

    log(`generating ${wanted} into ${name}`);
    const started = Date.now();
    // PostgreSQL's CPU: every backend of the database (the generator's workers have their own).
    const backends = backendCpu(name);
    const cpuAtStart = { node: process.cpuUsage(), pg: sumOf(backends) };
    const pgCpu = () => sumOf(backendCpu(name, backends)) - cpuAtStart.pg;
    const sampling = setInterval(() => backendCpu(name, backends), 1000).unref();
    const loads = [];
    let lastLine = 0;
    let written;
    const result = await geo.generateGeodata(client, {
      scale,
      seed,
      onProgress: (progress) => {
        if (progress.phase !== 'writing' && !written) {
          const node = process.cpuUsage(cpuAtStart.node);
          written = {
            seconds: (Date.now() - started) / 1000,
            nodeCpu: (node.user + node.system) / 1e6,
            pgCpu: pgCpu(),
          };
        }
        if (Date.now() - lastLine < 10_000) return;
        lastLine = Date.now();
        loads.push(loadavg()[0]);
        const seconds = (Date.now() - started) / 1000;
        const rate = (progress.addresses - progress.resumedAddresses) / Math.max(seconds, 0.001);
        const left = progress.target - progress.addresses;
        log(
          progress.phase === 'writing'
            ? `  ${figure(progress.addresses)} of ${figure(progress.target)} addresses, ${progress.towns}/${progress.townCount} towns, ${figure(rate)} addresses/s, ETA ${duration(left / Math.max(rate, 1))} (load ${loadavg()[0].toFixed(1)})`
            : `  ${progress.phase}: ${progress.step ? progress.step.slice(0, 100) : ''} (${duration(seconds)})`,
        );
      },
    });
    clearInterval(sampling);
    const seconds = result.elapsedMs / 1000;
    const rowsWritten = Object.values(result.counts).reduce((sum, count) => sum + count, 0);
    const made = result.counts.addresses - (result.resumedAddresses ?? 0);
    log(
      `generated ${figure(result.counts.addresses)} addresses, ${figure(rowsWritten)} rows in ${result.towns.length} towns in ${duration(seconds)} (${result.path} path)`,
    );
    if (written) {
      const node = process.cpuUsage(cpuAtStart.node);
      // A resumed run with every town already written made none here: no figure per address then.
      const perAddress = (cpuSeconds) =>
        made > 0 ? `${((cpuSeconds * 1e6) / made).toFixed(1)} µs/address` : 'no addresses made in this run';
      const nodeCpu = (node.user + node.system) / 1e6;
      const pgTotal = pgCpu();
      log(
        `  writing: ${duration(written.seconds)}, ${figure(made / written.seconds)} addresses/s; ` +
          `CPU: generator ${written.nodeCpu.toFixed(1)} s (${perAddress(written.nodeCpu)}), ` +
          `PostgreSQL ${written.pgCpu.toFixed(1)} s (${perAddress(written.pgCpu)})`,
      );
      log(
        `  with the index builds and the vacuum: ${duration(seconds)}, ${figure(made / seconds)} addresses/s; ` +
          `CPU: generator ${nodeCpu.toFixed(1)} s, PostgreSQL ${pgTotal.toFixed(1)} s (${perAddress(pgTotal - written.pgCpu)} indexing and vacuuming)`,
      );
    }
    if (loads.length)
      log(`  load average during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
    return url;
  } finally {
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const url = await ensureGeoBenchDatabase({
    scale: Number(String(arg('scale', 1_000_000)).replace(/[_ ,]/g, '')),
    seed: arg('seed', 'portal'),
    force: process.argv.includes('--force'),
  });
  console.log(url);
}
