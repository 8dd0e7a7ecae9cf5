#!/usr/bin/env node
// docker/compose.yml on this kind of machine (Debian 12 as root, no Docker daemon, no systemd, no image
// registry reachable): Debian's docker-compose 1.29 talking to podman's Docker-compatible API.
//
//   node scripts/compose-podman.mjs up [--skip-build] [--port 8080] [--file docker/compose.bench.yml]
//                                                                      build, start, wait for the gateway
//   node scripts/compose-podman.mjs compose <args…>                   docker-compose on the deployment
//   node scripts/compose-podman.mjs down                              compose down -v, stop what up started
//
// Needs `apt-get install -y podman runc debootstrap netavark aardvark-dns docker-compose` (netavark and
// aardvark-dns: the compose network's bridge and its service-name DNS). What `up` does:
// 1. the images: the Node base and the 18 images of docker/ as the containers test builds them
//    (scripts/lib/podman.mjs; --skip-build reuses them), and the stand-ins for the three images compose.yml
//    pulls (docker/local/: PostgreSQL + PostGIS, Redis, Prometheus from Debian's archive), which
//    docker/compose.local-images.yml puts in their place (Grafana has none and is left out);
// 2. podman's Docker API on unix:///run/podman/podman.sock (`podman system service`), unless it answers;
// 3. a health-check ticker: podman runs health checks from systemd timers, and without systemd nobody
//    runs them, so no container would ever be `healthy` (compose's depends_on, the bench's wait). The
//    ticker runs each running container's check through the API at the check's own interval, the first
//    one an interval after the container started, as Docker does;
// 4. docker-compose 1.29 predates compose.yml's top-level `name:`: a copy without it in the cache folder,
//    run with `-p portal --project-directory docker` (relative paths as for compose.yml itself) and the
//    settings written to an env file there (PORTAL_PORT, PUBLIC_URL, PROMETHEUS_PORT, SHARED_DATA_DIR);
//    Each --file adds an override after compose.local-images.yml (kept for `compose` and `down`);
// 5. `up -d --no-build` (every service but Grafana), then waits for the gateway's /ready. When compose
//    stops at a dependency a slow health check made unhealthy, waits until all are healthy and starts
//    what has no container yet (`startTheRest`).
// The rolling-restart bench runs against it (with docker/compose.bench.yml: the login limits raised) with
//   node bench/rolling-restart.mjs --compose --gateway http://localhost:<port> \
//     --compose-command "node scripts/compose-podman.mjs compose"
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import {
  BASE_IMAGE,
  CACHE,
  Failed,
  buildBaseImage,
  buildImage,
  dockerfileNames,
  fail,
  imageExists,
  podman,
  podmanEnv,
  podmanFlags,
  root,
  sleep,
  snapshotContext,
  waitForReady,
  which,
} from './lib/podman.mjs';

const SOCKET = '/run/podman/podman.sock';
const PROJECT = 'portal';
const STATE = join(CACHE, 'compose');
const SERVICE_PID = join(STATE, 'podman-service.pid');
const TICKER_PID = join(STATE, 'health-ticker.pid');
const ENV_FILE = join(STATE, 'compose.env');
const COMPOSE_COPY = join(STATE, 'compose.yml');
const EXTRA_FILES = join(STATE, 'files.json');
/** The stand-ins of docker/compose.local-images.yml: image → its Dockerfile in docker/local/. */
const STAND_INS = {
  'localhost/portal-postgis:15': 'Dockerfile.postgis',
  'localhost/portal-redis:7': 'Dockerfile.redis',
  'localhost/portal-prometheus:2': 'Dockerfile.prometheus',
};

const [command = 'help', ...rest] = process.argv.slice(2);
const option = (name, fallback) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? rest[at + 1] : fallback;
};
const options = (name) => rest.flatMap((arg, i) => (arg === `--${name}` ? [rest[i + 1]] : []));

// ---- podman's Docker-compatible API ----

