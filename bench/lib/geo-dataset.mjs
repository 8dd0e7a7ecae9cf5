// The geodata benchmarks' database: `portal_bench_geo` on the server of DATABASE_URL (default 127.0.0.1),
// migrated and generated at the asked scale (default 1 000 000 addresses). Reused when its last finished
// generator run had the same scale and seed, so the search, reverse and tile benchmarks pay for the
// generation once. Needs PostgreSQL with PostGIS running; builds @portal/geo (and its dependencies) first,
// which Nx skips when nothing changed.
//
//   import { ensureGeoBenchDatabase } from './lib/geo-dataset.mjs';
//   const url = await ensureGeoBenchDatabase({ scale: 1_000_000 });
//
// Alone: node bench/lib/geo-dataset.mjs [--scale N] [--seed S] [--force]   (prints the URL)
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { databaseUrl } from '../../scripts/lib/settings.mjs';
import { bin, NX_ENV, ROOT, run } from '../../scripts/lib/system.mjs';

export const GEO_BENCH_DATABASE = 'portal_bench_geo';
const require = createRequire(import.meta.url);

async function buildGeoLibrary() {
  const { code } = await run(bin('nx'), ['run', '@portal/geo:build', '--outputStyle=stream'], {
    env: NX_ENV,
    onLine: () => undefined,
  });
  if (code !== 0) throw new Error('The build of @portal/geo failed (output above).');
}

/**
 * The URL of a database holding the generator's dataset at `scale` addresses (seed `seed`), creating,
 * migrating and generating it when it does not hold exactly that yet.
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
  const url = db.withDatabase(databaseUrl(), GEO_BENCH_DATABASE);

  if (await db.ensureDatabase(url)) log(`created database ${GEO_BENCH_DATABASE}`);
  const applied = await db.runMigrations(url);
  if (applied.length) log(`migrations applied: ${applied.join(', ')}`);

  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const wanted = geo.describeRun(scale, seed);
    const { rows } = await client.query(
      `SELECT input, loaded FROM geo.import_runs
        WHERE source = 'generator' AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`,
    );
    if (!force && rows[0]?.input === wanted) {
      log(`${GEO_BENCH_DATABASE} already holds ${wanted} (${rows[0].loaded.addresses} addresses): reused`);
      return url;
    }
    log(`generating ${wanted} into ${GEO_BENCH_DATABASE}${rows[0] ? ` (it held: ${rows[0].input})` : ''}`);
    let lastLine = 0;
    const result = await geo.generateGeodata(client, {
      scale,
      seed,
      onProgress: (progress) => {
        if (Date.now() - lastLine < 10_000) return;
        lastLine = Date.now();
        log(
          `  ${progress.addresses.toLocaleString('en-ZA')} of ${progress.target.toLocaleString('en-ZA')} addresses, ${progress.towns}/${progress.townCount} towns`,
        );
      },
    });
    const seconds = result.elapsedMs / 1000;
    const rowsWritten = Object.values(result.counts).reduce((sum, count) => sum + count, 0);
    log(
      `generated ${result.counts.addresses.toLocaleString('en-ZA')} addresses, ${rowsWritten.toLocaleString('en-ZA')} rows in ${result.towns.length} towns in ${seconds.toFixed(1)} s (${Math.round(rowsWritten / seconds).toLocaleString('en-ZA')} rows/s)`,
    );
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
    scale: Number(arg('scale', 1_000_000)),
    seed: arg('seed', 'portal'),
    force: process.argv.includes('--force'),
  });
  console.log(url);
}
