// The portal's processes and how to run them, from the one table config/services.json: `npm start`, the
// browser tests' global setup and the benchmarks start the same processes (the tests and benchmarks on
// other ports with their own database), and the gateway routes by the same table.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { databaseUrl, jwtKeyFiles, redisUrl, varDir } from './settings.mjs';
import { ROOT, sleep } from './system.mjs';

export { ROOT };

/**
 * @typedef {object} ProcessSpec
 * @property {string} name   what it is called in logs and messages
 * @property {string} entry  its main file, relative to the workspace root
 * @property {number} port
 * @property {Record<string, string>} env  settings on top of the parent's environment
 */

/**
 * @typedef {object} ServiceEntry  one line of config/services.json
 * @property {string} name
 * @property {string} entry
 * @property {number} port          the local default
 * @property {{ prefix: string, exact?: boolean, websocket?: boolean }[]} [routes]  the gateway's prefixes
 */

/** config/services.json: the one table of the portal's processes (services, workers and the gateway). */
export const SERVICES_FILE = join(ROOT, 'config', 'services.json');

/** @returns {{ gateway: ServiceEntry & { metricsPort: number }, services: ServiceEntry[] }} */
export function readServicesTable(file = SERVICES_FILE) {
  const table = JSON.parse(readFileSync(file, 'utf8'));
  return { gateway: table.gateway, services: table.services };
}

/** The port name of the gateway's metrics (its own port is public): `GATEWAY_METRICS_PORT` moves it. */
export const GATEWAY_METRICS = 'gateway-metrics';

/** Every port the portal listens on, by name: each process's, and the gateway's metrics port. */
function portEntries() {
  const { gateway, services } = readServicesTable();
  return [
    ...[...services, gateway].map(({ name, port }) => ({ name, port })),
    { name: GATEWAY_METRICS, port: gateway.metricsPort },
  ];
}

/** `requests-worker` -> `REQUESTS_WORKER`: the prefix of its settings (`_PORT`, and `_URL` for the gateway). */
export const settingName = (name) => name.toUpperCase().replace(/-/g, '_');

/**
 * Each process's port: `<NAME>_PORT` from the environment, else the table's default; and the gateway's
 * metrics port (`GATEWAY_METRICS_PORT`).
 * @returns {Record<string, number>}
 */
export function portsFromEnvironment(env = process.env) {
  /** @type {Record<string, number>} */
  const ports = {};
  for (const { name, port } of portEntries()) {
    const setting = `${settingName(name)}_PORT`;
    const value = Number(env[setting] ?? port);
    if (!Number.isInteger(value) || value <= 0 || value > 65535)
      throw new Error(`${setting} must be a port number, got '${env[setting]}'.`);
    ports[name] = value;
  }
  return ports;
}

/**
 * A free port for every process of the table (distinct), for test and bench runs beside a running portal.
 * @returns {Promise<Record<string, number>>}
 */
export async function freePortsForAll() {
  const names = portEntries().map(({ name }) => name);
  for (;;) {
    /** @type {Record<string, number>} */
    const ports = {};
    for (const name of names) ports[name] = await findFreePort();
    if (new Set(Object.values(ports)).size === names.length) return ports;
  }
}

/**
 * The processes of the portal, in start order: the services and workers of config/services.json, then
 * the gateway, which gets `<NAME>_URL` for every service with routes.
 * @param {object} [options]
 * @param {Record<string, number>} [options.ports]  a port per process name; the table's default otherwise
 * @param {string[]} [options.only]       just these processes (a benchmark of one service)
 * @param {string} [options.databaseUrl]
 * @param {string} [options.varDir]       runtime files (mail drop, storage); the keys stay in var/keys
 * @param {string} [options.publicUrl]    the portal's URL as browsers see it (links in mails)
 * @param {string} [options.remotesFile]  what /remotes.json lists
 * @param {Record<string, string>} [options.env] extra settings for every process
 * @param {Record<string, number>} [options.instances]  how many instances of a service to run (default 1):
 *   the extra ones are `<name>#2`, `<name>#3`… on the ports `ports['<name>#2']`… (see freePortsForInstances),
 *   and the gateway's `<NAME>_URL` lists them all, comma-separated (it takes them in turn)
 * @returns {ProcessSpec[]}
 */
