// The address service at ≥ 1 000 000 addresses: latency of search, autocomplete and reverse geocoding,
// and the relevance of the answers on a fixed set of queries (bench/relevance-queries.json).
//
// Latency: the locator (services/locator/dist) is started in this process on a free port against the geo
// bench database (bench/lib/geo-dataset.mjs: the generator's dataset, built once and reused) and called
// over HTTP one request at a time on a kept-alive connection with a signed session, as the locator's
// client calls it; client-side timing, whole answer read.
//   - search: POST /api/avs/geocode (what the locator's address search calls, ' South Africa' appended)
//     for every relevance query;
//   - autocomplete: POST /api/avs/search with the address flag for what is typed on the way to a query
//     (from 6 characters on, every 3 characters: half-typed words included);
//   - other searches: POST /api/avs/search with the poi, farm, erf and postal flags;
//   - reverse: POST /api/avs/reverse at points on erven (at addresses, a few metres off) and between them.
// Targets: search p95 ≤ 50 ms, reverse p95 ≤ 15 ms.
//
// Relevance: for each query of the set the position of the expected address (named by its generator
// source id, stable across rebuilds of the database) among the answers of /api/avs/geocode. Targets: first
// in ≥ 90 %, in the top five in ≥ 98 %.
//
// The query set is built once, deterministically, from the bench dataset (--build-queries): a spread of
// addresses, each written as a user would (misspelt, abbreviated, half-typed, without suburb, with a
// postal code, with an Afrikaans street type, a unit in an estate...), only where what is typed names
// one address (the number and street are unique in the town, suburb or postal code the query gives).
//
// Side by side (issue 23): the plain approach (bench/geo-search-baseline.mjs: a full_address column with
// a pg_trgm GIN index, `%` and ORDER BY similarity LIMIT 5) on the same queries and prefixes right after
// the locator's, latency and relevance, and the ratio baseline ÷ portal (sideBySide); it prints the plans
// (EXPLAIN ANALYZE, BUFFERS) of its slowest search and autocomplete (--no-explain does not), --skip-baseline
// leaves it out.
//
// Usage: node bench/geo-search.mjs [--scale 1000000] [--rounds 3] [--url postgres://...] [--build-queries]
//        [--no-explain] [--skip-baseline] [--baseline-rounds 1] [--baseline-every 1] [--query-seed S] [--queries FILE]
//        [--results FILE] [--relevance-only]
// A second query set built the same way from other addresses (held out from the one the search is tuned
// on): --build-queries --query-seed S writes relevance-queries-S.json (the seed salts the choice of
// addresses and of each typo); --queries runs one set, --results writes its figures elsewhere, and
// --relevance-only leaves out the autocomplete, other searches and reverse (a quick relevance check).
// At another scale than 1 M the database is portal_bench_geo_<scale> and the figures go to
// bench/results/geo-search-<scale>.json (e.g. --scale 10000000: portal_bench_geo_10m, geo-search-10m.json).
// Needs PostgreSQL with PostGIS, Redis and the session keys (var/keys), as `npm start` leaves them.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../scripts/lib/system.mjs';
import { ensureGeoBenchDatabase, scaleSuffix } from './lib/geo-dataset.mjs';
import { buildRelevanceQueries, hashOf, PER_CATEGORY } from './lib/relevance-queries.mjs';
import { benchSessionCookie, buildProject, startService } from './lib/services.mjs';
import {
  ensureTrigramBaseline,
  explainBaseline,
  measureTrigramBaseline,
  ratio,
} from './geo-search-baseline.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);

export const TARGETS = {
  searchP95Ms: 50,
  reverseP95Ms: 15,
  firstPercent: 90,
  topFivePercent: 98,
};

export const RELEVANCE_QUERIES_FILE = join(ROOT, 'bench', 'relevance-queries.json');
/**
 * The query set of a scale: relevance-queries.json at 1 M; at another scale (10 M) a set built the same
 * way from that dataset (relevance-queries-10m.json), made on the first run there: the 1 M set's expected
 * addresses need not exist, or be the only one so written, in a bigger world.
 */
export const relevanceQueriesFile = (scale) =>
  join(ROOT, 'bench', `relevance-queries${scaleSuffix(scale)}.json`);
const resultsFile = (scale) => join(ROOT, 'bench', 'results', `geo-search${scaleSuffix(scale)}.json`);

// ---------------------------------------------------------------------------------------------------
// The service under measure

function caller(base, cookie) {
  return async function call(path, body) {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    const ms = performance.now() - started;
    if (res.status !== 200)
      throw new Error(`${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(answer)}`);
    return { ms, answer };
  };
}

