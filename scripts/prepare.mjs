#!/usr/bin/env node
// Gets a machine ready to build, run and test the portal, doing only what is missing: npm dependencies,
// PostgreSQL with PostGIS, Redis, Chromium (the PDF worker, browser tests), the session key pair, the build, and the
// migrated and seeded database. On Debian as root it starts or installs what it needs; anywhere else it
// stops with the exact thing to install or start.
//
//   node scripts/prepare.mjs [--test-remote]   everything (+ the e2e test remote)
//   node scripts/prepare.mjs --only-migrate | --only-seed   just the database step (npm run db:migrate|db:seed)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { databaseUrl, jwtKeyFiles, redisUrl } from './lib/settings.mjs';
import {
  bin,
  canConnect,
  capture,
  commandExists,
  hostAndPort,
  isLocalHost,
  isRoot,
  NX_ENV,
  ROOT,
  run,
  runQuietly,
  waitFor,
} from './lib/system.mjs';

/** A step that cannot be done here; its message says what the person has to do instead. */
export class PrepareError extends Error {}

const say = (line) => console.log(`[prepare] ${line}`);
const show = (path) => relative(ROOT, path) || '.';
const redact = (url) => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

const CHROMIUM = '/usr/bin/chromium';
const DEJAVU_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** `apt-get install`, when this machine has apt and we are root; `apt-get update` runs once, first. */
function createApt() {
  let updated = false;
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  return async function aptInstall(packages, problem) {
    const list = packages.join(' ');
    if (!commandExists('apt-get')) {
      throw new PrepareError(
        `${problem}, and this machine has no apt-get: install ${list} (or your system's equivalent), then run again.`,
      );
    }
    if (!isRoot())
      throw new PrepareError(
        `${problem}. Install it as root, then run again: sudo apt-get update && sudo apt-get install -y ${list}`,
      );
    if (!updated) {
      say('apt: apt-get update');
      if ((await run('apt-get', ['update'], { env })).code !== 0)
        throw new PrepareError('`apt-get update` failed (output above).');
      updated = true;
    }
    say(`apt: installing ${list} (${problem})`);
    const { code } = await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
    if (code !== 0) throw new PrepareError(`apt-get could not install ${list} (output above).`);
  };
}

// ---------------------------------------------------------------------------------------------------------
// npm dependencies

/** npm's last line on success: "added 1410 packages in 2m" (or "up to date in 3s"). */
const npmSummary = (output) =>
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(added|removed|changed|up to date)\b/.test(line))
    .at(-1);

/** npm ci's refusal of a lock that does not match package.json (its whole message, in one line). */
const LOCK_OUT_OF_SYNC =
  /can only install packages when your package\.json and package-lock\.json[^\n]*in sync/;

/**
 * npm's output is kept, not shown: on a fresh clone it is a page of warnings (engines, deprecations) around
 * one summary line. It is printed whole only when the install fails.
 */
async function npmQuietly(npm, root, args, what) {
  const started = Date.now();
  const { code, output } = await runQuietly(npm, [...args, '--no-audit', '--no-fund'], { cwd: root });
  const seconds = Math.round((Date.now() - started) / 1000);
  return { ok: code === 0, output, done: `${npmSummary(output) ?? what} (${seconds} s)` };
}

/**
 * The npm dependencies, when node_modules is missing or older than package-lock.json: `npm ci`, or when npm
 * refuses the lock here, `npm install --no-save` of the same versions; one line before, one after, and
 * npm's own output only on a real failure. `root`, `npm`, `log` and `showOutput` are for the tests.
 */
