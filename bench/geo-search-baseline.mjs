// The plain approach to address search, measured beside the locator by bench/geo-search.mjs (issue 23,
// "side by side"): what a competent team would build instead of the locator's parser and candidate
// ranking — one `full_address` text column with a pg_trgm GIN index, and
//
//   SELECT id FROM bench_baseline.addresses
//   WHERE full_address % $1 ORDER BY similarity(full_address, $1) DESC LIMIT 5
//
// for both search and autocomplete. `%` is there so the GIN index is used (without it PostgreSQL
// computes the similarity of every row); it keeps rows whose similarity is at least
// pg_trgm.similarity_threshold, left at pg_trgm's default of 0.3 (SIMILARITY_THRESHOLD below, set on the
// connection so a changed server default does not move the figure).
//
// The table is built once on the bench database, from geo.addresses, each address written as the
// locator writes its formatted address ("Unit 4 Oak Estate, 12 Church Street, Stellenbosch Central,
// Stellenbosch, 7600": libs/geo formatAddress), and rebuilt when its row count no longer matches.
// Its ids are geo.addresses' ids, so the relevance is judged exactly as the locator's.
//
// The queries run straight on one pg connection from this process (no HTTP, no JSON): the baseline's
// figure leaves out what the locator's figure includes (the HTTP round trip, the session check, the
// answer's JSON), which favours the baseline.
import { percentile, round } from './stats.mjs';

export const BASELINE_SCHEMA = 'bench_baseline';
export const SIMILARITY_THRESHOLD = 0.3;

/** libs/geo formatAddress in SQL: unit and estate, number and street, suburb (unless the town), town, code. */
const FULL_ADDRESS_SQL = `concat_ws(', ',
    nullif(concat_ws(', ',
      CASE WHEN coalesce(a.unit, '') <> '' THEN concat_ws(' ', 'Unit ' || a.unit, nullif(a.estate, ''))
           ELSE nullif(a.estate, '') END,
      nullif(trim(a.house_number || ' ' || a.street_name), '')), ''),
    CASE WHEN a.suburb <> '' AND lower(a.suburb) <> lower(a.town) THEN a.suburb END,
    nullif(a.town, ''),
    a.postal_code)`;

/**
 * bench_baseline.addresses (id, full_address) with its trigram GIN index, made once from geo.addresses;
 * made again when the address count changed (a regenerated bench database). Answers what it did.
 */