const summary = (times) => ({
  requests: times.length,
  p50Ms: round(percentile(times, 50)),
  p95Ms: round(percentile(times, 95)),
  p99Ms: round(percentile(times, 99)),
  maxMs: round(Math.max(...times)),
});

/** What is typed on the way to a query: from 6 characters on, every 3 characters, and the whole. */
function typedPrefixes(query) {
  const prefixes = [];
  for (let length = 6; length < query.length; length += 3) prefixes.push(query.slice(0, length));
  return [...prefixes, query];
}

/** Reverse-geocoding points: at addresses, a few metres off them, and between erven (spread over the country). */
async function reversePoints(client, count) {
  const { rows } = await client.query(
    `SELECT ST_Y(point) AS lat, ST_X(point) AS lng FROM geo.addresses
     WHERE source = 'generator' ORDER BY md5(source_id || 'reverse') LIMIT $1`,
    [count],
  );
  return rows.map((row, i) => {
    // A third exactly on the address point, a third a few metres off, a third some 30 m off (a street, a
    // neighbour's erf, or open ground).
    const offset = [0, 0.00004, 0.0003][i % 3];
    const angle = (hashOf(String(i)) % 360) * (Math.PI / 180);
    return {
      lat: Number(row.lat) + offset * Math.sin(angle),
      lng: Number(row.lng) + offset * Math.cos(angle),
    };
  });
}

// ---------------------------------------------------------------------------------------------------

