// GET /api/v1.0/users/me straight to identity and through the gateway, with autocannon:
// latency p50/p99 and throughput; the gateway's overhead is the throughput it costs, as a share.
// Usage: node bench/gateway-overhead.mjs [--gateway http://localhost:8080] [--identity http://127.0.0.1:3001] [--seconds 8]
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { percentile, round } from './stats.mjs';
import { option } from './lib/cli.mjs';

const round1 = (n) => round(n, 1);

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

/**
 * Both paths are warmed up first (JIT, connection pools), then measured in alternating rounds so that
 * drift of a shared 2-core machine falls on both alike; the figures are the medians over the rounds.
 */
export async function measureGatewayOverhead(gateway, identity, seconds, rounds = 3) {
  const cookie = await sessionCookie(gateway);
  const directUrl = `${identity}/api/v1.0/users/me`;
  const gatewayUrl = `${gateway}/api/v1.0/users/me`;
  await load(directUrl, cookie, 3);
  await load(gatewayUrl, cookie, 3);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const direct = await load(directUrl, cookie, seconds);
    const viaGateway = await load(gatewayUrl, cookie, seconds);
    samples.push({
      direct,
      viaGateway,
      overheadPercent: round1((1 - viaGateway.reqPerSec / direct.reqPerSec) * 100),
    });
  }
  const median = (pick) => percentile(samples.map(pick), 50);
  const overheadPercent = median((s) => s.overheadPercent);
  return {
    secondsPerRun: seconds,
    rounds,
    connections: 10,
    direct: {
      p50Ms: median((s) => s.direct.p50Ms),
      p99Ms: median((s) => s.direct.p99Ms),
      reqPerSec: median((s) => s.direct.reqPerSec),
    },
    viaGateway: {
      p50Ms: median((s) => s.viaGateway.p50Ms),
      p99Ms: median((s) => s.viaGateway.p99Ms),
      reqPerSec: median((s) => s.viaGateway.reqPerSec),
    },
    overheadPercent,
    overheadPerRound: samples.map((s) => s.overheadPercent),
    target: '≤ 25%',
    pass: overheadPercent <= 25,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureGatewayOverhead(
    option('gateway', 'http://localhost:8080'),
    option('identity', 'http://127.0.0.1:3001'),
    Number(option('seconds', '8')),
  );
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    new URL('./results/gateway-overhead.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
}
