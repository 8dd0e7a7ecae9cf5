// The request console benchmarks' database, one per scale: `portal_bench_requests` (1 000 000 requests,
// what bench/load.mjs and the 1 M figures use) and `portal_bench_requests_<n>m` for other scales (e.g.
// `portal_bench_requests_5m`, issue 23), migrated, seeded and holding `count` generated requests with
// their history. Made once, then reused; an interrupted generation resumes where it stopped.
//
// How it is fast (5 000 000 requests in minutes on 2 cores): the table's indexes and keys (and the foreign
// keys that point at it) are dropped first — their definitions kept in `bench.requests_generation` — the
// rows are written by multi-row INSERT … SELECT over generate_series in batches of 250 000 (one
// transaction each, the progress saved in it), then the indexes are built again, one statement each, with
// a large maintenance_work_mem. The kept totals' triggers stay (statement triggers over transition tables
// count each batch once); the dashboard rollup's row triggers are set aside per batch and the rollup rebuilt
// at the end.
//
// The distribution (the same for every scale, and on every machine: a stable hash of the row's number):
// types 70 % SAVI, 20 % AVS, 10 % IRIS; 5 % can't locate; the ten statuses spread evenly; 4 % priority;
// created over two years up to now in order (the heap in creation order, as a live table is), the GRiP
// reference numbered in that order; 2 000 users in 150 groups; three in four points around ten cities
// (dense: Johannesburg, Cape Town, Durban…) and the rest anywhere in the country's box (sparse);
// addresses from street and town lists; one to three history rows (status changes) per request past
// 'New'.
//
//   import { ensureRequestsBenchDatabase } from './lib/requests-dataset.mjs';
//   const url = await ensureRequestsBenchDatabase({ count: 5_000_000 });
//
// Alone: node bench/lib/requests-dataset.mjs [--requests 5000000] [--force]   (prints the URL)
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { databaseUrl } from '../../scripts/lib/settings.mjs';
import { ROOT } from '../../scripts/lib/system.mjs';
import { buildProject } from './services.mjs';
import { benchLog, flag, numberOption } from './cli.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('requests-dataset');

/** The 1 M database keeps its name (bench/load.mjs and earlier figures); other scales get a suffix. */
export function requestsBenchDatabase(count) {
  if (count === 1_000_000) return 'portal_bench_requests';
  const label = count % 1_000_000 === 0 ? `${count / 1_000_000}m` : String(count);
  return `portal_bench_requests_${label}`;
}

/** Rows per INSERT (one transaction each, the progress saved with it). */
const BATCH = 250_000;
/** The span the requests were created over, up to the generation's start. */
const SPAN_DAYS = 730;

/**
 * The cities most requests cluster around (lng, lat, share of the clustered requests in per mille, spread
 * in degrees): the dense areas of the duplicate check.
 */
export const CITIES = [
  [28.04, -26.2, 260, 0.25], // Johannesburg
  [18.42, -33.93, 200, 0.2], // Cape Town
  [31.02, -29.86, 140, 0.18], // Durban
  [28.19, -25.75, 120, 0.15], // Pretoria
  [25.6, -33.96, 70, 0.12], // Gqeberha
  [26.21, -29.12, 60, 0.12], // Bloemfontein
  [27.91, -33.02, 50, 0.1], // East London
  [29.45, -23.9, 40, 0.12], // Polokwane
  [30.97, -25.47, 30, 0.1], // Mbombela
  [24.76, -28.74, 30, 0.1], // Kimberley
];

/**
 * A stable pseudo-random integer of a bigint below 2^32, in [0, 2^31): the dataset is the same on every
 * machine. Two rounds of an integer mixer (xor-shift and multiply), about twice as fast as hashtext() of
 * the number's text, and its values of i, 7i, 13i… are as unrelated as a hash's.
 */
