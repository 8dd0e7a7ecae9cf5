// GET /api/v1.0/services/page-for-model over 100 000 users in ~200 groups: p50/p95 latency of every
// combination of page (first, middle, last), page size (20, 100, 1000), sort (name, email, groupName,
// createdAt; asc and desc) and filter (none, name contains, email contains, groupName equals, active is
// true). Runs in a throwaway database and starts services-admin as in production (its own process,
// services/services-admin/dist/main.js, on a free port), requests one at a time over a kept-alive
// connection (node:http), client-side timing to the answer's last byte.
// Needs the build (libs, services-admin) and the session keys in var/keys, as `npm start` leaves them.
// Each combination is also timed right after an edit to another user (--change-samples, each after a
// pause of --change-pause ms): the first page after a change, which the grid reads after every cell edit.
// Usage: node bench/page-for-model.mjs [--samples 60] [--change-samples 10] [--change-pause 100]
//        [--users 100000] [--page-sizes 20,100,1000] [--filters 'none,name contains,…']
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  findFreePort,
  portalProcesses,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { ROOT } from '../scripts/lib/system.mjs';
import { benchSessionCookie } from './lib/services.mjs';
import { percentile, round } from './stats.mjs';
import { option } from './lib/cli.mjs';

const require = createRequire(import.meta.url);
const db = require(join(ROOT, 'libs/db/dist/index.js'));
const { rolesOf } = require(join(ROOT, 'libs/domain/dist/index.js'));

export const TARGET_P95_MS = 30;

const FIRST_NAMES = [
  'Thabo',
  'Sipho',
  'Lerato',
  'Nomvula',
  'Johan',
  'Pieter',
  'Ayesha',
  'Thandiwe',
  'Bongani',
  'Zanele',
  'Kagiso',
  'Palesa',
  'Mandla',
  'Naledi',
  'Themba',
  'Refilwe',
  'Willem',
  'Annelize',
  'Riaan',
  'Marelize',
  'Sibusiso',
  'Nokuthula',
  'Tshepo',
  'Dineo',
  'Lwazi',
  'Ntombi',
  'Kabelo',
  'Mpho',
  'Busisiwe',
  'Vusi',
  'Fatima',
  'Yusuf',
  'Priya',
  'Rajesh',
  'Chantel',
  'Ruan',
  'Karabo',
  'Lindiwe',
  'Siyabonga',
  'Zodwa',
];
const SURNAMES = [
  'Dlamini',
  'Nkosi',
  'Ndlovu',
  'Khumalo',
  'Mokoena',
  'Botha',
  'van der Merwe',
  'Naidoo',
  'Patel',
  'Zulu',
  'Mthembu',
  'Mahlangu',
  'Sithole',
  'Molefe',
  'Pretorius',
  'Coetzee',
  'du Plessis',
  'Nel',
  'Venter',
  'Mabaso',
  'Maseko',
  'Shabalala',
  'Radebe',
  'Tshabalala',
  'Govender',
  'Pillay',
  'Adams',
  'Jacobs',
  'Fourie',
  'Steyn',
  'Mkhize',
  'Cele',
  'Ngcobo',
  'Hendricks',
  'Williams',
  'Baloyi',
  'Maluleke',
  'Chauke',
  'Mathebula',
  'Kruger',
];
const DOMAINS = [
  'gmail.com',
  'mweb.co.za',
  'telkomsa.net',
  'webmail.co.za',
  'karoomutual.co.za',
  'outlook.com',
];
const TOWNS = [
  'Johannesburg',
  'Soweto',
  'Pretoria',
  'Durban',
  'Pietermaritzburg',
  'Cape Town',
  'Stellenbosch',
  'George',
  'Gqeberha',
  'East London',
  'Mthatha',
  'Bloemfontein',
  'Welkom',
  'Kimberley',
  'Upington',
  'Polokwane',
  'Thohoyandou',
  'Mbombela',
  'Emalahleni',
  'Rustenburg',
  'Mahikeng',
  'Potchefstroom',
  'Klerksdorp',
  'Vereeniging',
  'Benoni',
  'Centurion',
  'Midrand',
  'Richards Bay',
  'Newcastle',
  'Ladysmith',
  'Knysna',
  'Oudtshoorn',
  'Worcester',
  'Paarl',
  'Saldanha',
  'Springbok',
  'Beaufort West',
  'Graaff-Reinet',
  'Makhanda',
  'Kroonstad',
];
const KINDS = ['Brokers', 'Insurance', 'Valuers', 'Assessors', 'Underwriters'];

