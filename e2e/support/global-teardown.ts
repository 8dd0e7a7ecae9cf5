import { existsSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { harness, HARNESS_FILE, loadDb } from './env';

const GRACE_MS = 15_000;

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM (the services finish their requests and close their pools), SIGKILL after the grace time. */
async function stop(pid: number): Promise<void> {
  if (!isRunning(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + GRACE_MS;
  while (isRunning(pid) && Date.now() < deadline) await sleep(100);
  if (isRunning(pid)) process.kill(pid, 'SIGKILL');
}

/** Stops what the global setup started (in reverse order) and drops the run's database. */
export default async function globalTeardown(): Promise<void> {
  if (!existsSync(HARNESS_FILE)) return;
  const { pids, databaseUrl } = harness();
  for (const pid of [...pids].reverse()) await stop(pid);
  const db = loadDb();
  await db.dropDatabase(databaseUrl, db.databaseName(databaseUrl));
  rmSync(HARNESS_FILE, { force: true });
}
