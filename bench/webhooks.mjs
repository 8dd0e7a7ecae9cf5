// Webhook latency (issue 22): from a status change to the receiver getting its signed event. The built
// requests service and its worker (services/requests/dist: the outbox written in the change's
// transaction, the worker's LISTEN, fan-out and delivery) on a throwaway seeded database; a receiver on
// 127.0.0.1 (so the worker runs with WEBHOOKS_ALLOW_PRIVATE_TARGETS=true) registered for the request's
// group; an administrator POSTs /api/v1.0/request/update_status through the service, N times one after the
// other, alternating two statuses; the time from sending the change to the receiver holding the event of
// that status, p50/p95/p99. Target p95 <= 1 s. Each event's signature is checked (standardwebhooks).
// Usage: node bench/webhooks.mjs [--changes 100]
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { ROOT } from '../scripts/lib/system.mjs';
import { benchLog, numberOption } from './lib/cli.mjs';
import { BENCH_PROCESS_ENV, benchSessionCookie, buildProject, startService } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('webhooks');

export const WEBHOOKS_TARGET_P95_MS = 1000;

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

async function freePort() {
  const server = http.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built requests worker as a process of its own; answers stop(). */
async function startWorker(databaseUrl, prefix) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'services/requests/dist/worker.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...BENCH_PROCESS_ENV,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      REQUEST_QUEUE_PREFIX: prefix,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null) throw new Error(`requests-worker exited (${child.exitCode})`);
    await sleep(100);
  }
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

export async function measureWebhooks({ changes = 100 } = {}) {
  await buildProject('@portal/requests');
  const { createTestDatabase } = require(join(ROOT, 'libs/db/dist/index.js'));
  const db = await createTestDatabase({ seed: true });
  const stops = [() => db.drop()];
  try {
    const q = (sql, params) => db.dataSource.query(sql, params);
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const verifier = new Webhook(secret);
    /** Resolvers waiting for an event: (data) => boolean (true: taken). */
    const waiting = new Set();
    let bad = 0;
    const receiver = http.createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const at = performance.now();
        response.end();
        const body = Buffer.concat(chunks).toString();
        let event;
        try {
          event = verifier.verify(body, request.headers);
        } catch {
          bad++;
          return;
        }
        for (const waiter of waiting) if (waiter(event, at)) waiting.delete(waiter);
      });
    });
    const port = await listen(receiver);
    stops.unshift(() => new Promise((resolve) => receiver.close(resolve)));

    const [admin] = await q(`SELECT id, email, name FROM identity.users WHERE email = 'admin@portal.test'`);
    const [request] = await q(
      `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, group_id, group_name,
         group_code, address)
       SELECT 'SAVI', 'New', u.id, u.name, u.email, g.id, g.name, g.code, '12 Dorp Street, Stellenbosch'
         FROM identity.users u JOIN identity.groups g ON g.id = u.group_id WHERE u.email = 'user@portal.test'
       RETURNING id, group_id`,
    );
    await q(`INSERT INTO webhooks.endpoints (group_id, url, events, secret) VALUES ($1, $2, $3, $4)`, [
      request.group_id,
      `http://127.0.0.1:${port}/hook`,
      ['request.status_changed'],
      secret,
    ]);

    const prefix = `bench-webhooks-${randomUUID().slice(0, 8)}`;
    // The run's queues (its prefix) are removed after it, with their sweep scheduler.
    stops.push(async () => {
      const { Queue } = await import('bullmq');
      const { redisUrl } = await import('../scripts/lib/settings.mjs');
      for (const name of ['webhook-dispatch', 'webhook-delivery', 'request-console']) {
        const queue = new Queue(name, { connection: { url: redisUrl() }, prefix });
        await queue.obliterate({ force: true });
        await queue.close();
      }
    });
    const worker = await startWorker(db.url, prefix);
    stops.unshift(() => worker.stop());
    const service = await startService('requests', 'loadRequestsConfig', db.url);
    stops.unshift(() => service.stop());
    const cookie = benchSessionCookie({
      sub: admin.id,
      email: admin.email,
      name: admin.name,
      roles: ['authenticated', 'admin'],
    });

    const samples = [];
    const statuses = ['Ready for QS', 'Pending'];
    for (let change = 0; change < changes + 3; change++) {
      const status = statuses[change % 2];
      const heard = new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no webhook within 10 s (change ${change})`)),
          10_000,
        );
        waiting.add((event, at) => {
          if (event?.data?._id !== request.id || event.data.status !== status) return false;
          clearTimeout(timer);
          resolve(at);
          return true;
        });
      });
      const sent = performance.now();
      const res = await fetch(`${service.base}/api/v1.0/request/update_status`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ _id: request.id, status }),
      });
      if (!res.ok) throw new Error(`update_status: ${res.status} ${await res.text()}`);
      const at = await heard;
      if (change >= 3) samples.push(at - sent);
    }
    const results = {
      changes: samples.length,
      p50Ms: round(percentile(samples, 50)),
      p95Ms: round(percentile(samples, 95)),
      p99Ms: round(percentile(samples, 99)),
      maxMs: round(Math.max(...samples)),
      badSignatures: bad,
      targetP95Ms: WEBHOOKS_TARGET_P95_MS,
      met: percentile(samples, 95) <= WEBHOOKS_TARGET_P95_MS && bad === 0,
    };
    log(`p50 ${results.p50Ms} ms, p95 ${results.p95Ms} ms (target <= ${WEBHOOKS_TARGET_P95_MS} ms)`);
    return results;
  } finally {
    for (const stop of stops) await stop().catch((err) => log(`stopping: ${err.message}`));
  }
}

export function writeWebhooksResults(results) {
  writeFileSync(join(ROOT, 'bench', 'results', 'webhooks.json'), JSON.stringify(results, null, 2) + '\n');
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await measureWebhooks({ changes: numberOption('changes', 100) });
  console.log(JSON.stringify(results, null, 2));
  writeWebhooksResults(results);
  process.exit(0);
}