/**
 * 200 groups (town × kind) and the users, by SQL: names and e-mails cycle through South African names,
 * groups are spread evenly (1 in 97 users has none), 95 % are active, created over about three years.
 */
export async function seedUsers(ds, count) {
  await ds.query(
    `INSERT INTO identity.groups (name, code, active, professional_fee_percentage)
     SELECT t.town || ' ' || k.kind, 'B' || lpad((row_number() OVER ())::text, 3, '0'), true, 10
     FROM unnest($1::text[]) t(town) CROSS JOIN unnest($2::text[]) k(kind)`,
    [TOWNS, KINDS],
  );
  await ds.query(
    `WITH g AS (SELECT array_agg(id ORDER BY code) AS ids FROM identity.groups WHERE code LIKE 'B%')
     INSERT INTO identity.users (name, email, password_hash, group_id, active, savi_operator, created_at)
     SELECT f.names[1 + n % array_length(f.names, 1)] || ' ' || s.names[1 + (n / 7) % array_length(s.names, 1)],
            lower(f.names[1 + n % array_length(f.names, 1)] || '.'
                  || replace(s.names[1 + (n / 7) % array_length(s.names, 1)], ' ', '') || n || '@'
                  || d.names[1 + n % array_length(d.names, 1)]),
            'x',
            CASE WHEN n % 97 = 0 THEN NULL ELSE g.ids[1 + (n::bigint * 2654435761) % array_length(g.ids, 1)] END,
            n % 20 <> 0,
            n % 50 = 0,
            timestamptz '2023-01-01 08:00+02' + n * interval '15 minutes' + (n % 13) * interval '1 minute'
     FROM generate_series(1, $4::int) AS n, g,
          (SELECT $1::text[] AS names) f, (SELECT $2::text[] AS names) s, (SELECT $3::text[] AS names) d`,
    [FIRST_NAMES, SURNAMES, DOMAINS, count],
  );
  // Statistics and the visibility map, as autovacuum would have them on a table that has been in use, and
  // the seeded pages written out now rather than by a checkpoint in the middle of the measurements.
  await ds.query('VACUUM ANALYZE identity.users');
  await ds.query('VACUUM ANALYZE identity.groups');
  await ds.query('CHECKPOINT');
}

/** A session cookie for the demo admin, signed like identity signs it (the bench has identity's key). */
const adminCookie = (admin) =>
  benchSessionCookie({
    sub: admin.id,
    email: admin.email,
    name: admin.name,
    roles: rolesOf(admin),
    groupId: admin.groupId,
    claimsUser: admin.claimsUser,
  });

const SORTS = ['name', 'email', 'groupName', 'createdAt'].flatMap((field) => [
  [field, 'asc'],
  [field, 'desc'],
]);
const FILTERS = {
  none: {},
  'name contains': { name: { compareBy: 'contains', compareTo: 'dlamini' } },
  'email contains': { email: { compareBy: 'contains', compareTo: 'nkosi' } },
  'groupName equals': { groupName: { compareBy: 'equals', compareTo: 'Durban Brokers' } },
  'active is true': { active: { compareBy: 'is', compareTo: 'true' } },
};
const PAGE_SIZES = [20, 100, 1000];