/** A call to the API on the socket: the parsed JSON answer (or text), or an error with its status. */
function api(method, path) {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath: SOCKET, method, path, timeout: 60_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        let value = body;
        try {
          value = JSON.parse(body);
        } catch {
          // plain text (the /_ping answer)
        }
        if (res.statusCode >= 200 && res.statusCode < 300) resolve(value);
        else reject(new Error(`${method} ${path}: ${res.statusCode} ${body.slice(0, 300)}`));
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${path}: timed out`)));
    request.on('error', reject);
    request.end();
  });
}
const apiAnswers = () =>
  api('GET', '/_ping').then(
    () => true,
    () => false,
  );

const pidAlive = (file) => {
  if (!existsSync(file)) return false;
  const pid = Number(readFileSync(file, 'utf8'));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return false;
  }
};

/** Starts `command` detached (it outlives this script), its output in `log`, its PID in `pidFile`. */
function startDetached(file, args, { pidFile, log, env = process.env }) {
  const out = openSync(log, 'a');
  const child = spawn(file, args, { detached: true, stdio: ['ignore', out, out], env });
  child.unref();
  writeFileSync(pidFile, String(child.pid));
  return child.pid;
}

async function startApi() {
  if (await apiAnswers()) return console.log(`podman's API answers on ${SOCKET}`);
  mkdirSync('/run/podman', { recursive: true });
  const log = '/tmp/compose-podman-service.log';
  const pid = startDetached(
    'podman',
    [...podmanFlags(), 'system', 'service', '--time=0', `unix://${SOCKET}`],
    { pidFile: SERVICE_PID, log, env: podmanEnv() },
  );
  for (let i = 0; i < 50 && !(await apiAnswers()); i++) await sleep(200);
  if (!(await apiAnswers())) fail(`podman system service (pid ${pid}) does not answer on ${SOCKET}: ${log}`);
  console.log(`podman system service started (pid ${pid}, log ${log})`);
}

/**
 * The health checks podman would run from systemd timers: every running container's own check at its
 * interval (default 30 s), the first an interval after it started, one at a time per container.
 */
async function healthTicker() {
  const checks = new Map(); // id → { interval, started, last, running } or null (no health check)
  for (;;) {
    let list = [];
    try {
      list = await api('GET', '/v4.0.0/libpod/containers/json');
    } catch (err) {
      console.error(new Date().toISOString(), err.message);
      await sleep(2_000);
      continue;
    }
    const now = Date.now();
    for (const container of list) {
      let check = checks.get(container.Id);
      if (check === undefined || (check && check.started !== container.StartedAt)) {
        const info = await api('GET', `/v4.0.0/libpod/containers/${container.Id}/json`).catch(() => null);
        const health = info?.Config?.Healthcheck;
        check = health?.Test?.length
          ? {
              interval: health.Interval ? health.Interval / 1e6 : 30_000,
              started: container.StartedAt,
              last: container.StartedAt * 1000,
              running: false,
            }
          : null;
        checks.set(container.Id, check);
      }
      if (!check || check.running || now - check.last < check.interval) continue;
      check.running = true;
      check.last = now;
      // (GET runs the check in podman 4's API.)
      api('GET', `/v4.0.0/libpod/containers/${container.Id}/healthcheck`)
        .catch(() => {}) // stopped meanwhile, or the check's own failure (recorded by podman)
        .finally(() => {
          check.running = false;
        });
    }
    await sleep(500);
  }
}

function startTicker() {
  const running = pidAlive(TICKER_PID);
  if (running) return console.log(`health-check ticker running (pid ${running})`);
  const log = '/tmp/compose-health-ticker.log';
  const pid = startDetached(process.execPath, [process.argv[1], 'health-ticker'], {
    pidFile: TICKER_PID,
    log,
  });
  console.log(`health-check ticker started (pid ${pid}, log ${log})`);
}

// ---- docker-compose ----

