// Faults (issue 15): the portal keeps its promises while what it stands on fails, checked end to end
// through the gateway on a portal of this test's own — its own processes on free ports, its own throwaway
// database and its own redis-server, so killing them disturbs nothing else on the machine.
//
//   - Redis restarted: while it is down, calls answer a JSON 503 within seconds (no hang, no 500); once it
//     is back — no service restarted — login works, an authenticated call works, the login rate limit
//     counts again, a console socket hears an event, and a queued job (the console's xlsx export) is done.
//   - PostgreSQL connections killed (pg_terminate_backend) mid-run: the calls that fail are JSON 503s
//     naming the database, none is a 500, and the next calls succeed on the same pools.
//   - A service killed (SIGKILL, nobody restarts it here): the gateway answers 502 naming it within 1 s;
//     once started again, normal answers (and the console's socket reconnects).
//   - Nothing lost: requests are created all along, and every one answered 201 is in the database at the
//     end.
//
// One file on purpose: the three faults run in turn against one portal that takes a minute to start, and
// the 'nothing lost' check spans all of them.
//
// Needs the build (`npm test` builds first; alone: `npx nx run-many -t build`, then
// `node --test scripts/lib/faults.test.mjs`), PostgreSQL as for the other tests and the redis-server binary.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { io } from 'socket.io-client';
import {
  freePortsForAll,
  portalProcesses,
  ROOT,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from './processes.mjs';
import { jwtKeyFiles } from './settings.mjs';
import { sleep } from './system.mjs';

const require = createRequire(import.meta.url);

/** The processes this test needs: sessions, requests (with its realtime socket and queue), its worker. */
const PROCESSES = ['identity', 'requests', 'requests-worker', 'gateway'];
/** The service killed in the third fault. */
const KILLED = 'requests';
const ATTEMPTS_PER_IP = 200;
const DATABASE_TEXT = 'The database is not available right now. Please try again shortly.';
/** The gateway's 502 for a service it cannot reach must come this fast (spec: within 1 s). */
const FAULT_ANSWER_MS = 1_000;

const BUILT = [
  'libs/db/dist/index.js',
  'libs/server-kit/dist/index.js',
  'libs/server-kit/dist/testing.js',
  'shell/dist/index.html',
];

/** @type {{ url: string, drop(): Promise<void> } | undefined} */
let database;
/** @type {import('./processes.mjs').RunningProcess[]} */
let running = [];
/** @type {Record<string, import('./processes.mjs').ProcessSpec>} */
let specs = {};
let base = '';
let runDir = '';
/**
 * A Redis of its own, so killing it disturbs nothing else: server-kit's startThrowawayRedis (a redis-server
 * on a free port, nothing kept on disk).
 * @type {{ url: string, stop(): Promise<void>, start(): Promise<void> } | undefined}
 */
let redis;
/** @type {import('socket.io-client').Socket[]} */
const sockets = [];

// --- Calls through the gateway, as a browser makes them -------------------------------------------------

/**
 * One call through the gateway: its status, JSON body (or text), headers and time taken. Never throws for
 * an answer; a call with no answer within `timeoutMs` reads status 0.
 */
async function call(method, path, { cookie, body, headers = {}, timeoutMs = 15_000 } = {}) {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers, ms: performance.now() - started };
  } catch (err) {
    return { status: 0, text: String(err.cause?.code ?? err.message), ms: performance.now() - started };
  }
}

/** Logs in with a demo account; answers the session cookie and the call's rate-limit headers. */
async function login(email) {
  const answer = await call('POST', '/api/v1.0/login', {
    body: { email, password: DEMO_PASSWORD },
  });
  assert.equal(answer.status, 200, `login of ${email}: ${answer.status} ${answer.text}`);
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, remaining: Number(answer.headers.get('x-ratelimit-remaining')) };
}
let DEMO_PASSWORD = '';

/** A read of services/requests: the first request written, as its owner sees it. */
const oneRequest = () => `/api/v1.0/request/${written[0].id}/any`;

