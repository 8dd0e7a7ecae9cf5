// A rolling restart of every service under load, through the gateway (issue 15): "a load run across a
// restart of any one service sees no failed request".
// It starts every routed service of config/services.json twice (`<name>` and `<name>#2`, the gateway's
// <NAME>_URL listing both: it takes them in turn and sends a refused connection to the other) and the
// gateway, over the bench databases (bench/load.mjs: startBenchPortal). Then, while --clients clients send a
// mix of GETs and POSTs of every service through the gateway without pause, each service's instances are
// restarted one at a time: SIGTERM (the instance answers /ready 503 and closes each connection after its
// answer, stops listening, waits for its open connections, then exits), wait for the exit, start it again,
// wait until it is ready, then the next instance. Every answer that is not 2xx and every failed connection
// counts as a failed request (target: 0). For each stop it also records what /ready answered while the
// instance drained and whether those answers closed their connection.
// Then the same with one instance of each service (the gateway sends a refused or cut GET once more after
// 250 ms; a POST then fails): reported for comparison, not a target.
// Usage: node bench/rolling-restart.mjs [--clients 20] [--single-only | --skip-single]
//        (or: node bench/run.mjs --only rolling-restart)
//
// --compose: the same load and the same restarts against the compose deployment (docker/compose.yml: two
// instances of every service, `<name>` and `<name>-2`, behind the gateway), already up: each instance in
// turn is stopped (`compose stop`: SIGTERM, then SIGKILL after --stop-timeout, default 30 s), started and
// waited for until its health check says healthy. The densest tiles and a SAVi request are read with psql
// in the postgres container (without a SAVi request, one is logged through the gateway as the demo admin).
// Writes bench/results/rolling-restart-compose.json. The deployment needs identity's login limits raised,
// as the process mode's portal has them: docker/compose.bench.yml on top of compose.yml.
//   node bench/rolling-restart.mjs --compose [--gateway http://localhost:8080] [--compose-command "…"]
// --compose-command is the compose command up to its subcommand, files and project included; without it
// `docker compose -f docker/compose.yml`, else `podman-compose -f docker/compose.yml`. Containers are
// inspected with podman when the command names podman, else with docker. On a machine with no Docker
// daemon and no registry: --compose-command "node scripts/compose-podman.mjs compose" (docker/README.md).
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startProcess, waitUntilReady } from '../scripts/lib/processes.mjs';
import { sleep } from '../scripts/lib/system.mjs';
import {
  adminCookie,
  denseTiles,
  geocodeQueries,
  pagerPaths,
  routedServices,
  startBenchPortal,
} from './load.mjs';
import { percentile, round } from './stats.mjs';
import { option, flag, benchLog } from './lib/cli.mjs';

const log = benchLog('rolling-restart');

/**
 * The calls of the load, by service: each must answer 2xx (checked before the load starts). POSTs where
 * the service has one the bench can repeat freely from many clients at once (a login, a geocode, a saved
 * view, a release of nothing held; the report builder's saves carry the report's version, and concurrent
 * ones answer 409 by design, so it gets GETs only).
 */
async function callMix(portal) {
  const tiles = await denseTiles(portal.geoUrl, 50);
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: portal.requestsUrl });
  await db.connect();
  const {
    rows: [{ id: requestId }],
  } = await db.query(FIRST_SAVI_REQUEST);
  await db.end();
  return mixOf({ tiles, requestId });
}

const FIRST_SAVI_REQUEST = `SELECT id FROM requests.requests WHERE request_type = 'SAVI' ORDER BY id LIMIT 1`;

