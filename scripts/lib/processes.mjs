// The portal's processes and how to run them: one table (name, entry, port, env) for `npm start` and the
// browser tests' global setup, which start the same processes on other ports with their own database.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
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
 * The processes of the portal, in start order: identity, services-admin, locator, requests, the gateway; each product service
 * joins the table when it exists (and the gateway gets its <NAME>_URL).
 * @param {object} [options]
 * @param {number} [options.gatewayPort]
 * @param {number} [options.identityPort]
 * @param {number} [options.servicesAdminPort]
 * @param {number} [options.locatorPort]
 * @param {number} [options.requestsPort]
 * @param {string} [options.databaseUrl]
 * @param {string} [options.varDir]       runtime files (mail drop, storage); the keys stay in var/keys
 * @param {string} [options.publicUrl]    the portal's URL as browsers see it (links in mails)
 * @param {string} [options.remotesFile]  what /remotes.json lists
 * @param {Record<string, string>} [options.env] extra settings for every process
 * @returns {ProcessSpec[]}
 */
export function portalProcesses({
  gatewayPort = 8080,
  identityPort = 3001,
  servicesAdminPort = 3005,
  locatorPort = 3002,
  requestsPort = 3004,
  databaseUrl: database = databaseUrl(),
  varDir: runtimeDir = varDir(),
  publicUrl = `http://localhost:${gatewayPort}`,
  remotesFile = 'config/remotes.json',
  env = {},
} = {}) {
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
    PUBLIC_URL: publicUrl,
    ...env,
  };
  return [
    {
      name: 'identity',
      entry: 'services/identity/dist/main.js',
      port: identityPort,
      env: { ...shared, PORT: String(identityPort) },
    },
    {
      name: 'services-admin',
      entry: 'services/services-admin/dist/main.js',
      port: servicesAdminPort,
      env: { ...shared, PORT: String(servicesAdminPort) },
    },
    {
      name: 'locator',
      entry: 'services/locator/dist/main.js',
      port: locatorPort,
      env: { ...shared, PORT: String(locatorPort) },
    },
    {
      name: 'requests',
      entry: 'services/requests/dist/main.js',
      port: requestsPort,
      env: { ...shared, PORT: String(requestsPort) },
    },
    {
      name: 'gateway',
      entry: 'services/gateway/dist/main.js',
      port: gatewayPort,
      env: {
        ...shared,
        PORT: String(gatewayPort),
        IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
        SERVICES_ADMIN_URL: `http://127.0.0.1:${servicesAdminPort}`,
        LOCATOR_URL: `http://127.0.0.1:${locatorPort}`,
        REQUESTS_URL: `http://127.0.0.1:${requestsPort}`,
        GATEWAY_REMOTES_FILE: remotesFile,
      },
    },
  ];
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

/** A pino JSON line made readable for a terminal: level, message, request and error in one short line. */
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
 * each line prefixed with the process name.
 * @param {ProcessSpec} spec
 * @param {{ logFile?: string }} [options]
 * @returns {RunningProcess}
 */
export function startProcess(spec, { logFile } = {}) {
  const child = spawn(process.execPath, [spec.entry], {
    cwd: ROOT,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
      const answer = await fetch(url, { signal: AbortSignal.timeout(2_000) });
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
 * Stops processes (in reverse start order) with SIGTERM, so they finish their requests and close their
 * pools; whatever still runs after `graceMs` gets SIGKILL.
 * @param {RunningProcess[]} running
 * @param {number} [graceMs]
 */
export async function stopProcesses(running, graceMs = 15_000) {
  for (const { child, exited } of [...running].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

/** The mail drop of a var folder: identity writes one JSON file per message there when no SMTP is set. */
export const mailDir = (runtimeDir) => join(runtimeDir, 'mail');