/** A JSON failure as the portal answers them: status, error, message (and no internals). */
function assertClearFailure(answer, status, messagePattern, what) {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text}`);
  assert.equal(answer.json?.statusCode, status, `${what}: not the JSON error shape: ${answer.text}`);
  assert.match(answer.json.message, messagePattern, what);
}

// --- The writes that must not be lost ------------------------------------------------------------------

/** Every request answered 201 (its id), and every other answer the writes got, by fault. */
const written = [];
const refusedWrites = [];
let writeNumber = 0;

/** Creates one SAVI request as the demo user (the request tool's call); records what it was answered. */
async function writeRequest(cookie, phase) {
  const n = ++writeNumber;
  const lat = -33.93 - (n % 100) / 10_000;
  const lng = 18.86 + (n % 100) / 10_000;
  const address = `${n} Fault Street, Stellenbosch`;
  const answer = await call('PUT', '/api/v1.0/request/', {
    cookie,
    headers: { 'idempotency-key': `faults-${process.pid}-${n}` },
    body: {
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      Searched_For: address,
      mode: 'address',
      Selected_Address: address,
      coordinates: { lat, lng },
      reference: { POLICY_NUMBER: `KM${String(100000 + n)}` },
    },
  });
  if (answer.status === 201) {
    const id = /\/request\/([^/]+)\/any/.exec(answer.headers.get('location') ?? '')?.[1];
    assert.ok(id, `a 201 without the request's location: ${answer.text}`);
    written.push({ id, phase });
    return id;
  }
  refusedWrites.push({ phase, status: answer.status, message: answer.json?.message ?? answer.text });
  return null;
}

/** The writers running now: `after` stops any a failed test left behind. */
const writers = new Set();

/** Writes one request after the other until stopped; answers stop(), which waits for the last one. */
function keepWriting(cookie, phase) {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await writeRequest(cookie, phase);
      await sleep(20);
    }
  })();
  const stop = async () => {
    stopped = true;
    writers.delete(stop);
    await loop;
  };
  writers.add(stop);
  return stop;
}

/** The refused writes of a phase must all be clear failures with these statuses. */
function assertRefusalsClear(phase, allowed) {
  const refused = refusedWrites.filter((w) => w.phase === phase);
  for (const w of refused)
    assert.ok(
      allowed.includes(w.status) && typeof w.message === 'string' && w.message.length > 0,
      `a write during '${phase}' was answered ${w.status} ${w.message}`,
    );
  return refused.length;
}

// --- Realtime and the console's queue ------------------------------------------------------------------

/**
 * A console socket through the gateway with the request console's options (mf-requests-admin's
 * useRequestEvents: websocket only, REALTIME_CONNECT_TIMEOUT_MS, socket.io's reconnection delays), connected.
 */
async function openSocket(cookie) {
  const socket = io(base, {
    path: '/realtime/',
    transports: ['websocket'],
    extraHeaders: { cookie },
    timeout: 5_000,
  });
  sockets.push(socket);
  if (process.env.FAULTS_DEBUG) {
    // FAULTS_DEBUG=1: what each socket goes through, in ms since it was opened.
    const [n, t0] = [sockets.length, Date.now()];
    const log =
      (what) =>
      (...args) =>
        console.log(`socket ${n} +${Date.now() - t0} ms ${what}`, ...args.map(String));
    socket.on('disconnect', log('disconnect'));
    socket.on('connect', log('connect'));
    socket.on('connect_error', log('connect_error'));
    socket.io.on('reconnect_attempt', log('reconnect_attempt'));
    socket.io.on('reconnect_error', log('reconnect_error'));
    socket.io.on('reconnect_failed', log('reconnect_failed'));
  }
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket did not connect within 10 s')), 10_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return socket;
}

/** Every request id a socket heard of (update_requests), from now on; `has(id)` waits for one. */
function listen(socket) {
  const heard = new Set();
  const onEvent = (event) => {
    for (const id of event?.ids ?? []) heard.add(id);
  };
  socket.on('update_requests', onEvent);
  return {
    async has(id, what) {
      const deadline = Date.now() + 10_000;
      while (!heard.has(id) && Date.now() < deadline) await sleep(20);
      socket.off('update_requests', onEvent);
      assert.ok(heard.has(id), `${what}: no update_requests for the new request within 10 s`);
    },
  };
}

/** A request is created and every socket hears of it. */
async function assertRealtime(userCookie, socketsToHear, what) {
  const listeners = socketsToHear.map(listen);
  const id = await writeRequest(userCookie, what);
  assert.ok(id, `${what}: the request was not created (${JSON.stringify(refusedWrites.at(-1))})`);
  await Promise.all(listeners.map((listener) => listener.has(id, what)));
}