export function portalProcesses({
  ports = {},
  instances = {},
  only,
  databaseUrl: database = databaseUrl(),
  varDir: runtimeDir = varDir(),
  publicUrl,
  remotesFile = 'config/remotes.json',
  env = {},
} = {}) {
  const { gateway, services } = readServicesTable();
  const portOf = (entry) => ports[entry.name] ?? entry.port;
  const { privateKeyFile, publicKeyFile } = jwtKeyFiles();
  const shared = {
    NODE_ENV: 'production',
    // Plain http on localhost: a Secure cookie would never come back.
    COOKIE_SECURE: 'false',
    DATABASE_URL: database,
    REDIS_URL: redisUrl(),
    VAR_DIR: runtimeDir,
    JWT_PRIVATE_KEY_FILE: privateKeyFile,
    JWT_PUBLIC_KEY_FILE: publicKeyFile,
    PUBLIC_URL: publicUrl ?? `http://localhost:${portOf(gateway)}`,
    ...env,
  };
  /** The service's processes: itself, then its extra instances `<name>#2`… */
  const instancesOf = (service) =>
    Array.from({ length: Math.max(1, instances[service.name] ?? 1) }, (_, i) => {
      if (i === 0) return { name: service.name, port: portOf(service) };
      const name = `${service.name}#${i + 1}`;
      if (!ports[name])
        throw new Error(`No port for ${name}: pass ports['${name}'] (freePortsForInstances).`);
      return { name, port: ports[name] };
    });
  const serviceUrls = Object.fromEntries(
    services
      .filter((service) => service.routes?.length)
      .map((service) => [
        `${settingName(service.name)}_URL`,
        instancesOf(service)
          .map(({ port }) => `http://127.0.0.1:${port}`)
          .join(','),
      ]),
  );
  const table = [
    ...services.flatMap((service) =>
      instancesOf(service).map(({ name, port }) => ({
        name,
        entry: service.entry,
        port,
        // /metrics on their own port (internal: the gateway routes no /metrics), whatever this shell says.
        env: { ...shared, PORT: String(port), METRICS_PORT: '' },
      })),
    ),
    {
      name: gateway.name,
      entry: gateway.entry,
      port: portOf(gateway),
      env: {
        ...shared,
        PORT: String(portOf(gateway)),
        METRICS_PORT: String(ports[GATEWAY_METRICS] ?? gateway.metricsPort),
        ...serviceUrls,
        GATEWAY_REMOTES_FILE: remotesFile,
      },
    },
  ];
  return only ? table.filter(({ name }) => only.includes(name.split('#')[0])) : table;
}

/**
 * Free ports for the extra instances of portalProcesses' `instances` option: `{ 'identity#2': 41234, … }`,
 * distinct from each other and from `taken` (the ports of freePortsForAll).
 * @param {Record<string, number>} instances
 * @param {Record<string, number>} [taken]
 * @returns {Promise<Record<string, number>>}
 */
export async function freePortsForInstances(instances, taken = {}) {
  const used = new Set(Object.values(taken));
  /** @type {Record<string, number>} */
  const ports = {};
  for (const [name, count] of Object.entries(instances)) {
    for (let i = 2; i <= count; i++) {
      let port;
      do port = await findFreePort();
      while (used.has(port));
      used.add(port);
      ports[`${name}#${i}`] = port;
    }
  }
  return ports;
}

/** A port nothing listens on right now (the OS picks it). */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * A pino JSON line made readable for a terminal: level, message, request, error and the start of the
 * request id in one short line.
 */
export function formatLogLine(line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('msg' in entry)) return line;
  const parts = [(LEVELS[entry.level] ?? String(entry.level)).padEnd(5), entry.msg];
  if (entry.req) parts.push(`${entry.req.method} ${entry.req.url}`);
  if (entry.res) parts.push(`-> ${entry.res.statusCode} in ${Math.round(entry.responseTime ?? 0)} ms`);
  if (entry.err) parts.push(`(${entry.err.message})`);
  // The request id's start: the same in the gateway's and the service's lines of one call.
  if (typeof entry.reqId === 'string') parts.push(`[${entry.reqId.slice(0, 8)}]`);
  return parts.join(' ');
}

