// GET /api/v1.0/users/me straight to identity and through the gateway, with autocannon:
// latency p50/p99 and throughput; the gateway's overhead is the throughput it costs, as a share.
// Usage: node bench/gateway-overhead.mjs [--gateway http://localhost:8080] [--identity http://127.0.0.1:3001] [--seconds 10]
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { round } from './stats.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

async function sessionCookie(gateway) {
  const res = await fetch(`${gateway}/api/v1.0/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'user@portal.test', password: 'Portal-demo-2026' }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const load = (url, cookie, seconds) =>
  new Promise((resolve, reject) => {
    autocannon({ url, headers: { cookie }, connections: 10, duration: seconds }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx answers`));
      resolve({
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        reqPerSec: round(result.requests.average),
      });
    });
  });

export async function measureGatewayOverhead(gateway, identity, seconds) {
  const cookie = await sessionCookie(gateway);
  await load(`${identity}/api/v1.0/users/me`, cookie, 2); // warm-up
  const direct = await load(`${identity}/api/v1.0/users/me`, cookie, seconds);
  const viaGateway = await load(`${gateway}/api/v1.0/users/me`, cookie, seconds);
  const overheadPercent = round((1 - viaGateway.reqPerSec / direct.reqPerSec) * 100);
  return {
    seconds,
    connections: 10,
    direct,
    viaGateway,
    overheadPercent,
    target: '≤ 25%',
    pass: overheadPercent <= 25,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureGatewayOverhead(
    arg('gateway', 'http://localhost:8080'),
    arg('identity', 'http://127.0.0.1:3001'),
    Number(arg('seconds', '10')),
  );
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    new URL('./results/gateway-overhead.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
}
