import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  findFreePort,
  mailDir,
  portalProcesses,
  ROOT,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../../scripts/lib/processes.mjs';
import { BASE_URL_ENV, E2E_GEODATA, HARNESS_FILE, loadDb, loadGeo, type Harness } from './env';

/** What the run needs built; `npm test` builds it (prepare), this setup builds nothing. */
const BUILT = [
  'libs/db/dist/index.js',
  'services/identity/dist/main.js',
  'services/services-admin/dist/main.js',
  'services/locator/dist/main.js',
  'services/requests/dist/main.js',
  'libs/geo/dist/index.js',
  'services/gateway/dist/main.js',
  'shell/dist/index.html',
];

/** Earlier runs' folders go; the latest one stays after its run, to read its logs and mails. */
function removeEarlierRuns(): void {
  const varDir = join(ROOT, 'var');
  if (!existsSync(varDir)) return;
  for (const entry of readdirSync(varDir)) {
    if (entry.startsWith('e2e-') && entry !== 'e2e-harness.json')
      rmSync(join(varDir, entry), { recursive: true, force: true });
  }
}

async function freePorts(count: number): Promise<number[]> {
  for (;;) {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) ports.push(await findFreePort());
    if (new Set(ports).size === count) return ports;
  }
}

/**
 * Starts the portal for the browser tests: a throwaway seeded database with generated geodata, identity,
 * services-admin, the locator, requests and the gateway on free ports with their own var folder (so the mails of this
 * run land in a known place) and the remotes list with the test remote. Global teardown stops them and
 * drops the database.
 */
export default async function globalSetup(): Promise<void> {
  const missing = BUILT.filter((file) => !existsSync(join(ROOT, file)));
  if (missing.length > 0) {
    throw new Error(
      `Not built: ${missing.join(', ')}. Run \`npm test\` (or \`node scripts/prepare.mjs --browser --test-remote\`) first.`,
    );
  }
  removeEarlierRuns();

  const db = loadDb();
  const database = await db.createTestDatabase({ seed: true });
  // The locator's data: reference places and a few generated towns.
  await loadGeo().generateGeodata(database.dataSource, { ...E2E_GEODATA, towns: [...E2E_GEODATA.towns] });
  await database.dataSource.destroy();

  const runDir = join(ROOT, 'var', `e2e-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const [gatewayPort, identityPort, servicesAdminPort, locatorPort, requestsPort] = await freePorts(5);
  const baseURL = `http://localhost:${gatewayPort}`;
  const table = portalProcesses({
    gatewayPort,
    identityPort,
    servicesAdminPort,
    locatorPort,
    requestsPort,
    databaseUrl: database.url,
    varDir: runDir,
    publicUrl: baseURL,
    remotesFile: 'config/remotes.e2e.json',
    // Every test logs in from 127.0.0.1, often as the same demo user, and the counters live in Redis
    // across runs: the production limits would refuse logins part-way through the suite.
    env: { AUTH_ATTEMPTS_PER_IP: '100000', AUTH_ATTEMPTS_PER_EMAIL: '100000' },
  });
  const running = table.map((spec) =>
    startProcess(spec, { logFile: join(runDir, 'logs', `${spec.name}.log`) }),
  );

  const state: Harness = {
    baseURL,
    mailDir: mailDir(runDir),
    runDir,
    databaseUrl: database.url,
    pids: running.flatMap(({ child }) => (child.pid ? [child.pid] : [])),
    demoAccounts: db.DEMO_ACCOUNTS,
    demoPassword: db.DEMO_PASSWORD,
  };
  writeFileSync(HARNESS_FILE, JSON.stringify(state, null, 2));

  try {
    await Promise.all(running.map((service) => waitUntilReady(service)));
  } catch (err) {
    // Teardown only runs after a successful setup: clean up here.
    await stopProcesses(running);
    await database.drop();
    rmSync(HARNESS_FILE, { force: true });
    throw err;
  }
  process.env[BASE_URL_ENV] = baseURL;
}