const HASH_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION pg_temp.mix(bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
     AS $$ SELECT (($1 # ($1 >> 16)) * 73244475) & 4294967295 $$`,
  `CREATE OR REPLACE FUNCTION pg_temp.h(bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
     AS $$ SELECT (pg_temp.mix(pg_temp.mix($1)) # (pg_temp.mix(pg_temp.mix($1)) >> 16)) & 2147483647 $$`,
];

/** Type, can't locate, status, creation and age of row i of $3, created up to $4 (both inserts read them). */
const REQUEST_BASICS = `SELECT CASE WHEN pg_temp.h(i) % 10 < 7 THEN 'SAVI' WHEN pg_temp.h(i) % 10 < 9 THEN 'AVS'
                            ELSE 'IRIS' END AS type,
                       pg_temp.h(i * 17) % 20 = 0 AS cant,
                       (ARRAY['New','Ready for QS','In progress','Pending','Cancelled_rejected','QC check',
                              'Query','Dispatch','Delivered','Finalised'])[1 + (pg_temp.h(i * 7) % 10)] AS status,
                       -- In order of the row's number, a few minutes' jitter (rows are not written at
                       -- evenly spaced instants).
                       $4::timestamptz - interval '${SPAN_DAYS} days'
                         + (i::float8 / $3::float8) * interval '${SPAN_DAYS} days'
                         + (pg_temp.h(i * 3) % 600) * interval '1 second' AS created,
                       (1 + pg_temp.h(i * 29) % 72) * interval '1 hour' AS age`;

/** The statement writing requests $1..$2 of $3, created up to $4 (the generation's start). */
function requestsInsert() {
  const cityCase = (field) => {
    let acc = 0;
    const arms = CITIES.map(([lng, lat, share, spread]) => {
      acc += share;
      const centre = field === 'lng' ? lng : lat;
      return `WHEN c.pick < ${acc} THEN ${centre} + c.${field}_off * ${spread}`;
    });
    return `CASE WHEN c.pick >= 1000 THEN c.${field}_any ${arms.join(' ')} END`;
  };
  return `
    INSERT INTO requests.requests
      (id, grip_reference, request_type, request_sub_type, status, user_id, user_name, user_email, group_id,
       group_name, group_code, address, lat, lng, point, cant_locate, priority, reference_string, created_at,
       updated_at, status_changed_at, report_invoice_number, number_of_buildings, unit_price, property_type,
       rve_total)
    SELECT md5('request' || i)::uuid,
           'GRP-' || to_char(t.created AT TIME ZONE 'Africa/Johannesburg', 'YYMM') || '-' || lpad(i::text, 7, '0'),
           t.type,
           CASE WHEN t.cant THEN 'Can''t Locate' WHEN t.type = 'SAVI' THEN 'Replacement Value Estimate' END,
           t.status,
           md5('user' || (i % 2000))::uuid, 'User ' || (i % 2000), 'user' || (i % 2000) || '@bench.test',
           md5('group' || (i % 150))::uuid, 'Insurer ' || (i % 150), 'INS' || (i % 150),
           (1 + i % 250) || ' ' || (ARRAY['Main','Church','Kloof','Long','Voortrekker','Jan Smuts','Oak',
                  'Nelson Mandela','Beach','Station'])[1 + i % 10] || ' Street, '
             || (ARRAY['Stellenbosch','Pretoria','Durban','Bloemfontein','Polokwane','Gqeberha',
                  'Kimberley','Mbombela','Cape Town','Johannesburg'])[1 + (i / 10) % 10],
           p.lat, p.lng, ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326), t.cant, pg_temp.h(i * 13) % 25 = 0,
           'KM' || lpad((i % 1000000)::text, 6, '0'),
           t.created, t.created + t.age * 0.5, t.created + t.age * 0.5,
           CASE WHEN pg_temp.h(i * 5) % 4 = 0 THEN 'INV-' || (i % 5000) END,
           1 + i % 4, 1500 + (i % 7) * 250, (ARRAY['AGRICULTURAL','COMMERCIAL','RESIDENTIAL'])[1 + i % 3],
           CASE WHEN pg_temp.h(i * 11) % 3 = 0 THEN 500000 + (i % 997) * 3000 END
      FROM generate_series($1::bigint, $2::bigint) AS i,
           LATERAL (${REQUEST_BASICS}) t,
           LATERAL (SELECT pg_temp.h(i * 19) % 1333 AS pick,
                           -- A sum of three uniforms: about normal, within ±1.5 spreads of the centre.
                           ((pg_temp.h(i * 31) % 1000) + (pg_temp.h(i * 37) % 1000) + (pg_temp.h(i * 41) % 1000)
                             - 1500) / 1000.0 AS lng_off,
                           ((pg_temp.h(i * 43) % 1000) + (pg_temp.h(i * 47) % 1000) + (pg_temp.h(i * 53) % 1000)
                             - 1500) / 1000.0 AS lat_off,
                           18 + (pg_temp.h(i * 23) % 13000) / 1000.0 AS lng_any,
                           -34 + (pg_temp.h(i * 59) % 11000) / 1000.0 AS lat_any) c,
           LATERAL (SELECT ${cityCase('lng')} AS lng, ${cityCase('lat')} AS lat) p`;
}

/**
 * The history of requests $1..$2 of $3 (created up to $4): past 'New', one to three status changes (the last
 * to its status now) by the operators (users 0–19), between its creation and its last status change. Its
 * values are computed again from the row's number (reading the requests back would need their key).
 */
const HISTORY_INSERT = `
  INSERT INTO requests.request_history (request_id, at, user_id, user_name, field, from_value, to_value)
  SELECT md5('request' || i)::uuid, t.created + t.age * 0.5 * (s.n::float8 / s.steps),
         md5('user' || (i % 20))::uuid, 'User ' || (i % 20), 'status',
         CASE WHEN s.n = 1 THEN 'New' ELSE 'In progress' END,
         CASE WHEN s.n = s.steps THEN t.status ELSE 'In progress' END
    FROM generate_series($1::bigint, $2::bigint) AS i,
         LATERAL (${REQUEST_BASICS}) t,
         LATERAL (SELECT n, 1 + pg_temp.h(i * 61) % 3 AS steps
                    FROM generate_series(1, 1 + pg_temp.h(i * 61) % 3) AS n) s
   WHERE t.status <> 'New'`;

/** The DDL to drop before the load and make again after it (foreign keys into the table, keys, indexes). */
async function structureOf(client) {
  const { rows } = await client.query(`
    SELECT 'fk' AS kind, format('%I.%I', n.nspname, c.relname) AS tbl, con.conname AS name,
           format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', n.nspname, c.relname, con.conname,
                  pg_get_constraintdef(con.oid)) AS ddl
      FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE con.contype = 'f' AND con.confrelid IN ('requests.requests'::regclass, 'requests.request_history'::regclass)
    UNION ALL
    SELECT 'key', format('%I.%I', n.nspname, c.relname), con.conname,
           format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', n.nspname, c.relname, con.conname,
                  pg_get_constraintdef(con.oid))
      FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE con.contype IN ('p', 'u')
       AND con.conrelid IN ('requests.requests'::regclass, 'requests.request_history'::regclass)
    UNION ALL
    SELECT 'index', format('%I.%I', i.schemaname, i.tablename), i.indexname, i.indexdef
      FROM pg_indexes i
     WHERE i.schemaname = 'requests' AND i.tablename IN ('requests', 'request_history')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conname = i.indexname
                          AND con.connamespace = 'requests'::regnamespace)`);
  return rows;
}

async function dropStructure(client, structure) {
  const order = { fk: 0, key: 1, index: 2 };
  for (const item of [...structure].sort((a, b) => order[a.kind] - order[b.kind])) {
    if (item.kind === 'index') await client.query(`DROP INDEX requests.${JSON.stringify(item.name)}`);
    else await client.query(`ALTER TABLE ${item.tbl} DROP CONSTRAINT ${JSON.stringify(item.name)}`);
  }
}

/** Makes the dropped structure again, one statement each (each committed with its removal from the list). */
async function buildStructure(client, started) {
  await client.query(`SET maintenance_work_mem = '512MB'`);
  await client.query('SET max_parallel_maintenance_workers = 1');
  for (;;) {
    const { rows } = await client.query(
      `SELECT kind, tbl, name, ddl FROM bench.requests_pending_ddl
        ORDER BY CASE kind WHEN 'key' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name LIMIT 1`,
    );
    if (rows.length === 0) return;
    const [{ kind, tbl, name, ddl }] = rows;
    const at = performance.now();
    await client.query('BEGIN');
    await client.query(ddl);
    await client.query('DELETE FROM bench.requests_pending_ddl WHERE tbl = $1 AND name = $2', [tbl, name]);
    await client.query('COMMIT');
    log(
      `  ${kind} ${name}: ${((performance.now() - at) / 1000).toFixed(1)} s (${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
    );
  }
}

/**
 * The URL of the database holding `count` generated requests (made or finished now when it does not).
 * `force` makes them again.
 */
export async function ensureRequestsBenchDatabase({ count = 1_000_000, force = false } = {}) {
  await buildProject('@portal/db');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const { Client } = require('pg');
  const name = requestsBenchDatabase(count);
  const url = db.withDatabase(databaseUrl(), name);
  const created = await db.ensureDatabase(url);
  const applied = await db.runMigrations(url);
  if (applied.length) log(`${name}: migrations applied: ${applied.join(', ')}`);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    if (created) {
      const ds = db.createDataSource(url);
      await ds.initialize();
      await db.seed(ds);
      await ds.destroy();
    }
    for (const statement of HASH_FUNCTIONS) await client.query(statement);
    await client.query(`CREATE SCHEMA IF NOT EXISTS bench`);
    await client.query(`CREATE TABLE IF NOT EXISTS bench.requests_generation (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        requests bigint NOT NULL, written bigint NOT NULL, started_at timestamptz NOT NULL,
        finished_at timestamptz)`);
    await client.query(`CREATE TABLE IF NOT EXISTS bench.requests_pending_ddl (
        kind text NOT NULL, tbl text NOT NULL, name text NOT NULL, ddl text NOT NULL, PRIMARY KEY (tbl, name))`);
    let [state] = (await client.query('SELECT * FROM bench.requests_generation')).rows;
    if (!force && state?.finished_at && Number(state.requests) === count) {
      log(`${name} holds ${count.toLocaleString('en-ZA')} requests: reused`);
      return url;
    }
    const started = performance.now();
    if (force || !state || Number(state.requests) !== count) {
      // A fresh generation: the rows go, the structure is dropped (kept to be made again).
      log(`${name}: generating ${count.toLocaleString('en-ZA')} requests`);
      await client.query('BEGIN');
      await client.query('TRUNCATE requests.requests CASCADE');
      const pending = (await client.query('SELECT count(*)::int AS n FROM bench.requests_pending_ddl'))
        .rows[0].n;
      if (pending === 0) {
        const structure = await structureOf(client);
        for (const item of structure)
          await client.query('INSERT INTO bench.requests_pending_ddl VALUES ($1, $2, $3, $4)', [
            item.kind,
            item.tbl,
            item.name,
            item.ddl,
          ]);
        await dropStructure(client, structure);
      }
      await client.query('DELETE FROM bench.requests_generation');
      await client.query(
        `INSERT INTO bench.requests_generation (requests, written, started_at) VALUES ($1, 0, now())`,
        [count],
      );
      await client.query('COMMIT');
      [state] = (await client.query('SELECT * FROM bench.requests_generation')).rows;
    } else {
      log(
        `${name}: resuming at ${Number(state.written).toLocaleString('en-ZA')} of ${count.toLocaleString('en-ZA')}`,
      );
    }
    const insert = requestsInsert();
    // The operations dashboard's rollup (migration InsightRollup) is kept by triggers, ~1.4 ms a status line:
    // set aside inside each batch's transaction and rebuilt once at the end, in one pass.
    const [{ rebuild }] = (
      await client.query(`SELECT to_regprocedure('requests.insight_rollup_rebuild()') IS NOT NULL AS rebuild`)
    ).rows;
    // The insert triggers: the rows' (facts into requests.insight_rollup_pending) and the commit's (their sum
    // into the rollup, migration InsightRollupDeferred), those of them the database has.
    const ROLLUP_TRIGGERS = (
      await client.query(
        `SELECT tgrelid::regclass::text AS tbl, tgname FROM pg_trigger
          WHERE tgname IN ('insight_rollup_request', 'insight_rollup_history', 'insight_rollup_apply_request',
                           'insight_rollup_apply_history')`,
      )
    ).rows.map((row) => [row.tbl, row.tgname]);
    for (let from = Number(state.written) + 1; from <= count; from += BATCH) {
      const to = Math.min(count, from + BATCH - 1);
      const at = performance.now();
      await client.query('BEGIN');
      if (rebuild)
        for (const [table, trigger] of ROLLUP_TRIGGERS)
          await client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
      await client.query(insert, [from, to, count, state.started_at]);
      await client.query(HISTORY_INSERT, [from, to, count, state.started_at]);
      if (rebuild)
        for (const [table, trigger] of ROLLUP_TRIGGERS)
          await client.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
      await client.query('UPDATE bench.requests_generation SET written = $1', [to]);
      await client.query('COMMIT');
      const seconds = (performance.now() - at) / 1000;
      log(
        `  ${to.toLocaleString('en-ZA')} of ${count.toLocaleString('en-ZA')} requests (${Math.round((to - from + 1) / seconds).toLocaleString('en-ZA')}/s)`,
      );
    }
    log(`${name}: building the indexes and keys again`);
    await buildStructure(client, started);
    // VACUUM as autovacuum would after a bulk load: the visibility map lets index walks skip the heap. Before
    // the rollup's rebuild: without the tables' statistics its plan read the history again per request
    // (5 TB read in 45 min, unfinished, 2026-11-28).
    await client.query('VACUUM ANALYZE requests.requests');
    await client.query('VACUUM ANALYZE requests.request_history');
    if (rebuild) {
      log(`${name}: the operations dashboard's rollup, from the whole history`);
      const at = performance.now();
      // Its rows (each request's facts per grain and scope, tens of millions) sorted in memory, not on disk.
      await client.query(`SET work_mem = '512MB'`);
      await client.query('SELECT requests.insight_rollup_rebuild()');
      await client.query('RESET work_mem');
      await client.query('VACUUM ANALYZE requests.insight_rollup');
      log(`  the rollup: ${Math.round((performance.now() - at) / 1000)} s`);
    }
    await client.query('UPDATE bench.requests_generation SET finished_at = now()');
    const [{ history }] = (
      await client.query('SELECT count(*)::bigint AS history FROM requests.request_history')
    ).rows;
    log(
      `${name}: ${count.toLocaleString('en-ZA')} requests and ${Number(history).toLocaleString('en-ZA')} history rows in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    return url;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = await ensureRequestsBenchDatabase({
    count: numberOption('requests', 1_000_000),
    force: flag('force'),
  });
  console.log(url);
}
