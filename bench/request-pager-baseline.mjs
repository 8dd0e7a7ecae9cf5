// The plain approach to the request console's pager, measured beside it by bench/request-pager.mjs
// (issue 23, "side by side"): for the same filters, sort and page, what a competent team would write —
//
//   SELECT count(*) FROM requests.requests r WHERE <filters>;
//   SELECT <the grid row's columns> FROM requests.requests r WHERE <filters>
//     ORDER BY <sort>, r.id LIMIT <size> OFFSET <(page - 1) × size>;
//
// over the same table and its indexes (the ones the migrations made; nothing kept between requests). The
// WHERE, ORDER BY and columns are the service's own (its built queue/filters, queue/sort and queue/rows),
// so both answer the same rows. The two statements run straight on one pg connection from the bench
// process (no HTTP, no JSON, no session check), which favours the baseline.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib/system.mjs';
import { percentile, round } from './stats.mjs';

const require = createRequire(import.meta.url);

/** The statements of one combination; `build` needs @portal/requests built (its dist is read). */
export function baselineStatements({ filters, sort, limit, page }) {
  const dist = (file) => require(join(ROOT, 'services/requests/dist/queue', file));
  const { parseRequestFilters, requestFilterSql } = dist('filters.js');
  const { parseSort, orderBySql, STAFF_DEFAULT_SORT } = dist('sort.js');
  const { REQUEST_ROW_COLUMNS } = dist('rows.js');
  const { where, params } = requestFilterSql(parseRequestFilters(filters), { userId: null });
  const order = orderBySql(parseSort(sort ? JSON.stringify(sort) : undefined, STAFF_DEFAULT_SORT));
  const n = params.length;
  return {
    count: { text: `SELECT count(*)::int AS total FROM requests.requests r WHERE ${where}`, values: params },
    page: {
      text: `SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r WHERE ${where}
              ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
      values: [...params, limit, (page - 1) * limit],
    },
  };
}

/** One combination, `samples` times after one warm-up (none over 1 s): count then page, timed together. */
export async function measureBaselineCombination(client, combination, samples) {
  const { count, page } = baselineStatements(combination);
  const once = async () => {
    const started = performance.now();
    const [{ total }] = (await client.query(count)).rows;
    const { rows } = await client.query(page);
    return { ms: performance.now() - started, total, rows: rows.length };
  };
  const first = await once();
  // A statement of a second or more gains nothing from a warm-up (its pages are as warm after it as
  // before): the first run is a sample then, and the bench's run is minutes shorter.
  const times = first.ms >= 1000 ? [first.ms] : [];
  while (times.length < samples) times.push((await once()).ms);
  return {
    total: first.total,
    rows: first.rows,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a combination's page statement (the count's plan is a scan of the same filter). */
export async function explainBaselineCombination(client, combination) {
  const { count, page } = baselineStatements(combination);
  const explain = async ({ text, values }) =>
    (await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${text}`, values })).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  return { count: await explain(count), page: await explain(page) };
}
