import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  freePortsForAll,
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
  'libs/geo/dist/index.js',
  'shell/dist/index.html',
  ...portalProcesses().map((process) => process.entry),
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

/**
 * Starts the portal for the browser tests: a throwaway seeded database with generated geodata, and every
 * process of config/services.json on free ports with their own var folder (so the mails of this
 * run land in a known place) and the remotes list with the test remote. Global teardown stops them and
 * drops the database.
 */
export default async function globalSetup(): Promise<void> {
  const missing = BUILT.filter((file) => !existsSync(join(ROOT, file)));
  if (missing.length > 0) {
    throw new Error(
      `Not built: ${missing.join(', ')}. Run \`npm test\` (or \`node scripts/prepare.mjs --test-remote\`) first.`,
    );
  }
  removeEarlierRuns();

  const db = loadDb();
  const database = await db.createTestDatabase({ seed: true });
  // The locator's data: reference places and a few generated towns.
  const geo = loadGeo();
  await geo.generateGeodata(database.dataSource, { ...E2E_GEODATA, towns: [...E2E_GEODATA.towns] });
  // IRiS's risk layers from the team's reference data, when this machine has it (the reports say plainly
  // which sections have no data otherwise).
  const sharedData = geo.findSharedDataDir();
  if (sharedData) await geo.importRiskLayers(database.dataSource, sharedData);
  else console.warn('[e2e] ../shared/data is absent: IRiS reports run without risk layers');
  await database.dataSource.destroy();

  const runDir = join(ROOT, 'var', `e2e-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const ports = await freePortsForAll();
  const baseURL = `http://localhost:${ports.gateway}`;
  const table = portalProcesses({
    ports,
    databaseUrl: database.url,
    varDir: runDir,
    publicUrl: baseURL,
    remotesFile: 'config/remotes.e2e.json',
    // Every test logs in from 127.0.0.1, often as the same demo user, and the counters live in Redis
    // across runs: the production limits would refuse logins part-way through the suite.
    // The queues and channels apart from a portal running beside the tests (its workers would take the
    // jobs, its sockets hear the changes). The machine-client test's webhook receiver is on 127.0.0.1.
    env: {
      AUTH_ATTEMPTS_PER_IP: '100000',
      AUTH_ATTEMPTS_PER_EMAIL: '100000',
      PORTAL_REDIS_PREFIX: `e2e-${ports.gateway}`,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      // The integration test reads a key's use count, which the usage flush writes (5 s by default).
      USAGE_FLUSH_MS: '1000',
    },
  });
  const running = table.map((spec) =>
    startProcess(spec, { logFile: join(runDir, 'logs', `${spec.name}.log`) }),
  );

  const state: Harness = {
    baseURL,
    mailDir: mailDir(runDir),
    runDir,
    databaseUrl: database.url,
    ports,
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
