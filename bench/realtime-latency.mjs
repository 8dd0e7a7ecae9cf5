// Realtime latency of the request console (issue 11): an operator's edit → another operator's open
// console hears of it. Two sessions through the portal URL (the gateway): the watcher holds a socket.io
// connection on /realtime/ (as the console's grid does), an admin toggles a request's priority with
// POST /api/v1.0/request/priority; the time from sending the edit to the watcher's update_request for that
// request, over N edits one after the other, p50/p95/p99. Target p95 ≤ 1 s.
// The request is made once through the API from a located parcel (as /savi makes one), as the demo user.
// Usage: node bench/realtime-latency.mjs [--url http://localhost:8080] [--edits 100]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { io } from 'socket.io-client';
import { databaseUrl } from '../scripts/lib/settings.mjs';
import { ROOT } from '../scripts/lib/system.mjs';
import { percentile, round } from './stats.mjs';
import { option } from './lib/cli.mjs';

export const REALTIME_TARGET_P95_MS = 1000;
const DEMO_PASSWORD = 'Portal-demo-2026';

async function sessionCookie(base, email) {
  const res = await fetch(`${base}/api/v1.0/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login of ${email} failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function api(base, cookie, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
}

/** A SAVI request of the demo user at an address of the database's geodata; answers its id. */
async function makeRequest(base, database) {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  let point;
  try {
    ({
      rows: [point],
    } = await client.query(`SELECT ST_Y(point) AS lat, ST_X(point) AS lng FROM geo.addresses
       WHERE parcel_id IS NOT NULL AND unit IS NULL AND house_number <> '' ORDER BY id LIMIT 1`));
  } finally {
    await client.end();
  }
  if (!point) throw new Error('No addresses in the database: run `npm start` (or prepare) first.');
  const user = await sessionCookie(base, 'user@portal.test');
  const { result } = await api(base, user, 'POST', '/api/avs/reverse', {
    lat: point.lat,
    lng: point.lng,
    searchOption: 'address',
  });
  const res = await fetch(`${base}/api/v1.0/request/`, {
    method: 'PUT',
    headers: {
      cookie: user,
      'content-type': 'application/json',
      'Idempotency-Key': `bench-rt-${Date.now()}`,
    },
    body: JSON.stringify({
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      Searched_For: result.address.formatted_address,
      mode: 'address',
      Selected_Address: result.address.formatted_address,
      coordinates: point,
      selected: result.address,
      parcel: result.parcel,
      reference: { POLICY_NUMBER: 'KM123456' },
    }),
  });
  if (res.status !== 201) throw new Error(`request not created: ${res.status} ${await res.text()}`);
  // Location is /api/v1.0/request/{id}/any.
  return /\/request\/([^/]+)\/any/.exec(res.headers.get('location'))[1];
}

export async function measureRealtimeLatency({ base, edits = 100, database = databaseUrl() }) {
  const id = await makeRequest(base, database);
  const watcher = await sessionCookie(base, 'qc@portal.test');
  // Prioritising is an admin's (spec 02 §6).
  const editor = await sessionCookie(base, 'admin@portal.test');
  const socket = io(base, {
    path: '/realtime/',
    transports: ['websocket'],
    extraHeaders: { cookie: watcher },
    reconnection: false,
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const samples = [];
  try {
    // The first edit names no version (the row is fresh); each later one names the version it was answered.
    let version;
    for (let edit = 0; edit < edits + 3; edit++) {
      const heard = new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no update_request within 10 s (edit ${edit})`)),
          10_000,
        );
        const onUpdate = (event) => {
          if (event?.row?.requestID !== id) return;
          clearTimeout(timer);
          socket.off('update_request', onUpdate);
          resolve(performance.now());
        };
        socket.on('update_request', onUpdate);
      });
      const sent = performance.now();
      const answer = await api(base, editor, 'POST', '/api/v1.0/request/priority', {
        id,
        priority: edit % 2 === 0,
        version,
      });
      version = answer.request.version;
      const at = await heard;
      if (edit >= 3) samples.push(at - sent);
    }
  } finally {
    socket.close();
  }
  return {
    edits: samples.length,
    p50Ms: round(percentile(samples, 50)),
    p95Ms: round(percentile(samples, 95)),
    p99Ms: round(percentile(samples, 99)),
    maxMs: round(Math.max(...samples)),
    targetP95Ms: REALTIME_TARGET_P95_MS,
  };
}

export function writeRealtimeLatencyResults(results) {
  writeFileSync(
    join(ROOT, 'bench', 'results', 'realtime-latency.json'),
    JSON.stringify(results, null, 2) + '\n',
  );
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await measureRealtimeLatency({
    base: option('url', 'http://localhost:8080'),
    edits: Number(option('edits', '100')),
  });
  console.log(JSON.stringify(results, null, 2));
  writeRealtimeLatencyResults(results);
}