export async function ensureNpmDependencies({
  root = ROOT,
  npm = 'npm',
  log = say,
  showOutput = (text) => process.stderr.write(text),
} = {}) {
  const installedLock = `${root}/node_modules/.package-lock.json`;
  const lock = `${root}/package-lock.json`;
  if (existsSync(installedLock) && statSync(installedLock).mtimeMs >= statSync(lock).mtimeMs) {
    log('npm dependencies: installed, up to date with package-lock.json');
    return;
  }
  log(
    `npm dependencies: ${existsSync(installedLock) ? 'package-lock.json changed' : 'not installed yet'}; ` +
      "installing the locked versions with npm ci (a minute or two on a fresh clone; npm's output is shown only if it fails)",
  );
  const ci = await npmQuietly(npm, root, ['ci'], 'installed');
  if (ci.ok) return log(`npm dependencies: ${ci.done}`);
  if (!LOCK_OUT_OF_SYNC.test(ci.output)) {
    showOutput(ci.output);
    throw new PrepareError('`npm ci` failed (its output above).');
  }
  // npm ci refuses a lock that does not list every optional platform package, which happens when the
  // registry the lock was made against lacks some; `npm install` resolves the same versions from it.
  log(
    'npm dependencies: npm ci refused package-lock.json here (it does not match package.json for this ' +
      'registry: see docs/architecture.md); installing the same locked versions with npm install --no-save',
  );
  const install = await npmQuietly(npm, root, ['install', '--no-save'], 'installed');
  if (!install.ok) {
    showOutput(install.output);
    throw new PrepareError('`npm install` failed (its output above).');
  }
  log(`npm dependencies: ${install.done}`);
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL + PostGIS

/** The same server and login as DATABASE_URL, on the maintenance database (which always exists). */
function maintenanceUrl(url) {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed.toString();
}

function psql(url, sql) {
  const result = spawnSync('psql', [url, '-tAc', sql], {
    encoding: 'utf8',
    env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
  });
  return { ok: result.status === 0, out: (result.stdout ?? '').trim(), err: (result.stderr ?? '').trim() };
}

/** Local clusters from Debian's pg_lsclusters: version, name, port and where their pg_hba.conf is. */
function localClusters() {
  return (capture('pg_lsclusters', ['-h']) ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [version, name, port] = line.trim().split(/\s+/);
      return {
        version,
        name,
        port: Number(port),
        hbaFile: `/etc/postgresql/${version}/${name}/pg_hba.conf`,
      };
    });
}

async function startLocalPostgres(host, port, aptInstall) {
  let installedNow = false;
  if (!commandExists('pg_ctlcluster')) {
    await aptInstall(['postgresql'], `PostgreSQL is not running on port ${port} and not installed`);
    installedNow = true;
  }
  const cluster = localClusters().find((c) => c.port === port);
  if (!cluster) {
    throw new PrepareError(
      `PostgreSQL is installed but has no cluster on port ${port}: create one (as root: pg_createcluster <version> main --port ${port} --start) or point DATABASE_URL at a running server.`,
    );
  }
  const id = `${cluster.version}/${cluster.name}`;
  if (!isRoot())
    throw new PrepareError(
      `PostgreSQL cluster ${id} is stopped. Start it: sudo pg_ctlcluster ${cluster.version} ${cluster.name} start`,
    );
  say(`PostgreSQL: starting cluster ${id} on port ${port}`);
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'start']);
  if (!(await waitFor(() => canConnect(host, port), 30_000))) {
    throw new PrepareError(
      `PostgreSQL cluster ${id} did not start: see /var/log/postgresql/postgresql-${cluster.version}-${cluster.name}.log`,
    );
  }
  return { cluster, installedNow };
}

/**
 * A cluster this script just installed only lets `postgres` in over TCP with a password. The services use
 * postgres://postgres@127.0.0.1 (no password), so such a fresh cluster trusts local TCP connections.
 */
async function trustLocalConnections(cluster) {
  const hba = readFileSync(cluster.hbaFile, 'utf8');
  const rules =
    '# Added by scripts/prepare.mjs: the portal connects as postgres over local TCP without a password.\n' +
    'host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n';
  writeFileSync(cluster.hbaFile, rules + hba);
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'reload']);
  say(
    `PostgreSQL: cluster ${cluster.version}/${cluster.name} now trusts local TCP connections (${cluster.hbaFile})`,
  );
}

