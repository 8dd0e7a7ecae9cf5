import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AVS_API, SESSION_COOKIE } from '@portal/contracts';
import { formatSaIsoDate } from '@portal/domain';
import { createTestDatabase, insertApiKeyRows, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair, findWorkspaceRoot, newApiKey, type Redis } from '@portal/server-kit';
import { signTestSession, startThrowawayRedis, type ThrowawayRedis } from '@portal/server-kit/testing';

/**
 * Usage metering is exact (issue 22): the locator, started from its build as in production, answers
 * bursts of geocodes while it is SIGKILLed between two flushes and restarted, and while its Redis is
 * killed (-9, nothing kept) and started again; in the end PostgreSQL holds exactly one geocode per
 * answered call. The kills fall between bursts (a call cut by a kill before its answer may be counted:
 * docs/architecture.md "Usage metering").
 */

jest.setTimeout(180_000);

const WORKSPACE = findWorkspaceRoot();
const ENTRY = join(WORKSPACE, 'services/locator/dist/main.js');
const varDir = mkdtempSync(join(tmpdir(), 'metering-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const GROUP = randomUUID();

let db: TestDatabase;
let redisServer: ThrowawayRedis;
let redis: Redis;
let cookie = '';
const children: ChildProcess[] = [];

const freePort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });

async function until(check: () => Promise<boolean>, what: string, ms = 30_000) {
  for (const deadline = Date.now() + ms; !(await check()); await sleep(100))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

/** A locator process on the test's database and Redis; `flushMs` long means it never flushes by itself. */
async function startLocator(flushMs: number) {
  const port = await freePort();
  const child = spawn(process.execPath, [ENTRY], {
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: redisServer.url,
      PORT: String(port),
      VAR_DIR: varDir,
      JWT_PUBLIC_KEY_FILE: publicKeyFile,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      USAGE_FLUSH_MS: String(flushMs),
      USAGE_HEARTBEAT_SECONDS: '1',
    },
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await until(
    () =>
      fetch(`${url}/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    'the locator to start',
  );
  return { child, url };
}

/** `n` geocodes, `parallel` at a time (with a session, or the given headers); answers how many were answered 200. */
async function burst(
  url: string,
  n: number,
  parallel = 8,
  headers: Record<string, string> = { cookie },
): Promise<number> {
  let next = 0;
  let answered = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      const ok = await fetch(`${url}${AVS_API.geocode}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ address: '12 Church Street, Stellenbosch' }),
      }).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status === 200;
        },
        () => false,
      );
      if (ok) answered++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return answered;
}

const counted = async () =>
  Number(
    (
      await db.dataSource.query(
        `SELECT coalesce(sum(count), 0) AS n FROM metering.usage_daily WHERE metric = 'geocode'`,
      )
    )[0].n,
  );

async function journalTotal(): Promise<number> {
  let total = 0;
  for (const key of await redis.keys('portal:usage:live:*'))
    for (const value of Object.values(await redis.hgetall(key))) total += Number(value);
  return total;
}

const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

beforeAll(async () => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is not built: run \`npx nx build @portal/locator\` first.`);
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase();
  redisServer = await startThrowawayRedis();
  redis = createRedis(redisServer.url, 'metering-test');
  const token = signTestSession(privateKeyFile, {
    sub: randomUUID(),
    email: 'insurer@metering.test',
    groupId: GROUP,
  });
  cookie = `${SESSION_COOKIE}=${token}`;
});

afterAll(async () => {
  for (const child of children) await killed(child, 'SIGKILL');
  redis?.disconnect();
  await redisServer?.stop();
  await db?.drop();
});

it('counts every answered geocode exactly once across a SIGKILLed locator and a restarted Redis', async () => {
  // 1. A locator that never flushes by itself, SIGKILLed after a burst: its counts are only in its journal.
  const first = await startLocator(3_600_000);
  let answered = await burst(first.url, 150);
  expect(await journalTotal()).toBe(answered);
  await killed(first.child, 'SIGKILL');
  expect(await counted()).toBe(0);

  // 2. Its successor recovers the journal once the dead one's heartbeat expired (at its start here).
  await until(async () => (await redis.keys('portal:usage:alive:*')).length === 0, 'the heartbeat to expire');
  const second = await startLocator(3_600_000);
  await until(async () => (await counted()) === answered, 'the first journal to be recovered');
  expect(await redis.keys('portal:usage:live:*')).toEqual([]);

  // 3. Redis killed (-9, nothing kept) and started again while geocodes are on their way: the journal is
  //    lost, and the locator writes its running totals into it again once it is back.
  answered += await burst(second.url, 60);
  const during = burst(second.url, 80, 4);
  await sleep(100);
  await redisServer.stop();
  await sleep(500);
  await redisServer.start();
  const answeredDuring = await during;
  answered += answeredDuring;
  answered += await burst(second.url, 60);
  const secondCounts = answered - (await counted());
  await until(async () => (await journalTotal()) === secondCounts, 'the journal to be written again');

  // 4. SIGKILLed in turn; a third locator, flushing often, recovers its journal, counts its own and stops
  //    gracefully (its last flush).
  await killed(second.child, 'SIGKILL');
  const third = await startLocator(200);
  await until(async () => (await counted()) === answered, 'the second journal to be recovered');
  answered += await burst(third.url, 50);
  await killed(third.child, 'SIGTERM');

  expect(await counted()).toBe(answered);
  const rows: { group_id: string; service: string; day: string; source: string }[] =
    await db.dataSource.query(
      `SELECT group_id, service, to_char(day, 'YYYY-MM-DD') AS day, source FROM metering.usage_daily`,
    );
  expect(rows).toEqual([
    { group_id: GROUP, service: 'locator', day: formatSaIsoDate(Date.now()), source: 'session' },
  ]);
  // Nothing is left to recover: no journal, no process rows.
  expect(await redis.keys('portal:usage:live:*')).toEqual([]);
  expect(await db.dataSource.query(`SELECT * FROM metering.process_totals`)).toEqual([]);
});

it("counts an API key's calls under the key, and its uses and last use on the key", async () => {
  const [group] = await db.dataSource.query(
    `INSERT INTO identity.groups (name, code) VALUES ('Metered insurer', 'MTR') RETURNING id`,
  );
  const made = newApiKey();
  const key = await insertApiKeyRows(db.dataSource, {
    groupId: group.id,
    name: 'Policy system',
    prefix: made.prefix,
    secretHash: made.secretHash,
    services: ['avs'],
    scope: 'read',
  });
  const locator = await startLocator(200);
  const answered = await burst(locator.url, 40, 4, { authorization: `Bearer ${made.key}` });
  expect(answered).toBe(40);
  await killed(locator.child, 'SIGTERM');
  expect(
    await db.dataSource.query(
      `SELECT group_id, metric, count::int FROM metering.usage_daily WHERE source = $1`,
      [key.id],
    ),
  ).toEqual([{ group_id: group.id, metric: 'geocode', count: 40 }]);
  const [row] = await db.dataSource.query(
    `SELECT use_count::int, last_used_at FROM identity.api_keys WHERE id = $1`,
    [key.id],
  );
  expect(row.use_count).toBe(40);
  expect(row.last_used_at).not.toBeNull();
});