export async function measureGeoSearch({
  scale = 1_000_000,
  rounds = 3,
  url,
  build = true,
  withBaseline = true,
  // The baseline's statements take up to seconds each: one round of the relevance queries by default.
  baselineRounds = 1,
  // At 10 M a baseline statement takes up to a minute: every k-th query only (and its prefixes), the
  // portal's side of the table then taken over the same queries (--baseline-every k).
  baselineEvery = 1,
  // The plans of the baseline's slowest search and autocomplete, printed by default (issue 23).
  explain = true,
  // Another query set than the scale's (a held-out one, --queries).
  queries: queriesPath,
  // Relevance and geocode latency only (--relevance-only).
  relevanceOnly = false,
} = {}) {
  const queriesFile = queriesPath ?? relevanceQueriesFile(scale);
  const databaseUrl = url ?? (await ensureGeoBenchDatabase({ scale }));
  if (!existsSync(queriesFile)) {
    if (queriesFile === RELEVANCE_QUERIES_FILE)
      throw new Error(`${RELEVANCE_QUERIES_FILE} is missing: build it with --build-queries`);
    const { Client } = require('pg');
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      writeFileSync(queriesFile, JSON.stringify(await buildRelevanceQueries(client), null, 2) + '\n');
      console.log(`[geo-search] query set of this scale built: ${queriesFile}`);
    } finally {
      await client.end();
    }
  }
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8'));
  if (build) await buildProject('@portal/locator');
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const locator = await startService('locator', 'loadLocatorConfig', databaseUrl);
  try {
    const [{ addresses, streets }] = (
      await client.query(
        `SELECT (SELECT count(*) FROM geo.addresses)::int AS addresses, (SELECT count(*) FROM geo.streets)::int AS streets`,
      )
    ).rows;
    const call = caller(
      locator.base,
      benchSessionCookie({ sub: randomUUID(), email: 'bench@portal.test', name: 'Bench' }),
    );

    // The expected addresses by their stable key.
    const { rows: expectedRows } = await client.query(
      `SELECT source_id, id::text AS id FROM geo.addresses WHERE source = 'generator' AND source_id = ANY($1)`,
      [queries.map((q) => q.expected)],
    );
    const idOf = new Map(expectedRows.map((row) => [row.source_id, row.id]));
    const unresolved = queries.filter((q) => !idOf.has(q.expected));
    if (unresolved.length) {
      throw new Error(
        `${unresolved.length} expected addresses are not in this dataset (e.g. ${unresolved[0].expected}): ` +
          'the query set belongs to the bench dataset; rebuild one or the other',
      );
    }

    // Warm up: every statement planned, every index touched once (a new connection's first PostGIS call
    // pays for loading the library).
    for (const q of queries) await call('/api/avs/geocode', { address: `${q.query} South Africa` });

    // Relevance, and search latency over the same queries.
    const searchTimes = [];
    const searchOf = []; // the query (its index) of each time, for the baseline's subset
    const relevance = [];
    for (let r = 0; r < rounds; r++) {
      for (const [i, q] of queries.entries()) {
        const { ms, answer } = await call('/api/avs/geocode', { address: `${q.query} South Africa` });
        searchTimes.push(ms);
        searchOf.push(i);
        if (r === 0) {
          const position = answer.result.findIndex((item) => item.id === idOf.get(q.expected)) + 1;
          relevance.push({ ...q, position, first: answer.result[0]?.formatted_address ?? null });
        }
      }
    }

    const autocompleteTimes = [];
    const typed = relevanceOnly
      ? []
      : [...queries.entries()]
          .filter(([i]) => i % 4 === 0)
          .flatMap(([i, q]) => typedPrefixes(q.query).map((prefix) => ({ i, prefix })));
    const prefixes = typed.map((t) => t.prefix);
    for (const prefix of prefixes) {
      const { ms } = await call('/api/avs/search', { query: prefix, searchOptions: { address: true } });
      autocompleteTimes.push(ms);
    }

    // The plain approach on the same data and queries, right after (issue 23, side by side).
    let baseline = null;
    if (withBaseline) {
      await ensureTrigramBaseline(client, (line) => console.log(`[geo-search] ${line}`));
      const inSubset = (i) => i % baselineEvery === 0;
      baseline = await measureTrigramBaseline(client, {
        queries: queries.filter((_, i) => inSubset(i)),
        idOf,
        prefixes: typed.filter((t) => inSubset(t.i)).map((t) => t.prefix),
        rounds: baselineRounds,
      });
      baseline.every = baselineEvery;
      if (explain) {
        baseline.plans = {
          search: await explainBaseline(client, baseline.slowest.search),
          autocomplete: await explainBaseline(client, baseline.slowest.autocomplete),
        };
        for (const [kind, plan] of Object.entries(baseline.plans))
          console.log(`[geo-search] baseline ${kind}, slowest case: EXPLAIN (ANALYZE, BUFFERS)\n${plan}`);
      }
    }

    // POIs, farms, erven and postal codes, typed from rows of the dataset.
    const { rows: others } = await client.query(
      `SELECT * FROM (
       (SELECT 'poi' AS flag, name || ' ' || town AS query FROM geo.pois WHERE poi_type = 10000 ORDER BY md5(source_id) LIMIT 40)
       UNION ALL
       (SELECT 'farm', name || ' ' || farm_number FROM geo.farms WHERE portion = 0 ORDER BY md5(source_id) LIMIT 40)
       UNION ALL
       (SELECT 'erf', parcel_number || ' ' || town FROM geo.parcels WHERE town <> '' ORDER BY md5(source_id) LIMIT 40)
       UNION ALL
       (SELECT 'postal', street_code FROM geo.postal_codes WHERE street_code IS NOT NULL ORDER BY md5(source_id) LIMIT 40)
       ) o WHERE NOT $1`,
      [relevanceOnly],
    );
    const otherTimes = {};
    for (let r = 0; r < rounds; r++) {
      for (const { flag, query } of others) {
        const { ms } = await call('/api/avs/search', { query, searchOptions: { [flag]: true } });
        (otherTimes[flag] ??= []).push(ms);
      }
    }

    const points = relevanceOnly ? [] : await reversePoints(client, 300);
    const reverseTimes = [];
    for (const point of points) await call('/api/avs/reverse', point);
    let onParcel = 0;
    let withAddress = 0;
    for (let r = 0; r < rounds; r++) {
      for (const point of points) {
        const { ms, answer } = await call('/api/avs/reverse', point);
        reverseTimes.push(ms);
        if (r === 0) {
          if (answer.result.parcel) onParcel += 1;
          if (answer.result.address) withAddress += 1;
        }
      }
    }

    const share = (list, test) => round((100 * list.filter(test).length) / list.length);
    const categories = [...new Set(relevance.map((r) => r.category))].map((category) => {
      const inCategory = relevance.filter((r) => r.category === category);
      return {
        category,
        queries: inCategory.length,
        firstPercent: share(inCategory, (r) => r.position === 1),
        topFivePercent: share(inCategory, (r) => r.position >= 1 && r.position <= 5),
      };
    });
    const search = summary(searchTimes);
    const reverse = summary(reverseTimes);
    const firstPercent = share(relevance, (r) => r.position === 1);
    const topFivePercent = share(relevance, (r) => r.position >= 1 && r.position <= 5);
    const autocomplete = summary(autocompleteTimes);
    // The portal's side of the side-by-side table: over the baseline's queries (all, or every k-th).
    const sub = (i) => i % baselineEvery === 0;
    const subRelevance = relevance.filter((_, i) => sub(i));
    const portalSide = {
      search: summary(searchTimes.filter((_, j) => sub(searchOf[j]))),
      autocomplete: summary(autocompleteTimes.filter((_, j) => sub(typed[j].i))),
      first: share(subRelevance, (r) => r.position === 1),
      topFive: share(subRelevance, (r) => r.position >= 1 && r.position <= 5),
    };
    return {
      sideBySide: baseline && {
        baseline,
        queries: `${baseline.relevance.queries} of ${relevance.length} relevance queries (every ${baselineEvery}), ${baseline.autocomplete.requests} prefixes`,
        table: [
          ['geocode p50 ms', portalSide.search.p50Ms, baseline.search.p50Ms],
          ['geocode p95 ms', portalSide.search.p95Ms, baseline.search.p95Ms],
          ['autocomplete p50 ms', portalSide.autocomplete.p50Ms, baseline.autocomplete.p50Ms],
          ['autocomplete p95 ms', portalSide.autocomplete.p95Ms, baseline.autocomplete.p95Ms],
          ['relevance: expected first %', portalSide.first, baseline.relevance.firstPercent],
          ['relevance: expected in top five %', portalSide.topFive, baseline.relevance.topFivePercent],
        ].map(([what, portal, plain]) => ({ what, portal, baseline: plain, ratio: ratio(plain, portal) })),
        ratioIs: 'baseline ÷ portal',
      },
      scale,
      dataset: { addresses, streets, queries: queriesFile.slice(ROOT.length + 1) },
      search: {
        ...search,
        target: `p95 ≤ ${TARGETS.searchP95Ms} ms`,
        pass: search.p95Ms <= TARGETS.searchP95Ms,
      },
      // The machine is shared: how busy it was, beside the latencies (1, 5, 15 min averages at the end).
      loadAverage: loadavg().map((load) => round(load, 2)),
      autocomplete: relevanceOnly
        ? null
        : {
            ...autocomplete,
            target: `p95 ≤ ${TARGETS.searchP95Ms} ms`,
            pass: percentile(autocompleteTimes, 95) <= TARGETS.searchP95Ms,
          },
      otherSearches: Object.fromEntries(
        Object.entries(otherTimes).map(([flag, times]) => [flag, summary(times)]),
      ),
      reverse: relevanceOnly
        ? null
        : {
            ...reverse,
            onParcelPercent: round((100 * onParcel) / points.length),
            withAddressPercent: round((100 * withAddress) / points.length),
            target: `p95 ≤ ${TARGETS.reverseP95Ms} ms`,
            pass: reverse.p95Ms <= TARGETS.reverseP95Ms,
          },
      relevance: {
        queries: relevance.length,
        firstPercent,
        topFivePercent,
        target: `first ≥ ${TARGETS.firstPercent} %, top five ≥ ${TARGETS.topFivePercent} %`,
        pass: firstPercent >= TARGETS.firstPercent && topFivePercent >= TARGETS.topFivePercent,
        byCategory: categories,
        misses: relevance
          .filter((r) => r.position !== 1)
          .map(({ category, query, position, first }) => ({
            category,
            query,
            position: position || null,
            first,
          })),
      },
    };
  } finally {
    await locator.stop();
    await client.end();
  }
}