export async function ensureTrigramBaseline(client, log = () => undefined) {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${BASELINE_SCHEMA}`);
  const [{ kept, addresses }] = (
    await client.query(
      `SELECT (SELECT count(*) FROM geo.addresses)::int AS addresses,
              CASE WHEN to_regclass('${BASELINE_SCHEMA}.addresses') IS NULL THEN -1
                   ELSE (SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass('${BASELINE_SCHEMA}.addresses')) END::int AS kept`,
    )
  ).rows;
  if (kept >= 0) {
    const [{ n }] = (await client.query(`SELECT count(*)::int AS n FROM ${BASELINE_SCHEMA}.addresses`)).rows;
    if (n === addresses) return { built: false, rows: n };
  }
  const started = performance.now();
  log(`building ${BASELINE_SCHEMA}.addresses (full_address + pg_trgm GIN) from ${addresses} addresses`);
  await client.query(`DROP TABLE IF EXISTS ${BASELINE_SCHEMA}.addresses`);
  await client.query(
    `CREATE TABLE ${BASELINE_SCHEMA}.addresses AS
       SELECT a.id, ${FULL_ADDRESS_SQL} AS full_address FROM geo.addresses a`,
  );
  await client.query(`ALTER TABLE ${BASELINE_SCHEMA}.addresses ADD PRIMARY KEY (id)`);
  await client.query(
    `CREATE INDEX addresses_full_address_trgm_idx ON ${BASELINE_SCHEMA}.addresses USING gin (full_address gin_trgm_ops)`,
  );
  await client.query(`VACUUM ANALYZE ${BASELINE_SCHEMA}.addresses`);
  const [{ size }] = (
    await client.query(
      `SELECT pg_size_pretty(pg_total_relation_size('${BASELINE_SCHEMA}.addresses')) AS size`,
    )
  ).rows;
  const seconds = round((performance.now() - started) / 1000);
  log(`built in ${seconds} s (${size} with its indexes)`);
  return { built: true, rows: addresses, seconds, size };
}

const BASELINE_SQL = `SELECT id::text AS id, full_address FROM ${BASELINE_SCHEMA}.addresses
  WHERE full_address % $1 ORDER BY similarity(full_address, $1) DESC, id LIMIT 5`;

const summary = (times) => ({
  requests: times.length,
  p50Ms: round(percentile(times, 50)),
  p95Ms: round(percentile(times, 95)),
  p99Ms: round(percentile(times, 99)),
  maxMs: round(Math.max(...times)),
});

/**
 * The baseline over the same queries as the locator: `queries` (the relevance set, `idOf` their expected
 * ids) `rounds` times for search latency and relevance (first round), and `prefixes` (what the locator's
 * autocomplete was asked) once each for autocomplete latency. Each statement is run once before timing.
 */
export async function measureTrigramBaseline(client, { queries, idOf, prefixes, rounds }) {
  await client.query(`SET pg_trgm.similarity_threshold = ${SIMILARITY_THRESHOLD}`);
  const slowest = { search: { ms: 0, text: null }, autocomplete: { ms: 0, text: null } };
  const run = async (text, kind) => {
    const started = performance.now();
    const { rows } = await client.query(BASELINE_SQL, [text]);
    const ms = performance.now() - started;
    if (kind && ms > slowest[kind].ms) slowest[kind] = { ms, text };
    return { ms, rows };
  };
  // A statement here takes from tens of milliseconds to seconds (a bitmap of every address sharing a
  // trigram, rechecked): a few warm it up (plan, index pages), more would only lengthen the bench.
  for (const q of queries.slice(0, 10)) await run(q.query);
  const searchTimes = [];
  const relevance = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const { ms, rows } = await run(q.query, 'search');
      searchTimes.push(ms);
      if (r === 0) {
        const position = rows.findIndex((row) => row.id === idOf.get(q.expected)) + 1;
        relevance.push({ ...q, position, first: rows[0]?.full_address ?? null });
      }
    }
  }
  const autocompleteTimes = [];
  let emptyAutocomplete = 0;
  for (const typed of prefixes) {
    const { ms, rows } = await run(typed, 'autocomplete');
    autocompleteTimes.push(ms);
    if (rows.length === 0) emptyAutocomplete += 1;
  }
  const share = (list, test) => round((100 * list.filter(test).length) / list.length);
  return {
    approach: `full_address text + pg_trgm GIN, WHERE full_address % $1 ORDER BY similarity DESC LIMIT 5 (similarity_threshold ${SIMILARITY_THRESHOLD}), straight on one connection`,
    search: summary(searchTimes),
    autocomplete: {
      ...summary(autocompleteTimes),
      noAnswerPercent: round((100 * emptyAutocomplete) / prefixes.length),
    },
    slowest: { search: slowest.search.text, autocomplete: slowest.autocomplete.text },
    relevance: {
      queries: relevance.length,
      firstPercent: share(relevance, (r) => r.position === 1),
      topFivePercent: share(relevance, (r) => r.position >= 1 && r.position <= 5),
      noAnswerPercent: share(relevance, (r) => r.first === null),
      byCategory: [...new Set(relevance.map((r) => r.category))].map((category) => {
        const inCategory = relevance.filter((r) => r.category === category);
        return {
          category,
          firstPercent: share(inCategory, (r) => r.position === 1),
          topFivePercent: share(inCategory, (r) => r.position >= 1 && r.position <= 5),
        };
      }),
    },
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of the baseline statement for one text (its slowest case). */
export async function explainBaseline(client, text) {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${BASELINE_SQL}`, [text]);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** times ÷ portal's, one decimal: how many times slower (> 1) or faster (< 1) the baseline is. */
export const ratio = (baseline, portal) => round(baseline / portal, 2);