async function ensurePostgres(aptInstall) {
  const url = databaseUrl();
  const { host, port } = hostAndPort(url, 5432);
  const where = `${host}:${port}`;
  let started;
  if (await canConnect(host, port)) {
    say(`PostgreSQL: reachable at ${where}`);
  } else {
    if (!isLocalHost(host))
      throw new PrepareError(
        `PostgreSQL is not reachable at ${where} (DATABASE_URL): start that server, or unset DATABASE_URL to use a local one.`,
      );
    started = await startLocalPostgres(host, port, aptInstall);
  }

  if (!commandExists('psql')) {
    say('PostgreSQL: psql not found, login and PostGIS checks skipped (the migration reports what is wrong)');
    return;
  }
  const maintenance = maintenanceUrl(url);
  let login = psql(maintenance, 'select 1');
  if (!login.ok && started?.installedNow && /password/i.test(login.err)) {
    await trustLocalConnections(started.cluster);
    login = psql(maintenance, 'select 1');
  }
  if (!login.ok) {
    throw new PrepareError(
      `PostgreSQL at ${where} refused the login of ${redact(url)}: ${login.err.split('\n')[0]}\n` +
        '  Set DATABASE_URL to a user that may create databases (postgres://user:password@host:port/portal), ' +
        'or allow local trust for postgres in pg_hba.conf.',
    );
  }

  const postgisAvailable = () =>
    psql(maintenance, "select 1 from pg_available_extensions where name='postgis'").out === '1';
  if (postgisAvailable()) {
    say('PostGIS: available');
    return;
  }
  const major = Math.floor(Number(psql(maintenance, 'show server_version_num').out) / 10000);
  const postgisPackage = `postgresql-${major}-postgis-3`;
  if (!isLocalHost(host))
    throw new PrepareError(
      `PostGIS is not installed on the PostgreSQL server at ${where}: install PostGIS 3 there (Debian: ${postgisPackage}).`,
    );
  await aptInstall([postgisPackage], `PostGIS is missing from PostgreSQL ${major}`);
  if (!postgisAvailable())
    throw new PrepareError(
      `PostGIS is still not available after installing ${postgisPackage}: is the server at ${where} PostgreSQL ${major}?`,
    );
  say('PostGIS: installed');
}

// ---------------------------------------------------------------------------------------------------------
// Redis, Chromium, keys

