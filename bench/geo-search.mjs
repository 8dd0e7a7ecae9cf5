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
// the locator's, latency and relevance, and the ratio baseline ÷ portal (sideBySide); --explain prints
// the plans of its slowest search and autocomplete, --skip-baseline leaves it out.
//
// Usage: node bench/geo-search.mjs [--scale 1000000] [--rounds 3] [--url postgres://...] [--build-queries]
//        [--explain] [--skip-baseline] [--baseline-rounds 1]
// Needs PostgreSQL with PostGIS, Redis and the session keys (var/keys), as `npm start` leaves them.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../scripts/lib/system.mjs';
import { ensureGeoBenchDatabase } from './lib/geo-dataset.mjs';
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
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'geo-search.json');

// ---------------------------------------------------------------------------------------------------
// The query set

/** A deterministic number from a text (FNV-1a), for choices that must not change between builds. */
function hashOf(text) {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

const ABBREVIATED_TYPES = {
  Street: 'St',
  Road: 'Rd',
  Avenue: 'Ave',
  Drive: 'Dr',
  Crescent: 'Cres',
  Close: 'Cl',
  Lane: 'Ln',
  Place: 'Pl',
  Boulevard: 'Blvd',
  Way: 'Wy',
};
const AFRIKAANS_TYPES = {
  straat: ['Straat', 'Str', 'Street'],
  weg: ['Weg', 'Road', 'Rd'],
  laan: ['Laan', 'Avenue', 'Ave'],
};

/** One typing mistake in a word: two letters swapped, one dropped, one doubled, or a vowel changed. */
function misspell(word, seed) {
  const at = 1 + (seed % Math.max(1, word.length - 2));
  switch ((seed >> 8) % 4) {
    case 0:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + word[at] + word.slice(at);
    default: {
      const vowels = 'aeiou';
      const i = [...word].findIndex((c, j) => j >= 1 && vowels.includes(c));
      if (i < 0) return word.slice(0, at) + word.slice(at + 1);
      const other = vowels[(vowels.indexOf(word[i]) + 1 + (seed % 4)) % 5];
      return word.slice(0, i) + other + word.slice(i + 1);
    }
  }
}

/** The longest word of a street's name without its type (the word a typo is put in). */
function baseWord(street) {
  const words = street.split(' ');
  const named = words.length > 1 ? words.slice(0, -1) : words;
  return named.reduce((a, b) => (b.length > a.length ? b : a));
}

/** Every way a query is written: the addresses it needs, and how each is written. */
const CATEGORIES = [
  {
    name: 'full address',
    scope: 'town',
    write: (a) => `${a.house_number} ${a.street_name}, ${a.suburb}, ${a.town}, ${a.postal_code}`,
  },
  {
    name: 'lower case, no commas',
    scope: 'town',
    write: (a) => `${a.house_number} ${a.street_name} ${a.suburb} ${a.town}`.toLowerCase(),
  },
  {
    name: 'misspelt street',
    scope: 'town',
    where: (a) => baseWord(a.street_name).length >= 5,
    write: (a, seed) => {
      const word = baseWord(a.street_name);
      return `${a.house_number} ${a.street_name.replace(word, misspell(word, seed))}, ${a.town}`;
    },
  },
  {
    name: 'misspelt town',
    scope: 'town',
    where: (a) => a.town.length >= 5,
    write: (a, seed) => {
      const word = baseWord(`${a.town} x`);
      return `${a.house_number} ${a.street_name}, ${a.town.replace(word, misspell(word, seed))}`;
    },
  },
  {
    name: 'abbreviated street type',
    scope: 'town',
    where: (a) =>
      ABBREVIATED_TYPES[a.street_name.split(' ').at(-1)] !== undefined && a.street_name.includes(' '),
    write: (a) => {
      const words = a.street_name.split(' ');
      return `${a.house_number} ${[...words.slice(0, -1), ABBREVIATED_TYPES[words.at(-1)]].join(' ')}, ${a.town}`;
    },
  },
  {
    name: 'partial input',
    scope: 'town',
    where: (a) => a.town.length >= 6,
    write: (a, seed) => {
      const words = a.street_name.split(' ');
      const type = ABBREVIATED_TYPES[words.at(-1)];
      const street = (type && words.length > 1 ? [...words.slice(0, -1), type] : words).join(' ');
      return `${a.house_number} ${street} ${a.town.slice(0, 3 + (seed % 3)).trim()}`.toLowerCase();
    },
  },
  {
    name: 'missing suburb',
    scope: 'town',
    write: (a) => `${a.house_number} ${a.street_name}, ${a.town}`,
  },
  {
    name: 'suburb, no town',
    scope: 'suburb',
    write: (a) => `${a.house_number} ${a.street_name}, ${a.suburb}`,
  },
  {
    name: 'postal code',
    scope: 'postal_code',
    write: (a) => `${a.house_number} ${a.street_name} ${a.postal_code}`,
  },
  {
    name: 'Afrikaans street type',
    scope: 'town',
    sql: "a.street_name ~ '^[A-Z][a-z]+(straat|weg|laan)$'",
    write: (a, seed) => {
      const [, stem, type] = /^([A-Z][a-z]+?)(straat|weg|laan)$/.exec(a.street_name);
      const written = AFRIKAANS_TYPES[type][seed % 3];
      return `${a.house_number} ${stem} ${written}, ${a.town}`;
    },
  },
  {
    name: 'unit in an estate',
    scope: 'town',
    units: true,
    write: (a, seed) =>
      seed % 2
        ? `Unit ${a.unit}, ${a.estate}, ${a.house_number} ${a.street_name}, ${a.town}`
        : `${a.unit}/${a.house_number} ${a.street_name}, ${a.suburb}`,
  },
];

const PER_CATEGORY = 20;

/**
 * A street name as the search compares it, in SQL: case and spaces aside, an Afrikaans type written into
 * the name the same as the English one ("Voortrekkerstraat" is "Voortrekker Street").
 */
const streetKey = (column) =>
  `replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(${column}),
     'straat$', 'street'), 'rylaan$', 'drive'), 'laan$', 'avenue'), 'weg$', 'road'), ' ', '')`;

/**
 * Builds the query set from the bench dataset: for each category, addresses in a fixed pseudo-random
 * order (md5 of source id and category) that the category can write and whose number and street (and
 * unit) are unique in the category's scope, written as the category writes them.
 */
export async function buildRelevanceQueries(client, perCategory = PER_CATEGORY) {
  const queries = [];
  for (const category of CATEGORIES) {
    // Uniqueness: no other address with the same street name, number and unit in the same scope.
    const { rows } = await client.query(
      `SELECT a.source_id, a.house_number, a.street_name, a.unit, a.estate, a.suburb, a.town, a.postal_code
       FROM geo.addresses a
       WHERE a.source = 'generator' AND a.house_number <> '' AND a.street_name <> ''
         AND ${category.units ? 'a.unit IS NOT NULL AND a.estate IS NOT NULL' : 'a.unit IS NULL'}
         AND ${category.sql ?? 'true'}
         AND NOT EXISTS (
           SELECT 1 FROM geo.addresses b
           WHERE ${streetKey('b.street_name')} = ${streetKey('a.street_name')} AND b.house_number = a.house_number
             AND b.unit IS NOT DISTINCT FROM a.unit AND b.id <> a.id
             AND b.${category.scope} = a.${category.scope})
       ORDER BY md5(a.source_id || $1)
       LIMIT $2`,
      [category.name, perCategory * 20],
    );
    let taken = 0;
    for (const address of rows) {
      if (taken === perCategory) break;
      if (category.where && !category.where(address)) continue;
      const query = category.write(address, hashOf(address.source_id + category.name));
      queries.push({ category: category.name, query, expected: address.source_id });
      taken += 1;
    }
    if (taken < perCategory)
      throw new Error(`Only ${taken} addresses for '${category.name}' in this dataset`);
  }
  return queries;
}

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
  explain = false,
} = {}) {
  if (!existsSync(RELEVANCE_QUERIES_FILE)) {
    throw new Error(`${RELEVANCE_QUERIES_FILE} is missing: build it with --build-queries`);
  }
  const queries = JSON.parse(readFileSync(RELEVANCE_QUERIES_FILE, 'utf8'));
  const databaseUrl = url ?? (await ensureGeoBenchDatabase({ scale }));
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
    const relevance = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of queries) {
        const { ms, answer } = await call('/api/avs/geocode', { address: `${q.query} South Africa` });
        searchTimes.push(ms);
        if (r === 0) {
          const position = answer.result.findIndex((item) => item.id === idOf.get(q.expected)) + 1;
          relevance.push({ ...q, position, first: answer.result[0]?.formatted_address ?? null });
        }
      }
    }

    const autocompleteTimes = [];
    const prefixes = queries.filter((_, i) => i % 4 === 0).flatMap((q) => typedPrefixes(q.query));
    for (const typed of prefixes) {
      const { ms } = await call('/api/avs/search', { query: typed, searchOptions: { address: true } });
      autocompleteTimes.push(ms);
    }

    // The plain approach on the same data and queries, right after (issue 23, side by side).
    let baseline = null;
    if (withBaseline) {
      await ensureTrigramBaseline(client, (line) => console.log(`[geo-search] ${line}`));
      baseline = await measureTrigramBaseline(client, {
        queries,
        idOf,
        prefixes,
        rounds: baselineRounds,
      });
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
      `(SELECT 'poi' AS flag, name || ' ' || town AS query FROM geo.pois WHERE poi_type = 10000 ORDER BY md5(source_id) LIMIT 40)
       UNION ALL
       (SELECT 'farm', name || ' ' || farm_number FROM geo.farms WHERE portion = 0 ORDER BY md5(source_id) LIMIT 40)
       UNION ALL
       (SELECT 'erf', parcel_number || ' ' || town FROM geo.parcels WHERE town <> '' ORDER BY md5(source_id) LIMIT 40)
       UNION ALL
       (SELECT 'postal', street_code FROM geo.postal_codes WHERE street_code IS NOT NULL ORDER BY md5(source_id) LIMIT 40)`,
    );
    const otherTimes = {};
    for (let r = 0; r < rounds; r++) {
      for (const { flag, query } of others) {
        const { ms } = await call('/api/avs/search', { query, searchOptions: { [flag]: true } });
        (otherTimes[flag] ??= []).push(ms);
      }
    }

    const points = await reversePoints(client, 300);
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
    return {
      sideBySide: baseline && {
        baseline,
        table: [
          ['geocode p50 ms', search.p50Ms, baseline.search.p50Ms],
          ['geocode p95 ms', search.p95Ms, baseline.search.p95Ms],
          ['autocomplete p50 ms', autocomplete.p50Ms, baseline.autocomplete.p50Ms],
          ['autocomplete p95 ms', autocomplete.p95Ms, baseline.autocomplete.p95Ms],
          ['relevance: expected first %', firstPercent, baseline.relevance.firstPercent],
          ['relevance: expected in top five %', topFivePercent, baseline.relevance.topFivePercent],
        ].map(([what, portal, plain]) => ({ what, portal, baseline: plain, ratio: ratio(plain, portal) })),
        ratioIs: 'baseline ÷ portal',
      },
      dataset: { addresses, streets },
      search: {
        ...search,
        target: `p95 ≤ ${TARGETS.searchP95Ms} ms`,
        pass: search.p95Ms <= TARGETS.searchP95Ms,
      },
      autocomplete: {
        ...autocomplete,
        target: `p95 ≤ ${TARGETS.searchP95Ms} ms`,
        pass: percentile(autocompleteTimes, 95) <= TARGETS.searchP95Ms,
      },
      otherSearches: Object.fromEntries(
        Object.entries(otherTimes).map(([flag, times]) => [flag, summary(times)]),
      ),
      reverse: {
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

/** Writes the full figures (every miss) to bench/results/geo-search.json; answers the summary. */
export function writeGeoSearchResults(result) {
  writeFileSync(RESULTS_FILE, JSON.stringify(result, null, 2) + '\n');
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
  if (process.argv.includes('--build-queries')) {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url ?? (await ensureGeoBenchDatabase({ scale })) });
    await client.connect();
    try {
      const queries = await buildRelevanceQueries(client);
      writeFileSync(RELEVANCE_QUERIES_FILE, JSON.stringify(queries, null, 1) + '\n');
      console.log(`${queries.length} queries written to ${RELEVANCE_QUERIES_FILE}`);
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
      explain: process.argv.includes('--explain'),
    });
    console.log(JSON.stringify(writeGeoSearchResults(result), null, 2));
    if (result.sideBySide) console.table(result.sideBySide.table);
  }
}