/** The calls, given the densest tiles and a SAVi request's id (what the report builder's GET reads). */
async function mixOf({ tiles, requestId }) {
  const queries = await geocodeQueries();
  const pager = pagerPaths();
  let n = 0;
  const pick = (list) => list[n++ % list.length];
  const run = Date.now().toString(36);
  return {
    identity: [
      () => ({ method: 'GET', path: '/api/v1.0/users/me' }),
      () => ({ method: 'GET', path: '/api/v1.0/users/me' }),
      () => ({
        method: 'POST',
        path: '/api/v1.0/login',
        body: { email: 'admin@portal.test', password: 'Portal-demo-2026' },
      }),
    ],
    'services-admin': [() => ({ method: 'GET', path: '/api/v1.0/groups' })],
    locator: [
      () => ({ method: 'POST', path: '/api/avs/geocode', body: { address: pick(queries) } }),
      () => {
        const { x, y } = pick(tiles);
        return { method: 'GET', path: `/api/v1.0/tiles/parcels/14/${x}/${y}.mvt` };
      },
    ],
    reportbuilder: [() => ({ method: 'GET', path: `/api/v1.0/reportbuilder/requestComments/${requestId}` })],
    requests: [
      () => ({ method: 'GET', path: pick(pager) }),
      () => ({
        method: 'POST',
        path: '/api/v1.0/request/views',
        body: { name: `bench ${run} ${n++ % 1000}`, state: {} },
      }),
    ],
    'avs-editor': [
      () => ({ method: 'GET', path: '/api/v1.0/addresseditor/settings' }),
      () => ({
        method: 'POST',
        path: '/api/v1.0/addresseditor/release',
        body: { kind: 'parcel', id: 'nothing-held' },
      }),
    ],
    iris: [() => ({ method: 'GET', path: '/api/v1.0/iris/settings' })],
  };
}

async function send(gateway, cookie, { method, path, body }) {
  const headers = { cookie };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  try {
    const res = await fetch(`${gateway}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, text };
  } catch (err) {
    return { status: 0, ms: performance.now() - started, text: err.cause?.code ?? err.message };
  }
}

/** Each call of the mix once: a bench whose calls fail without any restart would measure nothing. */
async function checkMix(gateway, cookie, mix) {
  for (const [service, calls] of Object.entries(mix))
    for (const call of calls) {
      const request = call();
      const answer = await send(gateway, cookie, request);
      if (answer.status < 200 || answer.status > 299)
        throw new Error(
          `${service}: ${request.method} ${request.path} answers ${answer.status} before any restart: ${answer.text.slice(0, 300)}`,
        );
    }
}

/**
 * `clients` clients, each sending the next call of the mix (services in turn) as soon as its previous one
 * is answered. Records every request's time, service, method and outcome.
 */
function startLoad(gateway, cookie, mix, clients) {
  const calls = Object.entries(mix).flatMap(([service, list]) => list.map((call) => ({ service, call })));
  let turn = 0;
  let stopped = false;
  const outcomes = [];
  const client = async () => {
    while (!stopped) {
      const { service, call } = calls[turn++ % calls.length];
      const request = call();
      const at = Date.now();
      const answer = await send(gateway, cookie, request);
      outcomes.push({
        at,
        service,
        method: request.method,
        path: request.path.split('?')[0],
        status: answer.status,
        ms: answer.ms,
        ...(answer.status >= 200 && answer.status <= 299 ? {} : { detail: answer.text.slice(0, 200) }),
      });
    }
  };
  const started = Date.now();
  const running = Array.from({ length: clients }, client);
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(running);
      return { seconds: (Date.now() - started) / 1000 };
    },
  };
}

/**
 * While an instance stops: /ready polled on fresh connections until the port refuses. Answers what was
 * seen: the statuses, and whether each answer carried `Connection: close`.
 */
async function watchDrain(port, exited) {
  const seen = { ready503: 0, ready200: 0, otherStatus: 0, closeHeader: 0, answers: 0, refusedAfterMs: null };
  const started = Date.now();
  let done = false;
  exited.then(() => (done = true));
  while (!done) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`, {
        headers: { connection: 'close' },
        signal: AbortSignal.timeout(2_000),
      });
      await res.text();
      seen.answers++;
      if (res.status === 503) seen.ready503++;
      else if (res.status === 200) seen.ready200++;
      else seen.otherStatus++;
      // Asked with Connection: close, any answer closes; the service's own header shows in its logs only.
    } catch {
      seen.refusedAfterMs = Date.now() - started;
      break;
    }
    await sleep(50);
  }
  return seen;
}