async function ensureRedis(aptInstall) {
  const { host, port } = hostAndPort(redisUrl(), 6379);
  const where = `${host}:${port}`;
  if (await canConnect(host, port)) return say(`Redis: reachable at ${where}`);
  if (!isLocalHost(host))
    throw new PrepareError(
      `Redis is not reachable at ${where} (REDIS_URL): start that server, or unset REDIS_URL to use a local one.`,
    );
  if (!commandExists('redis-server'))
    await aptInstall(['redis-server'], `Redis is not running on port ${port} and not installed`);
  say(
    `Redis: starting redis-server on port ${port} (no persistence: Redis holds nothing that cannot be rebuilt)`,
  );
  await run('redis-server', [
    '--daemonize',
    'yes',
    '--bind',
    '127.0.0.1',
    '-::1',
    '--port',
    String(port),
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  if (!(await waitFor(() => canConnect(host, port), 15_000))) {
    throw new PrepareError(
      `redis-server did not start on port ${port}: start it yourself (redis-server --port ${port}) and run again.`,
    );
  }
}

async function ensureChromium(aptInstall) {
  const missing = [
    ...(existsSync(CHROMIUM) ? [] : ['chromium']),
    ...(existsSync(DEJAVU_FONT) ? [] : ['fonts-dejavu-core']),
  ];
  if (missing.length === 0) return say(`Chromium: ${CHROMIUM} with DejaVu fonts`);
  await aptInstall(missing, 'Chromium and its fonts are needed for the PDF worker and the browser tests');
  if (!existsSync(CHROMIUM))
    throw new PrepareError(`${CHROMIUM} is still missing after installing chromium.`);
}

/**
 * GDAL's command-line tools (Debian gdal-bin): the locator's GIS test (issue 23) reads the portal with
 * ogrinfo, as QGIS would. Only the tests need it, so `npm start` does not install it.
 */
async function ensureGdal(aptInstall) {
  if (commandExists('ogrinfo')) return say('GDAL: ogrinfo');
  await aptInstall(
    ['gdal-bin'],
    "GDAL's ogrinfo is needed by the GIS test (services/locator/src/gis.test.ts)",
  );
  if (!commandExists('ogrinfo'))
    throw new PrepareError('ogrinfo is still missing after installing gdal-bin.');
}

/**
 * osm2pgsql (Debian osm2pgsql): the baseline the portal's OSM importer is measured against in
 * bench/geo-import.mjs (issue 23). Only `npm run bench` needs it.
 */
async function ensureOsm2pgsql(aptInstall) {
  if (commandExists('osm2pgsql')) return say('osm2pgsql: installed');
  await aptInstall(['osm2pgsql'], 'osm2pgsql is the OSM import baseline of bench/geo-import.mjs');
  if (!commandExists('osm2pgsql')) throw new PrepareError('osm2pgsql is still missing after installing it.');
}

/**
 * promtool (Debian's prometheus package): the monitoring test (scripts/lib/monitoring.test.mjs, issue 24)
 * checks and unit-tests the alert rules and the Prometheus configuration with it. Tests only, like GDAL.
 */
async function ensurePromtool(aptInstall) {
  if (commandExists('promtool')) return say('Prometheus: promtool');
  await aptInstall(
    ['prometheus'],
    'promtool is needed by the monitoring test (scripts/lib/monitoring.test.mjs)',
  );
  if (!commandExists('promtool'))
    throw new PrepareError('promtool is still missing after installing prometheus.');
}

/** The session key pair, made by server-kit's ensureKeyPair (so it runs after the build). */
function ensureJwtKeys() {
  const { privateKeyFile, publicKeyFile } = jwtKeyFiles();
  const { ensureKeyPair } = createRequire(import.meta.url)(`${ROOT}/libs/server-kit/dist/index.js`);
  const { created } = ensureKeyPair(privateKeyFile, publicKeyFile);
  say(
    `JWT keys: ${created ? 'created ' : ''}${show(privateKeyFile)}, ${show(publicKeyFile)}${created ? ' (RSA 2048)' : ''}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Build and database

async function build({ testRemote }) {
  say('build: nx run-many -t build (libraries, services, shell, remotes; cached when unchanged)');
  const { code } = await run(bin('nx'), ['run-many', '-t', 'build', '--outputStyle=stream'], { env: NX_ENV });
  if (code !== 0) throw new PrepareError('The build failed (output above).');
  if (!testRemote) return;
  const config = 'e2e/test-remote/webpack.config.cjs';
  if (!existsSync(`${ROOT}/${config}`))
    throw new PrepareError(`${config} is missing: the browser tests need the test remote.`);
  say(`build: e2e test remote (webpack -c ${config})`);
  if ((await run(bin('webpack'), ['-c', config])).code !== 0)
    throw new PrepareError('The build of the e2e test remote failed (output above).');
}

async function buildDatabaseLibrary() {
  say('build: @portal/db (for its migrate/seed command)');
  const { code } = await run(bin('nx'), ['run', '@portal/db:build', '--outputStyle=stream'], { env: NX_ENV });
  if (code !== 0) throw new PrepareError('The build of @portal/db failed (output above).');
}

/** node libs/db/dist/cli.js migrate | seed | migrate-and-seed on DATABASE_URL (it creates the database). */
async function runDatabaseCommand(command) {
  const url = databaseUrl();
  say(`database: ${command} ${redact(url)}`);
  const { code } = await run(process.execPath, ['libs/db/dist/cli.js', command], {
    env: { DATABASE_URL: url },
  });
  if (code !== 0) throw new PrepareError(`Database ${command} failed (output above).`);
}

/**
 * The demo geodata (libs/geo's generator at its default scale, 20 000 addresses around real towns) when
 * geo.addresses is empty; a database that has addresses (generated, imported) is left alone.
 */
async function seedGeodata() {
  const url = databaseUrl();
  say(`geodata: generating the default dataset into ${redact(url)} if it has no addresses`);
  const { code } = await run(
    process.execPath,
    ['libs/geo/dist/generate-cli.js', '--if-empty', '--progress', 'lines'],
    {
      env: { DATABASE_URL: url },
    },
  );
  if (code !== 0) throw new PrepareError('Generating the geodata failed (output above).');
}

/**
 * The IRiS risk layers (libs/geo's risk importer: crime, elevation, water, fire stations, soil) from the
 * team's shared data folder ($GEO_SHARED_DATA_DIR or ../shared/data) when schema risk has none loaded yet.
 * Without the folder, one line says so and the reports say their data is not loaded.
 */
async function importRiskLayers() {
  const dir = [process.env.GEO_SHARED_DATA_DIR, `${ROOT}/../shared/data`].find(
    (candidate) => candidate && existsSync(`${candidate}/README.md`),
  );
  if (!dir) {
    say(
      'risk layers: no ../shared/data folder here, skipped (IRiS reports will say their data is not loaded)',
    );
    return;
  }
  const url = databaseUrl();
  say(`risk layers: importing ${show(dir)} into ${redact(url)} if none is loaded`);
  const { code } = await run(process.execPath, ['libs/geo/dist/import-cli.js', 'risk', dir, '--if-empty'], {
    env: { DATABASE_URL: url },
  });
  if (code !== 0) throw new PrepareError('Importing the risk layers failed (output above).');
}

// ---------------------------------------------------------------------------------------------------------

/**
 * Everything `npm start` needs (Chromium included: the PDF worker renders with it); `testRemote` adds the
 * e2e test remote's build.
 */
export async function prepare({ testRemote = false, gdal = testRemote, osm2pgsql = false } = {}) {
  const started = Date.now();
  const aptInstall = createApt();
  await ensureNpmDependencies();
  await ensurePostgres(aptInstall);
  await ensureRedis(aptInstall);
  // Chromium renders the PDFs (the iris worker) as well as running the browser tests: always needed.
  await ensureChromium(aptInstall);
  // The tests' GIS client (issue 23); `npm test` prepares with testRemote.
  if (gdal) await ensureGdal(aptInstall);
  // The alert rules' checks (issue 24): tests only, with GDAL.
  if (gdal) await ensurePromtool(aptInstall);
  // The OSM import baseline of the benchmarks (issue 23); `npm run bench` prepares with it.
  if (osm2pgsql) await ensureOsm2pgsql(aptInstall);
  await build({ testRemote });
  ensureJwtKeys();
  await runDatabaseCommand('migrate-and-seed');
  await seedGeodata();
  await importRiskLayers();
  say(`ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Just one database command (npm run db:migrate / db:seed), with what it needs. */
export async function prepareDatabase(command) {
  await ensureNpmDependencies();
  await ensurePostgres(createApt());
  await buildDatabaseLibrary();
  await runDatabaseCommand(command);
}

/** Runs `work`, turning a PrepareError into its message and exit code 1. */
export async function exitOnPrepareError(work) {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof PrepareError)) throw err;
    console.error(`\n[prepare] stopped: ${err.message}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const FLAGS = ['--test-remote', '--only-migrate', '--only-seed'];
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => !FLAGS.includes(arg));
  if (unknown.length > 0) {
    console.error(
      `Unknown option ${unknown.join(' ')}. Usage: node scripts/prepare.mjs [${FLAGS.join('] [')}]`,
    );
    process.exit(2);
  }
  await exitOnPrepareError(() => {
    if (args.includes('--only-migrate')) return prepareDatabase('migrate');
    if (args.includes('--only-seed')) return prepareDatabase('seed');
    return prepare({ testRemote: args.includes('--test-remote') });
  });
}