/** Writes the full figures (every miss) to bench/results/geo-search[-10m].json; answers the summary. */
export function writeGeoSearchResults(result, file = resultsFile(result.scale)) {
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  const { misses, ...relevance } = result.relevance;
  return { ...result, relevance: { ...relevance, misses: misses.length } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const scale = Number(arg('scale', '1000000'));
  const url = arg('url', undefined);
  const querySeed = arg('query-seed', '');
  if (process.argv.includes('--build-queries')) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url ?? (await ensureGeoBenchDatabase({ scale })) });
    await client.connect();
    try {
      const queries = await buildRelevanceQueries(client, PER_CATEGORY, querySeed);
      // A held-out set is named by its seed and, beyond 1 M, its scale (relevance-queries-heldout-10m.json):
      // its expected addresses belong to that scale's dataset.
      const file = querySeed
        ? join(ROOT, 'bench', `relevance-queries-${querySeed}${scaleSuffix(scale)}.json`)
        : relevanceQueriesFile(scale);
      writeFileSync(file, JSON.stringify(queries, null, 2) + '\n');
      console.log(`${queries.length} queries written to ${file}`);
    } finally {
      await client.end();
    }
  } else {
    const result = await measureGeoSearch({
      scale,
      url,
      rounds: Number(arg('rounds', '3')),
      withBaseline: !process.argv.includes('--skip-baseline'),
      baselineRounds: Number(arg('baseline-rounds', '1')),
      baselineEvery: Number(arg('baseline-every', '1')),
      explain: !process.argv.includes('--no-explain'),
      queries: arg('queries', undefined) && resolve(arg('queries')),
      relevanceOnly: process.argv.includes('--relevance-only'),
    });
    const out = arg('results', undefined);
    console.log(JSON.stringify(writeGeoSearchResults(result, out && resolve(out)), null, 2));
    if (result.sideBySide) console.table(result.sideBySide.table);
  }
}