const KEPT_LINES = 40;

/**
 * @typedef {object} RunningProcess
 * @property {ProcessSpec} spec
 * @property {import('node:child_process').ChildProcess} child
 * @property {Promise<number | null>} exited  resolves with the exit code when the process ends
 * @property {() => string[]} lastLines       its latest output, for error messages
 */

/**
 * Starts one process of the table. Its output goes to `logFile` when given, otherwise to this terminal,
 * each line prefixed with the process name. With `ownProcessGroup` a Ctrl-C in the terminal reaches only
 * this script, which then stops the process with one SIGTERM (a second signal, the terminal's SIGINT and
 * then the SIGTERM, would make it exit at once instead of finishing its work).
 * @param {ProcessSpec} spec
 * @param {{ logFile?: string, ownProcessGroup?: boolean }} [options]
 * @returns {RunningProcess}
 */
export function startProcess(spec, { logFile, ownProcessGroup = false } = {}) {
  const child = spawn(process.execPath, [spec.entry], {
    cwd: ROOT,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownProcessGroup,
  });
  let file;
  if (logFile) {
    mkdirSync(dirname(logFile), { recursive: true });
    file = createWriteStream(logFile, { flags: 'a' });
  }
  const recent = [];
  const prefix = `${spec.name.padEnd(14)} | `;
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (chunk) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop();
      for (const line of lines) {
        recent.push(line);
        if (recent.length > KEPT_LINES) recent.shift();
        if (file) file.write(`${line}\n`);
        else process.stdout.write(`${prefix}${formatLogLine(line)}\n`);
      }
    });
  }
  const exited = new Promise((resolve) => {
    child.on('exit', (code) => {
      file?.end();
      resolve(code);
    });
    child.on('error', (err) => {
      recent.push(`could not start: ${err.message}`);
      resolve(null);
    });
  });
  return { spec, child, exited, lastLines: () => [...recent] };
}

/**
 * Waits until the process answers 200 on /ready; fails with its last output when it exits or takes too long.
 * @param {RunningProcess} running
 * @param {number} [timeoutMs]
 */
export async function waitUntilReady(running, timeoutMs = 60_000) {
  const { spec } = running;
  const url = `http://127.0.0.1:${spec.port}/ready`;
  let exitCode;
  running.exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + timeoutMs;
  let lastAnswer = 'no answer';
  while (exitCode === undefined && Date.now() < deadline) {
    try {
      // Connection: close: a kept-alive connection, idle, would hold up the process's next stop (it waits
      // for its open connections to close).
      const answer = await fetch(url, {
        signal: AbortSignal.timeout(2_000),
        headers: { connection: 'close' },
      });
      if (answer.status === 200) return;
      lastAnswer = `${answer.status} ${await answer.text()}`;
    } catch (err) {
      lastAnswer = err.cause?.code ?? err.message;
    }
    await sleep(250);
  }
  const why =
    exitCode !== undefined
      ? `exited with code ${exitCode}`
      : `was not ready after ${timeoutMs / 1000} s (last answer of ${url}: ${lastAnswer})`;
  throw new Error(
    `${spec.name} (${spec.entry}, port ${spec.port}) ${why}. Its last output:\n${running
      .lastLines()
      .map((l) => `  ${formatLogLine(l)}`)
      .join('\n')}`,
  );
}

/**
 * Stops one process with SIGTERM, so it finishes its requests and jobs and closes its pools; SIGKILL when it
 * still runs after `graceMs`.
 * @param {RunningProcess} running
 * @param {number} graceMs
 */
