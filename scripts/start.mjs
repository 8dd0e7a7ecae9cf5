#!/usr/bin/env node
// npm start: prepares the machine (scripts/prepare.mjs), then runs the portal's processes and keeps them
// running until Ctrl-C: one that dies is started again (with a growing pause if it keeps dying) while the
// others keep serving. The processes and their ports are config/services.json's; <NAME>_PORT moves one
// (GATEWAY_PORT=9090, REQUESTS_PORT=…).
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { exitOnPrepareError, prepare } from './prepare.mjs';
import {
  mailDir,
  portalProcesses,
  portsFromEnvironment,
  settingName,
  stopProcesses,
  superviseProcess,
} from './lib/processes.mjs';
import { varDir } from './lib/settings.mjs';
import { canConnect, ROOT } from './lib/system.mjs';

let ports;
try {
  ports = portsFromEnvironment();
} catch (err) {
  console.error(err.message);
  process.exit(2);
}

await exitOnPrepareError(() => prepare());

const table = portalProcesses({ ports });
for (const [name, busy] of Object.entries(ports)) {
  if (await canConnect('127.0.0.1', busy)) {
    console.error(
      `\nPort ${busy} (${name}) is already in use: is the portal already running? Stop it, or choose other ports ` +
        `with ${settingName(name)}_PORT.`,
    );
    process.exit(1);
  }
}

const running = table.map((spec) => superviseProcess(spec));
let stopping = false;

async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  console.log(
    '\nStopping the portal… (each process finishes its requests and jobs; Ctrl-C again to cut them short)',
  );
  // Past the processes' own grace times (services 10 s, workers 60 s for a PDF or an export), then SIGKILL.
  await stopProcesses(running, 65_000);
  process.exit(exitCode);
}

// Ctrl-C (or a SIGTERM from a supervisor) reaches only this script (each process has its own process
// group): every process gets one SIGTERM, finishes its requests and jobs, and none is started again. A
// second Ctrl-C signals them again, which makes them exit at once.
process.on('SIGINT', () => (stopping ? cutShort() : stop(130)));
process.on('SIGTERM', () => stop(143));
// The terminal closed: it no longer reaches the processes themselves, so they are stopped from here.
process.on('SIGHUP', () => stop(129));

function cutShort() {
  console.log('\nCutting the work in flight short…');
  for (const { current } of running) if (current.child.exitCode === null) current.child.kill('SIGTERM');
}

// A process that cannot get ready the first time (a port taken, a broken build, a missing setting) stops
// the portal with its last output: starting it again would fail the same way. Once up, one that dies is
// started again by its supervisor (superviseProcess), logged in this terminal.
try {
  await Promise.all(running.map((service) => service.ready));
} catch (err) {
  console.error(`\n${err.message}`);
  await stop(1);
}

const { DEMO_ACCOUNTS, DEMO_PASSWORD } = createRequire(import.meta.url)(join(ROOT, 'libs/db/dist/index.js'));
const url = `http://localhost:${ports.gateway}`;
console.log(
  [
    '',
    `  The portal is running at ${url}`,
    '',
    `  Demo accounts (password ${DEMO_PASSWORD}):`,
    ...DEMO_ACCOUNTS.map(({ email, role }) => `    ${email.padEnd(26)} ${role}`),
    '',
    `  Password-reset mails land in ${relative(ROOT, mailDir(varDir()))}/ (one JSON file per message, link included).`,
    '  Ctrl-C stops the portal.',
    '',
  ].join('\n'),
);