function composeArgs() {
  if (!existsSync(COMPOSE_COPY)) fail(`no deployment set up (${COMPOSE_COPY} missing): run \`up\` first`);
  return [
    '-p',
    PROJECT,
    '--project-directory',
    join(root, 'docker'),
    '--env-file',
    ENV_FILE,
    '-f',
    COMPOSE_COPY,
    '-f',
    join(root, 'docker/compose.local-images.yml'),
    ...(existsSync(EXTRA_FILES) ? JSON.parse(readFileSync(EXTRA_FILES, 'utf8')) : []).flatMap((file) => [
      '-f',
      file,
    ]),
  ];
}
/** docker-compose on the deployment's files, through podman's API. */
const spawnCompose = (args, options) =>
  spawnSync('docker-compose', [...composeArgs(), ...args], {
    env: { ...process.env, DOCKER_HOST: `unix://${SOCKET}` },
    ...options,
  });

function compose(args, { allowFail = false } = {}) {
  console.log(`$ docker-compose ${args.join(' ')}`);
  const result = spawnCompose(args, { stdio: 'inherit' });
  if (result.status !== 0 && !allowFail) fail(`docker-compose ${args[0]} exited ${result.status}`);
  return result.status;
}

/** docker-compose's output lines (quiet). */
function composeOutput(args) {
  const result = spawnCompose(args, { encoding: 'utf8' });
  if (result.status !== 0) fail(`docker-compose ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

/** compose.yml without its top-level `name:` (docker-compose 1.29 refuses it), and the settings. */
function writeComposeFiles(port, extraFiles) {
  mkdirSync(STATE, { recursive: true });
  writeFileSync(EXTRA_FILES, JSON.stringify(extraFiles.map((file) => resolve(file))));
  const text = readFileSync(join(root, 'docker/compose.yml'), 'utf8');
  writeFileSync(COMPOSE_COPY, text.replace(/^name: .*\n/m, ''));
  const settings = {
    PORTAL_PORT: String(port),
    PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${port}`,
    PROMETHEUS_PORT: process.env.PROMETHEUS_PORT || '9090',
    ...(process.env.SHARED_DATA_DIR ? { SHARED_DATA_DIR: process.env.SHARED_DATA_DIR } : {}),
    ...(process.env.DB_COMMAND ? { DB_COMMAND: process.env.DB_COMMAND } : {}),
  };
  writeFileSync(
    ENV_FILE,
    Object.entries(settings)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  return settings;
}

// ---- the images ----

function buildImages(skipBuild) {
  buildBaseImage();
  const missingStandIns = Object.entries(STAND_INS).filter(([image]) => !imageExists(image));
  if (missingStandIns.length) {
    // Their context is docker/local alone (their Dockerfiles copy nothing else).
    const context = join(CACHE, 'local-context');
    rmSync(context, { recursive: true, force: true });
    mkdirSync(join(context, 'docker'), { recursive: true });
    execFileSync('cp', ['-a', join(root, 'docker/local'), join(context, 'docker/local')]);
    for (const [image, dockerfile] of missingStandIns)
      buildImage(image, context, {
        tag: image,
        dockerfile: `docker/local/${dockerfile}`,
        args: { BASE_IMAGE },
      });
  }
  const names = dockerfileNames();
  if (!skipBuild) {
    console.log("\n== building the portal's images (one per service, worker and remote)");
    const context = join(CACHE, 'context');
    snapshotContext(context);
    for (const name of names) buildImage(name, context);
  }
  const missing = names.filter((name) => !imageExists(`localhost/portal-${name}:latest`));
  if (missing.length) fail(`images missing (run without --skip-build): ${missing.join(', ')}`);
}

/** The project's containers (names) that have a health check and are not healthy now. */
const notHealthy = () =>
  ['starting', 'unhealthy'].flatMap((health) =>
    podman(
      [
        'ps',
        '--filter',
        `label=com.docker.compose.project=${PROJECT}`,
        '--filter',
        `health=${health}`,
        '--format',
        '{{.Names}}',
      ],
      { quiet: true },
    )
      .stdout.split('\n')
      .filter(Boolean),
  );

/**
 * When `up` stopped at an unhealthy dependency. On a busy 2-core host a health check (a `node -e` fetch of
 * /ready, 3 s timeout) can time out three times running while compose starts the rest — every `up` runs
 * the one-shots again — and compose then starts nothing that depends on that container, though it is
 * healthy again at the next check. So: wait until every container with a check is healthy, then start
 * the services that have no container yet, their dependencies being up.
 */
async function startTheRest() {
  const until = Date.now() + 300_000;
  let waiting = notHealthy();
  while (waiting.length && Date.now() < until) {
    console.log(`waiting for ${waiting.join(', ')} to be healthy`);
    await sleep(5_000);
    waiting = notHealthy();
  }
  if (waiting.length) fail(`not healthy within 5 minutes: ${waiting.join(', ')}`);
  const services = composeOutput(['config', '--services']).filter((service) => service !== 'grafana');
  const missing = services.filter((service) => composeOutput(['ps', '-aq', service]).length === 0);
  if (missing.length) compose(['up', '-d', '--no-build', '--no-deps', ...missing]);
}

// ---- the commands ----

async function up() {
  for (const tool of ['podman', 'docker-compose', 'netavark', 'aardvark-dns'])
    if (!which(tool) && !existsSync(`/usr/lib/podman/${tool}`))
      fail(
        `${tool} is not installed (apt-get install -y podman runc debootstrap netavark aardvark-dns docker-compose)`,
      );
  const port = Number(option('port', process.env.PORTAL_PORT || '8080'));
  mkdirSync(STATE, { recursive: true });
  buildImages(rest.includes('--skip-build'));
  await startApi();
  startTicker();
  const settings = writeComposeFiles(port, options('file'));
  console.log(
    `\n== compose up (${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')})`,
  );
  const started = Date.now();
  if (compose(['up', '-d', '--no-build'], { allowFail: true }) !== 0) await startTheRest();
  await waitForReady(`http://127.0.0.1:${port}/ready`, 300, 2_000);
  console.log(
    `\nThe portal answers on http://localhost:${port} (up in ${Math.round((Date.now() - started) / 1000)} s).\n` +
      `  node scripts/compose-podman.mjs compose ps\n` +
      `  node bench/rolling-restart.mjs --compose --gateway http://localhost:${port} --compose-command "node scripts/compose-podman.mjs compose"\n` +
      `  node scripts/compose-podman.mjs down`,
  );
}

function down() {
  if (existsSync(COMPOSE_COPY)) compose(['down', '-v', '--remove-orphans'], { allowFail: true });
  rmSync(COMPOSE_COPY, { force: true });
  rmSync(EXTRA_FILES, { force: true });
  for (const [what, file] of [
    ['health-check ticker', TICKER_PID],
    ['podman system service', SERVICE_PID],
  ]) {
    const pid = pidAlive(file);
    if (pid) {
      process.kill(pid, 'SIGTERM');
      console.log(`stopped the ${what} (pid ${pid})`);
    }
    rmSync(file, { force: true });
  }
  // What compose leaves in podman when a run stopped halfway (containers of the project, its network).
  const left = podman(['ps', '-aq', '--filter', `label=com.docker.compose.project=${PROJECT}`], {
    quiet: true,
    allowFail: true,
  }).stdout.trim();
  if (left) podman(['rm', '-f', ...left.split('\n')], { allowFail: true });
}

async function main() {
  if (command === 'up') return up();
  if (command === 'down') return down();
  if (command === 'health-ticker') return healthTicker();
  if (command === 'compose') {
    // Pass-through (the bench's --compose-command): docker-compose's own output and exit code.
    process.exitCode = spawnCompose(rest, { stdio: 'inherit' }).status ?? 1;
    return;
  }
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\nimport ')[0]);
}

main().catch((err) => {
  console.error(err instanceof Failed ? `compose-podman: ${err.message}` : err);
  process.exitCode = 1;
});