function pageUrl(base, { filter, sort, pageSize, pageNumber }) {
  const params = new URLSearchParams({
    modelName: 'users',
    pageNumber: String(pageNumber),
    pageSize: String(pageSize),
    sort: JSON.stringify([sort]),
  });
  for (const [field, value] of Object.entries(FILTERS[filter])) params.set(field, JSON.stringify(value));
  return `${base}/api/v1.0/services/page-for-model?${params}`;
}

// The client's garbage is collected between requests, not while one is being timed: the figures are
// the server's (V8's gc, exposed at run time so that bench/run.mjs needs no flag).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request, timed from sending it to its answer's last byte (the server's latency; what the client
 * then does with the JSON is the client's). The answer is parsed after the clock stops and checked.
 */
async function timed(url, cookie) {
  collectGarbage();
  const started = performance.now();
  const { status, bytes } = await new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { cookie } }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  const ms = performance.now() - started;
  const body = JSON.parse(bytes.toString('utf8'));
  if (status !== 200) throw new Error(`${url}: ${status} ${JSON.stringify(body)}`);
  if (!Array.isArray(body.docs) || typeof body.total !== 'number') throw new Error(`${url}: not a page`);
  return { ms, body };
}

export async function measurePageForModel({
  users = 100_000,
  samples = 60,
  changeSamples = 10,
  changePauseMs = 100,
  pageSizes = PAGE_SIZES,
  filters = Object.keys(FILTERS),
} = {}) {
  const database = await db.createTestDatabase({ seed: true });
  let service;
  try {
    const seedStarted = performance.now();
    await seedUsers(database.dataSource, users);
    const seedSeconds = round((performance.now() - seedStarted) / 1000);
    const admin = await database.dataSource
      .getRepository(db.UserEntity)
      .findOneByOrFail({ email: 'admin@portal.test' });
    const cookie = adminCookie(admin);

    // The service alone in its process, as `npm start` runs it: the client's work is not the server's.
    const port = await findFreePort();
    const [spec] = portalProcesses({
      databaseUrl: database.url,
      ports: { 'services-admin': port },
      only: ['services-admin'],
      env: { LOG_LEVEL: 'warn' },
    });
    service = startProcess(spec, { logFile: join(ROOT, 'bench/results/page-for-model.log') });
    await waitUntilReady(service);
    const base = `http://127.0.0.1:${port}`;

    const combinations = [];
    for (const filter of filters) {
      // The filter's total decides where the middle and last pages are.
      const { body } = await timed(
        pageUrl(base, { filter, sort: SORTS[0], pageSize: 20, pageNumber: 1 }),
        cookie,
      );
      for (const pageSize of pageSizes) {
        const pages = Math.max(1, Math.ceil(body.total / pageSize));
        const positions = { first: 1, middle: Math.ceil(pages / 2), last: pages };
        for (const sort of SORTS) {
          for (const [position, pageNumber] of Object.entries(positions)) {
            combinations.push({ filter, total: body.total, sort, pageSize, position, pageNumber });
          }
        }
      }
    }

    const results = [];
    const all = [];
    const allChanged = [];
    const [edited] = await database.dataSource.query(
      `SELECT id FROM identity.users WHERE email LIKE '%@%' AND email <> 'admin@portal.test' ORDER BY created_at LIMIT 1`,
    );
    for (const combination of combinations) {
      const url = pageUrl(base, combination);
      for (let warm = 0; warm < 3; warm++) await timed(url, cookie);
      // A list the first request started reading in the background (checkpoints, sorted matches) is
      // read before the samples, as it is for every request after the first in use.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const times = [];
      for (let sample = 0; sample < samples; sample++) times.push((await timed(url, cookie)).ms);
      all.push(...times);
      results.push({
        filter: combination.filter,
        total: combination.total,
        sort: combination.sort.join(' '),
        pageSize: combination.pageSize,
        page: `${combination.position} (${combination.pageNumber})`,
        p50Ms: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
      });
    }
    // Each page again right after an edit elsewhere in the grid (a role ticked on another user), as the
    // grid reads its page again after each edit: what the service kept for the list is out of date then
    // (it answers the plain way and reads the list again in the background). Edits come a moment apart,
    // as a person makes them, not back to back; after the steady samples, so that the lists read in the
    // background never overlap those.
    for (const [i, combination] of combinations.entries()) {
      if (changeSamples === 0) break;
      const url = pageUrl(base, combination);
      const changedTimes = [];
      for (let sample = 0; sample < changeSamples; sample++) {
        await new Promise((resolve) => setTimeout(resolve, changePauseMs));
        await database.dataSource.query('UPDATE identity.users SET savi_qc = NOT savi_qc WHERE id = $1', [
          edited.id,
        ]);
        changedTimes.push((await timed(url, cookie)).ms);
      }
      allChanged.push(...changedTimes);
      results[i].afterChangeP50Ms = round(percentile(changedTimes, 50));
      results[i].afterChangeP95Ms = round(percentile(changedTimes, 95));
    }

    const worstBy = (key) =>
      Object.fromEntries(
        [...new Set(results.map((r) => r[key]))].map((value) => [
          value,
          Math.max(...results.filter((r) => r[key] === value).map((r) => r.p95Ms)),
        ]),
      );
    const worst = [...results].sort((a, b) => b.p95Ms - a.p95Ms);
    return {
      users: users + db.DEMO_ACCOUNTS.length,
      groups: TOWNS.length * KINDS.length + 3,
      seedSeconds,
      samplesPerCombination: samples,
      combinations: results.length,
      overall: { p50Ms: round(percentile(all, 50)), p95Ms: round(percentile(all, 95)) },
      ...(changeSamples > 0 && {
        afterChange: {
          samplesPerCombination: changeSamples,
          pauseBeforeEachMs: changePauseMs,
          p50Ms: round(percentile(allChanged, 50)),
          p95Ms: round(percentile(allChanged, 95)),
          worstP95Ms: Math.max(...results.map((r) => r.afterChangeP95Ms)),
          over: results.filter((r) => r.afterChangeP95Ms > TARGET_P95_MS).length,
          slowest: [...results].sort((a, b) => b.afterChangeP95Ms - a.afterChangeP95Ms).slice(0, 5),
        },
      }),
      worstP95By: {
        filter: worstBy('filter'),
        sort: worstBy('sort'),
        pageSize: worstBy('pageSize'),
        page: Object.fromEntries(
          ['first', 'middle', 'last'].map((position) => [
            position,
            Math.max(...results.filter((r) => r.page.startsWith(position)).map((r) => r.p95Ms)),
          ]),
        ),
      },
      slowest: worst.slice(0, 5),
      target: `p95 ≤ ${TARGET_P95_MS} ms for every combination`,
      pass: worst[0].p95Ms <= TARGET_P95_MS,
      perCombination: results,
    };
  } finally {
    agent.destroy();
    if (service) await stopProcesses([service]);
    await database.drop();
  }
}

/**
 * Writes every combination's figures to bench/results/page-for-model.json and returns the summary (what
 * the README and latest.json report).
 */
export function writePageForModelResults(result) {
  writeFileSync(
    new URL('./results/page-for-model.json', import.meta.url),
    JSON.stringify(result, null, 2) + '\n',
  );
  const { perCombination: _all, ...summary } = result;
  return summary;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measurePageForModel({
    users: Number(option('users', '100000')),
    samples: Number(option('samples', '60')),
    changeSamples: Number(option('change-samples', '10')),
    changePauseMs: Number(option('change-pause', '100')),
    pageSizes: option('page-sizes', PAGE_SIZES.join(',')).split(',').map(Number),
    filters: option('filters', Object.keys(FILTERS).join(',')).split(','),
  });
  console.log(JSON.stringify(writePageForModelResults(result), null, 2));
}