/** A kept-alive GET of /ready on the instance: does the service itself answer Connection: close? */
async function keepAliveReady(port) {
  const http = await import('node:http');
  return new Promise((resolve) => {
    const agent = new http.Agent({ keepAlive: true });
    const request = http.get(`http://127.0.0.1:${port}/ready`, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        agent.destroy();
        resolve({ status: res.statusCode, connection: res.headers.connection ?? null });
      });
    });
    request.on('error', (err) => {
      agent.destroy();
      resolve({ status: 0, connection: err.code ?? err.message });
    });
  });
}

/** Restarts one instance (SIGTERM, exit, start, ready); answers the timings and what its drain showed. */
async function restartInstance(portal, index) {
  const running = portal.running[index];
  const { spec } = running;
  const signalled = Date.now();
  running.child.kill('SIGTERM');
  const [drain, keepAlive] = await Promise.all([
    watchDrain(spec.port, running.exited),
    sleep(100).then(() => keepAliveReady(spec.port)),
  ]);
  const exitCode = await running.exited;
  const exitedAt = Date.now();
  const next = startProcess(spec, { logFile: portal.logFile(spec) });
  portal.running[index] = next;
  await waitUntilReady(next);
  const readyAt = Date.now();
  return {
    instance: spec.name,
    signalled,
    readyAt,
    exitCode,
    stopMs: exitedAt - signalled,
    startMs: readyAt - exitedAt,
    drain: { ...drain, keptAliveAnswer: keepAlive },
  };
}

const isFailure = (outcome) => outcome.status < 200 || outcome.status > 299;

function summarise(outcomes) {
  const failed = outcomes.filter(isFailure);
  const byService = {};
  for (const outcome of outcomes) {
    const entry = (byService[`${outcome.service} ${outcome.method}`] ??= { requests: 0, failed: 0 });
    entry.requests++;
    if (isFailure(outcome)) entry.failed++;
  }
  const times = outcomes.map((o) => o.ms);
  const failedByStatus = {};
  for (const { status } of failed) failedByStatus[status] = (failedByStatus[status] ?? 0) + 1;
  return {
    requests: outcomes.length,
    failed: failed.length,
    failedByStatus,
    p50Ms: round(percentile(times, 50)),
    p99Ms: round(percentile(times, 99)),
    byCall: byService,
    failures: failed.slice(0, 20).map(({ at, service, method, path, status, detail }) => ({
      at: new Date(at).toISOString(),
      service,
      method,
      path,
      status,
      detail,
    })),
  };
}

/** One run: the portal with `instances` of each routed service, each instance restarted in turn under load. */
export async function measureRestarts({ instances = 2, clients = 20, settleMs = 1_000 } = {}) {
  const services = routedServices();
  const portal = await startBenchPortal({
    services,
    instances: Object.fromEntries(services.map((name) => [name, instances])),
    logName: `restart-${instances}`,
  });
  try {
    const cookie = await adminCookie(portal.gateway);
    const mix = await callMix(portal);
    await checkMix(portal.gateway, cookie, mix);
    log(`${instances} instance(s) of ${services.join(', ')}; ${clients} clients`);
    const load = startLoad(portal.gateway, cookie, mix, clients);
    await sleep(3_000);
    const restarts = [];
    for (const service of services) {
      for (let i = 1; i <= instances; i++) {
        const name = i === 1 ? service : `${service}#${i}`;
        const index = portal.running.findIndex((running) => running.spec.name === name);
        const restart = await restartInstance(portal, index);
        await sleep(settleMs);
        const during = load.outcomes.filter((o) => o.at >= restart.signalled && o.at <= Date.now());
        const failed = during.filter(isFailure).length;
        log(
          `${name}: stopped in ${restart.stopMs} ms (exit ${restart.exitCode}), ready again ${restart.startMs} ms later; ` +
            `/ready 503 ×${restart.drain.ready503} (200 ×${restart.drain.ready200}) before refusing; kept-alive /ready: ` +
            `${restart.drain.keptAliveAnswer.status} Connection: ${restart.drain.keptAliveAnswer.connection}; ` +
            `${during.length} requests meanwhile, ${failed} failed`,
        );
        restarts.push({ ...restart, requestsMeanwhile: during.length, failedMeanwhile: failed });
      }
    }
    await sleep(2_000);
    const { seconds } = await load.stop();
    const summary = summarise(load.outcomes);
    log(
      `${instances} instance(s): ${summary.requests} requests in ${round(seconds)} s, ${summary.failed} failed`,
    );
    return {
      instancesPerService: instances,
      services,
      clients,
      seconds: round(seconds),
      ...summary,
      restarts: restarts.map(({ signalled: _signalled, readyAt: _readyAt, ...rest }) => rest),
    };
  } finally {
    await portal.stop();
  }
}

