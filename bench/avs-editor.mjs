// The address editor (issue 14) over the geodata bench database (bench/lib/geo-dataset.mjs: the
// generator's dataset at 1 000 000 addresses, made once and reused):
//  - display_data: GET /api/v1.0/addresseditor/display_data/{lat}/{lng} at points spread over the country
//    (inside parcels, a few on estates with many units), one request at a time on a kept-alive connection
//    with a session, whole answer read: p50/p95. Target p95 ≤ 100 ms. get_point_data is measured alike.
//  - dequeue under 20 concurrent operators: 20 operators take the next parcel at once, round after round
//    (each round gives back the previous parcel and passes over it), from the empty-parcel and the
//    multi-address queues: latency p50/p95 and how often two operators got the same parcel (must be 0).
// The avs-editor service (services/avs-editor/dist) runs in this process on a free port. Twenty operator
// accounts are added to the bench database (identity.users, fixed ids) once; their holds are given back
// at the end, so the dataset stays as it was.
// Usage: node bench/avs-editor.mjs [--scale 1000000] [--points 300] [--rounds 30]
// Needs PostgreSQL with PostGIS, Redis and the session keys (var/keys), as `npm start` leaves them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { ROOT } from '../scripts/lib/system.mjs';
import { ensureGeoBenchDatabase, scaleSuffix } from './lib/geo-dataset.mjs';
import { benchSessionCookie, buildProject, startService } from './lib/services.mjs';
import { round, timingSummary } from './stats.mjs';
import { numberOption, benchLog } from './lib/cli.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('avs-editor');

export const AVS_EDITOR_TARGETS = { displayDataP95Ms: 100, duplicateDequeues: 0 };
const OPERATORS = 20;
/** The bench's operators: fixed ids, so a second run finds them. */
const operatorId = (i) => `00000000-0000-4000-a000-${String(i + 1).padStart(12, '0')}`;

async function ensureOperators(client) {
  for (let i = 0; i < OPERATORS; i++)
    await client.query(
      `INSERT INTO identity.users (id, name, email, password_hash, savi_operator)
       VALUES ($1, $2, $3, 'bench: no login', true)
       ON CONFLICT (id) DO UPDATE SET savi_operator = true, active = true`,
      [operatorId(i), `Bench operator ${i + 1}`, `bench.operator${i + 1}@editor.test`],
    );
}

async function timedGet(base, cookie, path) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie } });
  const body = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

export async function measureAvsEditor({ scale = 1_000_000, points = 300, rounds = 30 } = {}) {
  const url = await ensureGeoBenchDatabase({ scale });
  await buildProject('@portal/avs-editor');
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  const service = await startService('avs-editor', 'loadAvsEditorConfig', url);
  try {
    await ensureOperators(client);
    const cookies = Array.from({ length: OPERATORS }, (_, i) =>
      benchSessionCookie({
        sub: operatorId(i),
        email: `bench.operator${i + 1}@editor.test`,
        roles: ['authenticated', 'saviOperator'],
      }),
    );
    const cookie = cookies[0];
    const { rows: counts } = await client.query(
      `SELECT (SELECT count(*) FROM geo.addresses)::int AS addresses, (SELECT count(*) FROM geo.parcels)::int AS parcels`,
    );
    log(`dataset: ${counts[0].addresses} addresses, ${counts[0].parcels} parcels`);

    // Points inside parcels, a deterministic spread; a tenth on the parcels with the most addresses.
    const { rows: sample } = await client.query(
      `(SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng FROM geo.parcels
        ORDER BY md5(id::text) LIMIT $1)
       UNION ALL
       (SELECT ST_Y(ST_PointOnSurface(geom)), ST_X(ST_PointOnSurface(geom)) FROM geo.parcels
        WHERE address_count > 1 ORDER BY md5(id::text) LIMIT $2)`,
      [points - Math.floor(points / 10), Math.floor(points / 10)],
    );
    const path = (kind, p) =>
      kind === 'display'
        ? `/api/v1.0/addresseditor/display_data/${p.lat.toFixed(6)}/${p.lng.toFixed(6)}`
        : `/api/v1.0/addaddress/get_point_data/${p.lat.toFixed(6)}/${p.lng.toFixed(6)}`;
    for (const p of sample.slice(0, 10)) await timedGet(service.base, cookie, path('display', p));
    const display = [];
    const features = [];
    for (const p of sample) {
      const { ms, body } = await timedGet(service.base, cookie, path('display', p));
      display.push(ms);
      features.push(body.parcelData.data.features.length + body.addressData.data.features.length);
    }
    const pointData = [];
    for (const p of sample) pointData.push((await timedGet(service.base, cookie, path('point', p))).ms);
    const displayData = {
      ...timingSummary(display),
      meanFeatures: round(features.reduce((a, b) => a + b, 0) / features.length),
    };
    log(`display_data: ${JSON.stringify(displayData)}`);
    log(`get_point_data: ${JSON.stringify(timingSummary(pointData))}`);

    // Dequeue: 20 operators at once, `rounds` times, on each parcel queue.
    const dequeue = {};
    for (const [queue, route] of [
      ['empty', '/api/v1.0/addaddress/no_address_parcel'],
      ['multi', '/api/v1.0/addresseditor/multi_parcel'],
    ]) {
      const times = [];
      let duplicates = 0;
      let empty = 0;
      const previous = new Array(OPERATORS).fill(null);
      for (let r = 0; r < rounds; r++) {
        const answers = await Promise.all(
          cookies.map((c, i) =>
            timedGet(service.base, c, previous[i] ? `${route}?skip=${previous[i]}` : route),
          ),
        );
        const ids = answers.map(({ body }) => body.parcel?.parcelId ?? null);
        answers.forEach(({ ms }) => times.push(ms));
        empty += ids.filter((id) => id === null).length;
        const taken = ids.filter(Boolean);
        duplicates += taken.length - new Set(taken).size;
        ids.forEach((id, i) => (previous[i] = id));
      }
      dequeue[queue] = { operators: OPERATORS, rounds, ...timingSummary(times), duplicates, empty };
      log(`dequeue ${queue}: ${JSON.stringify(dequeue[queue])}`);
    }
    return {
      dataset: counts[0],
      displayData,
      pointData: timingSummary(pointData),
      dequeue,
      targets: AVS_EDITOR_TARGETS,
    };
  } finally {
    await client.query(
      `UPDATE geo.parcels SET held_by = NULL, held_by_email = NULL, held_until = NULL
       WHERE held_by = ANY($1::uuid[])`,
      [Array.from({ length: OPERATORS }, (_, i) => operatorId(i))],
    );
    await client.end();
    await service.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const scale = numberOption('scale', 1_000_000);
  const result = await measureAvsEditor({
    scale,
    points: numberOption('points', 300),
    rounds: numberOption('rounds', 30),
  });
  writeFileSync(
    join(ROOT, `bench/results/avs-editor${scaleSuffix(scale)}.json`),
    JSON.stringify(result, null, 2) + '\n',
  );
  console.log(JSON.stringify(result, null, 2));
}
