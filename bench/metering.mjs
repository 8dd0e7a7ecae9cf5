// What usage metering costs (issue 22): POST /api/avs/geocode straight to the locator (services/locator/dist,
// a process of its own on a free port), the relevance queries in turn, 20 connections (autocannon), with
// metering off (USAGE_METERING=off) and on, side by side, in alternating rounds so that the machine's load
// weighs on both alike. Target: metering on keeps >= 95 % of the throughput of metering off.
// With an API key: a third column, metering on and the same calls with `Authorization: Bearer ppk_…` (a key
// of a group of its own, its limit per minute set out of the way) instead of a session.
// The locator reads its own throwaway database (migrated, a generated town of --scale addresses, dropped
// after) and the machine's Redis.
// Usage: node bench/metering.mjs [--seconds 10] [--rounds 3] [--connections 20] [--scale 20000]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../scripts/lib/system.mjs';
import { benchLog, numberOption } from './lib/cli.mjs';
import { jwtKeyFiles } from '../scripts/lib/settings.mjs';
import { benchSessionCookie, buildProject } from './lib/services.mjs';
import autocannon from 'autocannon';
import { geocodeQueries } from './load.mjs';
import { round } from './stats.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('metering');

export const METERING_TARGET = { minRatio: 0.95 };

/** One autocannon run of `next()`'s calls with these headers: req/s, p50/p99, answers and failures. */
function cannon(base, { headers, connections, seconds, next }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const { method, path, body } = next();
              return { ...request, method, path, body: JSON.stringify(body) };
            },
          },
        ],
      },
      (err, result) =>
        err
          ? reject(err)
          : resolve({
              reqPerSec: round(result.requests.average),
              requests: result.requests.total,
              p50Ms: result.latency.p50,
              p99Ms: result.latency.p99,
              non2xx: result.non2xx,
              errors: result.errors,
            }),
    );
  });
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The built locator on `databaseUrl`, metering on or off; answers its URL and stop(). */
async function startLocator(databaseUrl, metering) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'services/locator/dist/main.js')], {
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      JWT_PUBLIC_KEY_FILE: jwtKeyFiles().publicKeyFile,
      LOG_LEVEL: 'warn',
      USAGE_METERING: metering ? 'on' : 'off',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error('the locator did not start');
    await sleep(100);
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

export async function measureMetering({ seconds = 10, rounds = 3, connections = 20, scale = 20_000 } = {}) {
  await buildProject('@portal/locator');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const geo = require(join(ROOT, 'libs/geo/dist/index.js'));
  const database = await db.createTestDatabase();
  try {
    log(`generating ${scale} addresses`);
    await geo.generateGeodata(database.dataSource, {
      scale,
      seed: 'metering-bench',
      towns: ['Stellenbosch'],
    });
    const [group] = await database.dataSource.query(
      `INSERT INTO identity.groups (name, code, api_rate_limit_per_minute)
       VALUES ('Bench insurer', 'BENCH', 100000000) RETURNING id`,
    );
    const cookie = benchSessionCookie({ sub: randomUUID(), email: 'bench@metering.test', groupId: group.id });
    const { newApiKey } = require(join(ROOT, 'libs/server-kit/dist/index.js'));
    const made = newApiKey();
    await db.insertApiKeyRows(database.dataSource, {
      groupId: group.id,
      name: 'Bench',
      prefix: made.prefix,
      secretHash: made.secretHash,
      services: ['avs'],
      scope: 'read',
    });
    const headersOf = { off: { cookie }, on: { cookie }, key: { authorization: `Bearer ${made.key}` } };
    const queries = await geocodeQueries();
    const next = (() => {
      let i = 0;
      return () => ({
        method: 'POST',
        path: '/api/avs/geocode',
        body: { address: queries[i++ % queries.length] },
      });
    })();
    const runs = { off: [], on: [], key: [] };
    const orders = [
      ['off', 'on', 'key'],
      ['key', 'on', 'off'],
      ['on', 'off', 'key'],
    ];
    for (let r = 0; r < rounds; r++)
      for (const mode of orders[r % orders.length]) {
        const locator = await startLocator(database.url, mode !== 'off');
        try {
          const headers = headersOf[mode];
          await cannon(locator.url, { headers, connections, seconds: 2, next });
          const result = await cannon(locator.url, { headers, connections, seconds, next });
          runs[mode].push(result);
          log(
            `round ${r + 1}, metering ${mode}: ${result.reqPerSec} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, non-2xx ${result.non2xx}`,
          );
        } finally {
          await locator.stop();
        }
      }
    const summary = (list) => ({
      reqPerSec: round(list.reduce((sum, r) => sum + r.reqPerSec, 0) / list.length),
      p50Ms: round(list.reduce((sum, r) => sum + r.p50Ms, 0) / list.length),
      p99Ms: round(list.reduce((sum, r) => sum + r.p99Ms, 0) / list.length),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    });
    const off = summary(runs.off);
    const on = summary(runs.on);
    const key = summary(runs.key);
    const counted = Number(
      (await database.dataSource.query(`SELECT coalesce(sum(count), 0) AS n FROM metering.usage_daily`))[0].n,
    );
    const answered = [...runs.on, ...runs.key].reduce((sum, r) => sum + r.requests - r.non2xx, 0);
    const result = {
      connections,
      seconds,
      rounds,
      scale,
      off,
      on,
      key,
      ratio: Math.round((on.reqPerSec / off.reqPerSec) * 1000) / 1000,
      keyRatio: Math.round((key.reqPerSec / off.reqPerSec) * 1000) / 1000,
      // Every call of the metered runs (warm-ups too) was counted: at least the measured answers.
      countedAtLeastAnswered: counted >= answered,
      targetMinRatio: METERING_TARGET.minRatio,
    };
    log(
      `metering off ${off.reqPerSec} req/s | on ${on.reqPerSec} req/s (ratio ${result.ratio}, target >= ${METERING_TARGET.minRatio}) | on with an API key ${key.reqPerSec} req/s (ratio ${result.keyRatio})`,
    );
    return result;
  } finally {
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureMetering({
    seconds: numberOption('seconds', 10),
    rounds: numberOption('rounds', 3),
    connections: numberOption('connections', 20),
    scale: numberOption('scale', 20_000),
  });
  writeFileSync(join(ROOT, 'bench/results/metering.json'), `${JSON.stringify(result, null, 2)}\n`);
}