// ---- the compose deployment ----

/** The compose command with its files: as given, else `docker compose` (with a daemon), else podman-compose. */
function composeCommand(given) {
  if (given) return given.split(' ').filter(Boolean);
  const file = new URL('../docker/compose.yml', import.meta.url).pathname;
  const docker = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (docker.status === 0) return ['docker', 'compose', '-f', file];
  if (spawnSync('podman-compose', ['version'], { encoding: 'utf8' }).status === 0)
    return ['podman-compose', '-f', file];
  throw new Error(
    'neither `docker compose` nor podman-compose runs here: start the compose deployment where containers run (docker/README.md), or use the process mode (without --compose)',
  );
}

const execFileAsync = promisify(execFile);
const PSQL = ['exec', '-T', 'postgres', 'psql', '-U', 'postgres', '-d', 'portal', '-AtF', ','];

function composeRunner(command) {
  const engine = command.some((part) => part.includes('podman')) ? 'podman' : 'docker';
  // While the load runs everything is asynchronous: a synchronous child would hold the clients' event
  // loop (no request sent or answered) for as long as each `compose stop` takes.
  const run = async (args) =>
    (
      await execFileAsync(command[0], [...command.slice(1), ...args], { maxBuffer: 16 * 1024 * 1024 })
    ).stdout.trim();
  const inspect = async (id, format) =>
    (await execFileAsync(engine, ['inspect', '--format', format, id])).stdout.trim();
  return {
    run,
    container: async (service) => (await run(['ps', '-aq', service])).split('\n')[0],
    health: (id) => inspect(id, '{{if .State.Health}}{{.State.Health.Status}}{{end}}'),
    exitCode: async (id) => Number(await inspect(id, '{{.State.ExitCode}}')),
    /** Rows of a query in the deployment's database (psql in the postgres container), as arrays. */
    sql: async (query) =>
      (await run([...PSQL, '-c', query]))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(',')),
  };
}

/** A SAVi request logged through the gateway (the request tool's form, at the densest parcel's point). */
async function logSaviRequest(gateway, cookie, { lat, lng }) {
  const answer = await send(gateway, cookie, {
    method: 'PUT',
    path: '/api/v1.0/request/',
    body: {
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      Searched_For: 'rolling-restart bench',
      mode: 'gps',
      coordinates: { lat, lng },
      coordinateArray: [lat, lng],
      map: { lat, lng, zoom: 18 },
      idempotencyKey: 'rolling-restart-bench-savi',
    },
  });
  if (answer.status !== 201)
    throw new Error(`logging a SAVi request answered ${answer.status}: ${answer.text}`);
}

/**
 * Each instance of each routed service of the compose deployment restarted in turn under the load, through
 * its gateway: stopped (SIGTERM; the service drains as in the process mode), started, healthy again.
 */