/** The console's xlsx export of one request: queued, then done by the worker. */
async function assertExportDone(adminCookie, requestId, what) {
  const queued = await call('POST', '/api/v1.0/request/savi/export_to_excel', {
    cookie: adminCookie,
    body: { requests: [requestId], filters: {} },
  });
  assert.equal(queued.status, 202, `${what}: export not queued: ${queued.status} ${queued.text}`);
  const deadline = Date.now() + 30_000;
  let job = queued.json;
  while (job.state !== 'done' && Date.now() < deadline) {
    assert.notEqual(job.state, 'failed', `${what}: the export failed: ${job.error}`);
    await sleep(200);
    const poll = await call('GET', `/api/v1.0/request/jobs/${job.id}`, { cookie: adminCookie });
    assert.equal(poll.status, 200, `${what}: job poll ${poll.status} ${poll.text}`);
    job = poll.json;
  }
  assert.equal(job.state, 'done', `${what}: the export was not done within 30 s (state ${job.state})`);
  const file = await call('GET', job.downloadUrl, { cookie: adminCookie });
  assert.equal(file.status, 200, `${what}: the export's file: ${file.status}`);
}

// --- The portal of this test ---------------------------------------------------------------------------

const stillRunning = () =>
  running.filter(({ child }) => child.exitCode === null && child.signalCode === null);

function assertAllAlive(what) {
  const dead = running.filter(({ child }) => child.exitCode !== null || child.signalCode !== null);
  assert.deepEqual(
    dead.map(({ spec, lastLines }) => `${spec.name}: ${lastLines().slice(-5).join('\n')}`),
    [],
    `${what}: processes died`,
  );
}