async function stopOne({ child, exited }, graceMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!stopped) {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Stops processes (in reverse start order) with SIGTERM, so they finish their requests and close their
 * pools; whatever still runs after `graceMs` gets SIGKILL. Supervised processes are stopped for good (no
 * restart follows).
 * @param {(RunningProcess | SupervisedProcess)[]} running
 * @param {number} [graceMs]
 */
export async function stopProcesses(running, graceMs = 15_000) {
  for (const process of [...running].reverse()) {
    if ('stop' in process) await process.stop(graceMs);
    else await stopOne(process, graceMs);
  }
}

/** How an exit reads in a message: 'exit code 1', 'killed by SIGKILL'. */
const howItEnded = ({ child }) =>
  child.signalCode ? `killed by ${child.signalCode}` : `exit code ${child.exitCode ?? 'unknown'}`;

/**
 * @typedef {object} SupervisedProcess
 * @property {ProcessSpec} spec
 * @property {RunningProcess} current       the process running now (a new one after each restart)
 * @property {number} restarts              how often it was restarted
 * @property {Promise<void>} ready           the first run answers /ready; rejects with its last output
 *                                          when it ends or hangs before (and it is not started again)
 * @property {(graceMs?: number) => Promise<void>} stop  stops it for good
 */

/**
 * Starts a process of the table and keeps it running: once it was ready, when it dies (a crash, the OOM
 * killer, a SIGKILL), it is started again after a pause that doubles with each quick death (`minDelayMs` up to `maxDelayMs`;
 * back to `minDelayMs` once a run lasted `stableMs`), and each death and return is logged. The other
 * processes are not touched: they keep serving, and the gateway answers 502 for the dead one meanwhile.
 * A first run that never gets ready is not retried: it would fail the same way (`ready` says why). Each
 * process has its own process group: only `stop` (one SIGTERM) ends it.
 * @param {ProcessSpec} spec
 * @param {object} [options]
 * @param {string} [options.logFile]       the processes' output goes there instead of this terminal
 * @param {(line: string) => void} [options.log]  where the supervisor's own lines go
 * @param {number} [options.minDelayMs]
 * @param {number} [options.maxDelayMs]
 * @param {number} [options.stableMs]
 * @returns {SupervisedProcess}
 */
export function superviseProcess(
  spec,
  {
    logFile,
    log = (line) => console.error(line),
    minDelayMs = 1_000,
    maxDelayMs = 30_000,
    stableMs = 60_000,
  } = {},
) {
  const say = (text) => log(`${spec.name.padEnd(14)} | ${text}`);
  let stopped = false;
  let delay = minDelayMs;
  let timer;
  const first = startProcess(spec, { logFile, ownProcessGroup: true });
  /** @type {SupervisedProcess} */
  const supervised = {
    spec,
    current: first,
    restarts: 0,
    ready: waitUntilReady(first),
    async stop(graceMs = 15_000) {
      stopped = true;
      clearTimeout(timer);
      await stopOne(supervised.current, graceMs);
    },
  };

  const watch = (running, startedAt = Date.now()) => {
    running.exited.then(() => {
      if (stopped) return;
      if (Date.now() - startedAt >= stableMs) delay = minDelayMs;
      const wait = delay;
      delay = Math.min(delay * 2, maxDelayMs);
      say(
        `stopped unexpectedly (${howItEnded(running)}); restarting in ${wait / 1000} s ` +
          `(restart ${supervised.restarts + 1}); the other processes keep running`,
      );
      // The pause also lets a Ctrl-C that reached this process first (same process group) mark the
      // portal as stopping before anything is started again.
      timer = setTimeout(() => {
        if (stopped) return;
        supervised.restarts++;
        supervised.current = startProcess(spec, { logFile, ownProcessGroup: true });
        watch(supervised.current);
        waitUntilReady(supervised.current).then(
          () => say(`is back (restart ${supervised.restarts}, ready on port ${spec.port})`),
          // A run that ends before it is ready is logged by the next round of this watch.
          () => undefined,
        );
      }, wait);
    });
  };
  supervised.ready.then(
    () => watch(first),
    () => undefined,
  );
  return supervised;
}

/** The mail drop of a var folder: identity writes one JSON file per message there when no SMTP is set. */
export const mailDir = (runtimeDir) => join(runtimeDir, 'mail');