export async function measureComposeRestarts({
  clients = 20,
  settleMs = 1_000,
  gateway = 'http://localhost:8080',
  command,
  stopTimeout = 30,
  healthyWithinMs = 180_000,
} = {}) {
  const compose = composeRunner(composeCommand(command));
  const services = routedServices();
  const parcels = await compose.sql(
    `WITH c AS (SELECT ST_X(ST_PointOnSurface(geom)) AS lng, ST_Y(ST_PointOnSurface(geom)) AS lat FROM geo.parcels)
     SELECT floor((lng + 180) / 360 * 16384)::int, floor((1 - ln(tan(radians(lat)) + 1 / cos(radians(lat))) / pi()) / 2 * 16384)::int,
            avg(lat), avg(lng)
     FROM c GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 50`,
  );
  if (!parcels.length)
    throw new Error(
      'the compose database has no parcels: load geodata first (the geodata one-shot, docker/README.md)',
    );
  const cookie = await adminCookie(gateway);
  let [[requestId] = []] = await compose.sql(FIRST_SAVI_REQUEST);
  if (!requestId) {
    const [, , lat, lng] = parcels[0];
    await logSaviRequest(gateway, cookie, { lat: Number(lat), lng: Number(lng) });
    [[requestId] = []] = await compose.sql(FIRST_SAVI_REQUEST);
  }
  const tiles = parcels.map(([x, y]) => ({ x: Number(x), y: Number(y) }));
  const mix = await mixOf({ tiles, requestId });
  await checkMix(gateway, cookie, mix);
  log(`compose: 2 instances of ${services.join(', ')}; ${clients} clients through ${gateway}`);
  const load = startLoad(gateway, cookie, mix, clients);
  await sleep(3_000);
  const restarts = [];
  for (const service of services) {
    for (const instance of [service, `${service}-2`]) {
      const id = await compose.container(instance);
      const signalled = Date.now();
      await compose.run(['stop', '-t', String(stopTimeout), instance]);
      const exitedAt = Date.now();
      const exitCode = await compose.exitCode(id);
      await compose.run(['start', instance]);
      // (`compose start` starts the same container: its id stays.)
      while ((await compose.health(id)) !== 'healthy') {
        if (Date.now() - exitedAt > healthyWithinMs)
          throw new Error(`${instance} not healthy ${healthyWithinMs / 1000} s after its start`);
        await sleep(250);
      }
      const readyAt = Date.now();
      await sleep(settleMs);
      const during = load.outcomes.filter((o) => o.at >= signalled && o.at <= Date.now());
      const failed = during.filter(isFailure).length;
      log(
        `${instance}: stopped in ${exitedAt - signalled} ms (exit ${exitCode}), healthy ${readyAt - exitedAt} ms later; ${during.length} requests meanwhile, ${failed} failed`,
      );
      restarts.push({
        instance,
        exitCode,
        stopMs: exitedAt - signalled,
        startMs: readyAt - exitedAt,
        requestsMeanwhile: during.length,
        failedMeanwhile: failed,
      });
    }
  }
  await sleep(2_000);
  const { seconds } = await load.stop();
  const summary = summarise(load.outcomes);
  log(`compose: ${summary.requests} requests in ${round(seconds)} s, ${summary.failed} failed`);
  return {
    deployment: 'docker/compose.yml',
    instancesPerService: 2,
    services,
    clients,
    seconds: round(seconds),
    ...summary,
    restarts,
    target: '0 failed requests',
    pass: summary.failed === 0,
  };
}

export async function measureRollingRestart({ clients = 20, single = true, multi = true } = {}) {
  const result = {};
  if (multi) {
    result.twoInstances = await measureRestarts({ instances: 2, clients });
    result.target = '0 failed requests with two instances of each service';
    result.pass = result.twoInstances.failed === 0;
  }
  if (single) result.oneInstance = await measureRestarts({ instances: 1, clients });
  return result;
}

/** Writes the figures to bench/results/rolling-restart.json and returns them. */
export function writeRollingRestartResults(result) {
  writeFileSync(
    new URL('./results/rolling-restart.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href && flag('compose')) {
  const result = await measureComposeRestarts({
    clients: Number(option('clients', '20')),
    gateway: option('gateway', 'http://localhost:8080'),
    command: option('compose-command', undefined),
    stopTimeout: Number(option('stop-timeout', '30')),
  });
  writeFileSync(
    new URL('./results/rolling-restart-compose.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
  console.log(JSON.stringify(result, null, 2));
  if (!result.pass) process.exitCode = 1;
} else if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = writeRollingRestartResults(
    await measureRollingRestart({
      clients: Number(option('clients', '20')),
      single: !flag('skip-single'),
      multi: !flag('single-only'),
    }),
  );
  console.log(JSON.stringify({ ...result }, null, 2));
  if (result.pass === false) process.exitCode = 1;
}