before(async () => {
  const missing = [...BUILT, ...portalProcesses({ only: PROCESSES }).map((p) => p.entry)].filter(
    (file) => !existsSync(join(ROOT, file)),
  );
  assert.deepEqual(missing, [], 'not built: run `npx nx run-many -t build` (npm test builds first)');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  DEMO_PASSWORD = db.DEMO_PASSWORD;
  // The session key pair, as prepare makes it (identity signs with it, every service verifies).
  const { privateKeyFile, publicKeyFile } = jwtKeyFiles();
  require(join(ROOT, 'libs/server-kit/dist/index.js')).ensureKeyPair(privateKeyFile, publicKeyFile);

  redis = await require(join(ROOT, 'libs/server-kit/dist/testing.js')).startThrowawayRedis();
  database = await db.createTestDatabase({ seed: true });
  await database.dataSource.destroy();

  // The run's files (logs/, the worker's storage) under var/faults-<time>: they stay after the run, to
  // read its logs after a failure; earlier runs' go.
  // (Older than an hour: a run beside this one keeps its own.)
  for (const entry of existsSync(join(ROOT, 'var')) ? readdirSync(join(ROOT, 'var')) : []) {
    const path = join(ROOT, 'var', entry);
    if (entry.startsWith('faults-') && Date.now() - statSync(path).mtimeMs > 3_600_000)
      rmSync(path, { recursive: true, force: true });
  }
  runDir = join(ROOT, 'var', `faults-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const ports = await freePortsForAll();
  base = `http://127.0.0.1:${ports.gateway}`;
  const prefix = `faults-${ports.gateway}`;
  const table = portalProcesses({
    ports,
    only: PROCESSES,
    databaseUrl: database.url,
    varDir: runDir,
    publicUrl: base,
    env: {
      REDIS_URL: redis.url,
      AUTH_ATTEMPTS_PER_IP: String(ATTEMPTS_PER_IP),
      AUTH_ATTEMPTS_PER_EMAIL: '1000',
      REQUEST_QUEUE_PREFIX: prefix,
      IRIS_QUEUE_PREFIX: prefix,
      REPORTBUILDER_QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'warn',
    },
  });
  specs = Object.fromEntries(table.map((spec) => [spec.name, spec]));
  running = table.map((spec) => startProcess(spec, { logFile: join(runDir, 'logs', `${spec.name}.log`) }));
  await Promise.all(running.map((process) => waitUntilReady(process)));
});

after(async () => {
  for (const stop of [...writers]) await stop();
  for (const socket of sockets) socket.close();
  // Redis back first: the services close their Redis clients on the way out.
  await redis?.start().catch(() => undefined);
  await stopProcesses(stillRunning(), 10_000);
  await redis?.stop();
  await database?.drop();
  if (runDir) console.log(`the processes' logs: ${join(runDir, 'logs')}`);
});

describe('faults: the portal recovers without a restart and loses nothing', { timeout: 180_000 }, () => {
  let user = '';
  let admin = '';

  it('works before any fault (and the writes start)', async () => {
    user = (await login('user@portal.test')).cookie;
    admin = (await login('admin@portal.test')).cookie;
    for (let i = 0; i < 5; i++) assert.ok(await writeRequest(user, 'before'), 'a write before the faults');
  });

  it('Redis restarted: 503s while down, then sessions, rate limits, realtime and queues recover', async () => {
    const adminSocket = await openSocket(admin);
    await assertRealtime(user, [adminSocket], 'realtime before the Redis restart');

    const stopWriting = keepWriting(user, 'redis');
    await sleep(300);
    await redis.stop();
    // While Redis is down: clear 503s, within seconds (ioredis gives a command up after its retries).
    let meDown, loginDown, requestDown, exportDown;
    try {
      meDown = await call('GET', '/api/v1.0/users/me', { cookie: user });
      loginDown = await call('POST', '/api/v1.0/login', {
        body: { email: 'user@portal.test', password: DEMO_PASSWORD },
      });
      requestDown = await call('GET', oneRequest(), { cookie: user });
      exportDown = await call('POST', '/api/v1.0/request/savi/export_to_excel', {
        cookie: admin,
        body: { requests: [written[0].id], filters: {} },
        timeoutMs: 10_000,
      });
    } finally {
      await redis.start();
    }
    console.log(
      `Redis down: users/me ${meDown.status} in ${Math.round(meDown.ms)} ms, login ${loginDown.status} ` +
        `in ${Math.round(loginDown.ms)} ms, a request ${requestDown.status} in ${Math.round(requestDown.ms)} ms, ` +
        `an export (a queued job) ${exportDown.status} in ${Math.round(exportDown.ms)} ms`,
    );
    assertClearFailure(meDown, 503, /Redis.*not available/, 'an authenticated call while Redis is down');
    assertClearFailure(loginDown, 503, /Redis.*not available/, 'a login while Redis is down');
    assertClearFailure(requestDown, 503, /Redis.*not available/, 'a requests call while Redis is down');
    assertClearFailure(exportDown, 503, /Redis.*not available/, 'an export while Redis is down');
    for (const answer of [meDown, loginDown, requestDown, exportDown])
      assert.ok(answer.ms < 5_000, `a 503 took ${Math.round(answer.ms)} ms`);

    // The clients reconnect by themselves (within half a second of Redis being back).
    const deadline = Date.now() + 10_000;
    let me = await call('GET', '/api/v1.0/users/me', { cookie: user });
    while (me.status !== 200 && Date.now() < deadline) {
      await sleep(100);
      me = await call('GET', '/api/v1.0/users/me', { cookie: user });
    }
    assert.equal(me.status, 200, `users/me after the Redis restart: ${me.status} ${me.text}`);
    await stopWriting();
    const refused = assertRefusalsClear('redis', [503]);

    // Sessions: a new login, and its session works. Rate limits: the login was counted in the new Redis
    // (its counters were lost with it), and the next one is counted again.
    const first = await login('user@portal.test');
    const second = await login('user@portal.test');
    assert.equal(first.remaining, ATTEMPTS_PER_IP - 1, 'the login after the restart was counted');
    assert.equal(second.remaining, ATTEMPTS_PER_IP - 2, 'and the next one too');
    user = second.cookie;
    const meNow = await call('GET', '/api/v1.0/users/me', { cookie: user });
    assert.equal(meNow.status, 200, `the new session: ${meNow.status} ${meNow.text}`);

    // Realtime: the socket opened before the restart and a new one both hear a new request.
    const newSocket = await openSocket(admin);
    await assertRealtime(user, [adminSocket, newSocket], 'realtime after the Redis restart');

    // Queues: a job queued after the restart is done by the worker.
    await assertExportDone(admin, written.at(-1).id, 'the export after the Redis restart');
    assertAllAlive('after the Redis restart');
    console.log(
      `Redis restart: ${written.filter((w) => w.phase === 'redis').length} writes answered 201, ` +
        `${refused} refused with 503 while it was down`,
    );
  });

  it('PostgreSQL connections killed: clear 503s for the calls that fail, then normal answers', async () => {
    const dba = new pg.Client({ connectionString: database.url });
    await dba.connect();
    const reads = [];
    let reading = true;
    const readLoop = (async () => {
      while (reading) {
        reads.push(await call('GET', '/api/v1.0/users/me', { cookie: user }));
        reads.push(await call('GET', oneRequest(), { cookie: user }));
      }
    })();
    const stopWriting = keepWriting(user, 'postgres');
    let terminated = 0;
    try {
      for (let round = 0; round < 4; round++) {
        await sleep(250);
        const { rowCount } = await dba.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        terminated += rowCount ?? 0;
      }
      await sleep(250);
    } finally {
      reading = false;
      await readLoop;
      await stopWriting();
      await dba.end();
    }
    assert.ok(terminated > 0, 'no connection was terminated');
    const failedReads = reads.filter((r) => r.status !== 200);
    for (const r of failedReads) assertClearFailure(r, 503, /^The database is not available/, 'a read');
    const refused = assertRefusalsClear('postgres', [503]);
    for (const w of refusedWrites.filter((w) => w.phase === 'postgres'))
      assert.equal(w.message, DATABASE_TEXT);

    // The pools dropped the dead connections: the next calls succeed.
    for (let i = 0; i < 5; i++) {
      const me = await call('GET', '/api/v1.0/users/me', { cookie: user });
      assert.equal(me.status, 200, `users/me after the kill: ${me.status} ${me.text}`);
      const list = await call('GET', oneRequest(), { cookie: user });
      assert.equal(list.status, 200, `requests after the kill: ${list.status} ${list.text}`);
      assert.ok(await writeRequest(user, 'after postgres'), 'a write after the kill');
    }
    await assertExportDone(admin, written.at(-1).id, 'the export after the kill');
    assertAllAlive('after the PostgreSQL kill');
    console.log(
      `PostgreSQL: ${terminated} connections terminated; ${reads.length} reads (${failedReads.length} ` +
        `answered 503), ${written.filter((w) => w.phase === 'postgres').length} writes answered 201, ` +
        `${refused} refused with 503`,
    );
  });

  it('a service killed: the gateway answers 502 naming it within 1 s, then normal answers once back', async () => {
    const socket = sockets[0];
    const index = running.findIndex(({ spec }) => spec.name === KILLED);
    const victim = running[index];
    const stopWriting = keepWriting(user, 'killed');
    await sleep(200);
    const exited = victim.exited;
    victim.child.kill('SIGKILL');
    await exited;

    let read, write, other;
    try {
      read = await call('GET', oneRequest(), { cookie: user });
      write = await call('POST', '/api/v1.0/request/priority', {
        cookie: admin,
        body: { id: written[0].id, priority: true },
      });
      // Other services keep answering.
      other = await call('GET', '/api/v1.0/users/me', { cookie: user });
    } finally {
      // Started again (by this test: nothing else restarts it).
      running[index] = startProcess(specs[KILLED], { logFile: join(runDir, 'logs', `${KILLED}.log`) });
    }
    console.log(
      `${KILLED} killed: ${read.status} in ${Math.round(read.ms)} ms (a read), ${write.status} in ` +
        `${Math.round(write.ms)} ms (a write)`,
    );
    const naming = new RegExp(`\\b${KILLED}\\b.*not available`);
    assertClearFailure(read, 502, naming, 'a read of the killed service');
    assertClearFailure(write, 502, naming, 'a write to the killed service');
    assert.ok(read.ms < FAULT_ANSWER_MS, `the read's 502 took ${Math.round(read.ms)} ms`);
    assert.ok(write.ms < FAULT_ANSWER_MS, `the write's 502 took ${Math.round(write.ms)} ms`);
    assert.equal(other.status, 200, `identity while ${KILLED} is down: ${other.status}`);

    // Once it is ready again, normal answers.
    await waitUntilReady(running[index]);
    await stopWriting();
    const refused = assertRefusalsClear('killed', [502]);
    const list = await call('GET', oneRequest(), { cookie: user });
    assert.equal(list.status, 200, `requests once back: ${list.status} ${list.text}`);
    // The console's socket reconnects by itself and hears the next change.
    // (An attempt made while the service was down may hang up to the console's 5 s connect timeout, then
    // socket.io waits up to 5 s before the next one.)
    const deadline = Date.now() + 15_000;
    while (!socket.connected && Date.now() < deadline) await sleep(100);
    assert.ok(socket.connected, 'the console socket reconnected within 15 s');
    await assertRealtime(user, [socket], 'realtime after the service came back');
    assertAllAlive('after the restart of the killed service');
    console.log(
      `${KILLED} killed: ${refused} writes refused with 502, ` +
        `${written.filter((w) => w.phase === 'killed').length} answered 201`,
    );
  });

  it('nothing lost: every write answered 201 is in the database', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const ids = written.map((w) => w.id);
      const { rows } = await client.query(
        'SELECT id::text AS id FROM requests.requests WHERE id::text = ANY($1)',
        [ids],
      );
      const found = new Set(rows.map((r) => r.id));
      const lost = written.filter((w) => !found.has(w.id));
      assert.deepEqual(lost, [], 'writes answered 201 but not in the database');
      console.log(`nothing lost: ${ids.length} writes answered 201, all ${found.size} in the database`);
    } finally {
      await client.end();
    }
  });
});
