import {
  INSIGHT_MAX_PEOPLE,
  REQUEST_STATUSES,
  type InsightBacklogRow,
  type InsightOperatorRow,
} from '@portal/contracts';
import { SqlParameters } from '@portal/db';
import type { InsightScope } from './scope';
import type { CreatedCounts, HistoryFigures, Queryable } from './store';

/**
 * The operations dashboard's period figures, from requests.insight_rollup (migrations
 * 1764870000000-InsightRollup and 1764875000000-InsightRollupMonths; docs/insight.md "The rollup"): the
 * facts of every request summed per SAST day, week and month, kept by triggers in the writers'
 * transactions. Every period reads it: a year's totals are a dozen months and the weeks and days at its
 * ends per key, its weekly chart some fifty week rows of two figures, instead of a million status lines; a
 * week is seven day rows instead of the status lines of three weeks.
 *
 * Counts are exact. Hours are histograms of whole hours rounded up, so the medians and p90s are estimated
 * within their hour (percentile_cont's interpolation over values spread evenly in their hour), and a stay
 * "longer than the target" is exact for a whole-hour target.
 */

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const monthOf = (n: number) => {
  const day = new Date(n * DAY_MS);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1) / DAY_MS;
};
const monthAfter = (n: number) => {
  const day = new Date(n * DAY_MS);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1) / DAY_MS;
};

/** The rollup rows of one grain whose first day is in [first, last] (first null: any before last). */
interface Piece {
  grain: 'd' | 'w' | 'm';
  first: number | null;
  last: number;
}

/** Days [from, to] as the week rows of the weeks (Monday to Sunday) wholly in them and the rest's day rows. */
function weekPieces(from: number, to: number): Piece[] {
  if (from > to) return [];
  // 1970-01-01 was a Thursday: day n is a Monday when (n + 3) % 7 === 0.
  const firstMonday = from + ((7 - ((from + 3) % 7)) % 7);
  const lastMonday = to - 6 - ((to - 6 + 3 + 7) % 7);
  if (firstMonday > lastMonday) return [{ grain: 'd', first: from, last: to }];
  const pieces: Piece[] = [{ grain: 'w', first: firstMonday, last: lastMonday }];
  if (firstMonday > from) pieces.push({ grain: 'd', first: from, last: firstMonday - 1 });
  if (lastMonday + 6 < to) pieces.push({ grain: 'd', first: lastMonday + 7, last: to });
  return pieces;
}

/**
 * Days [from, to] (from null: every day up to `to`) in the fewest rows the grains allow, for figures summed
 * over the period: the months wholly in it, then the weeks wholly in what is left at its ends, then days. A
 * year is eleven or twelve months and a few weeks and days per key, not some fifty weeks.
 */
export function totalPieces(from: number | null, to: number): Piece[] {
  const firstMonth = from === null ? null : from === monthOf(from) ? from : monthAfter(from);
  // The first day of the month after the last month wholly in the period.
  const afterMonths = monthOf(to + 1);
  if (from !== null && firstMonth !== null && firstMonth >= afterMonths) return weekPieces(from, to);
  return [
    ...(from === null || firstMonth === null ? [] : weekPieces(from, firstMonth - 1)),
    { grain: 'm', first: firstMonth, last: monthOf(afterMonths - 1) },
    ...weekPieces(afterMonths, to),
  ];
}

/** The SQL condition on (grain, start) that picks the pieces' rows. */
function piecesSql(pieces: Piece[], params: SqlParameters): string {
  if (pieces.length === 0) return 'false';
  return `(${pieces
    .map(({ grain, first, last }) => {
      const lower = first === null ? '' : `start >= ${params.bind(dayOf(first))}::date AND `;
      return `(grain = '${grain}' AND ${lower}start <= ${params.bind(dayOf(last))}::date)`;
    })
    .join(' OR ')})`;
}

/**
 * The rows of the figures drawn per bucket (created and finished, the backlog's moves): each day's row for
 * a daily period; for a weekly one the week rows of the weeks wholly in it and the day rows of its
 * part-weeks. Labelled with their bucket's first day.
 */
function bucketRows(scope: InsightScope, params: SqlParameters): { where: string; bucket: string } {
  const from = dayNumber(scope.from);
  const to = dayNumber(scope.to);
  if (scope.bucket === 'day')
    return { where: piecesSql([{ grain: 'd', first: from, last: to }], params), bucket: 'start::text' };
  return { where: piecesSql(weekPieces(from, to), params), bucket: `date_trunc('week', start)::date::text` };
}

function typeFilters(scope: InsightScope, params: SqlParameters): string {
  // Every group's rows, or the group's own (each request's facts are kept for both; see periodTotals).
  const where: string[] = [
    scope.group ? `scope_group = ${params.bind(scope.group)}::uuid` : 'scope_group IS NULL',
  ];
  if (scope.type) where.push(`request_type = ${params.bind(scope.type)}`);
  if (scope.subtype) where.push(`subtype = ${params.bind(scope.subtype)}`);
  return `AND ${where.join(' AND ')}`;
}

/** A histogram: counts by whole hours rounded up (element b: values in (b - 1, b] hours; 0: none). */
export type Histogram = Map<number, number>;

/**
 * percentile_cont over the values a histogram stands for, each hour's values taken as spread evenly across
 * it (the k-th of c in hour b at b - 1 + (k + ½) / c): within an hour of the exact figure.
 */
export function histogramPercentile(histogram: Histogram, fraction: number): number | null {
  const hours = [...histogram].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const total = hours.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const rank = fraction * (total - 1);
  const valueAt = (index: number) => {
    let before = 0;
    for (const [b, n] of hours) {
      if (index < before + n) return b === 0 ? 0 : b - 1 + (index - before + 0.5) / n;
      before += n;
    }
    return hours[hours.length - 1][0];
  };
  const low = Math.floor(rank);
  const lowValue = valueAt(low);
  return rank === low ? lowValue : lowValue + (rank - low) * (valueAt(low + 1) - lowValue);
}

const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** What the rollup answers: the created counts, the history's figures and the backlog. */
export interface RollupFigures {
  created: CreatedCounts;
  history: HistoryFigures;
  backlog: InsightBacklogRow[];
}

/**
 * The period's figures from the rollup (exact.ts's rules, docs/insight.md "The rollup"): four statements,
 * sent together (`db` may run them side by side on their own connections, figures.ts does): the created
 * and finished counts per bucket, the totals per group and operator, the hour histograms and the backlog.
 */
export async function rollupFigures(
  db: Queryable,
  scope: InsightScope,
  targets: Record<string, number>,
): Promise<RollupFigures> {
  const [flow, totals, hours, backlog] = await Promise.all([
    flowCounts(db, scope),
    periodTotals(db, scope),
    hourCounts(db, scope),
    rollupBacklog(db, scope),
  ]);
  const created: CreatedCounts = {
    flow: flow
      .filter((row) => row.kind === 'created')
      .map(({ bucket, type, subtype, n }) => ({ bucket, type, subtype, created: n })),
    groups: totals
      .filter((row) => row.kind === 'created_group')
      .map((row) => ({ groupId: row.key_id, groupName: row.name ?? '', created: row.n })),
  };
  const history: HistoryFigures = {
    finishedFlow: flow
      .filter((row) => row.kind === 'finished')
      .map(({ bucket, type, subtype, n }) => ({ bucket, type, subtype, finished: n })),
    finishedGroups: totals
      .filter((row) => row.kind === 'finished_group')
      .map((row) => ({ groupId: row.key_id, groupName: row.name ?? '', finished: row.n })),
    ...peopleFigures(totals),
    ...hourFigures(hours, targets),
  };
  return { created, history, backlog };
}

/** Created and finished per bucket, type and sub-type (the flow chart: the only figures read by week). */
async function flowCounts(db: Queryable, scope: InsightScope) {
  const params = new SqlParameters();
  const { where, bucket } = bucketRows(scope, params);
  return (await db.query(
    `SELECT kind, ${bucket} AS bucket, request_type AS type, subtype, sum(n)::int AS n
       FROM requests.insight_rollup
      WHERE kind IN ('created', 'finished') AND ${where} ${typeFilters(scope, params)}
      GROUP BY 1, 2, 3, 4
     HAVING sum(n) <> 0`,
    params.values,
  )) as { kind: string; bucket: string; type: string; subtype: string; n: number }[];
}

type TotalRow = { kind: string; status: string; key_id: string | null; name: string | null; n: number };

/**
 * The period's totals per group (created, finished), per operator (work) and per submitter (QC decisions),
 * from the months, weeks and days that make it up; a group's name from its row. One group's own rows keep
 * no per-group counts (migration InsightRollupGroupRows): its `created` and `finished` are them.
 */
async function periodTotals(db: Queryable, scope: InsightScope): Promise<TotalRow[]> {
  const params = new SqlParameters();
  const where = piecesSql(totalPieces(dayNumber(scope.from), dayNumber(scope.to)), params);
  const [kind, keyId, counts] = scope.group
    ? [
        `CASE kind WHEN 'created' THEN 'created_group' WHEN 'finished' THEN 'finished_group' ELSE kind END`,
        `CASE WHEN kind IN ('created', 'finished') THEN scope_group ELSE key_id END`,
        `'created', 'finished'`,
      ]
    : ['kind', 'key_id', `'created_group', 'finished_group'`];
  return (await db.query(
    `SELECT t.kind, t.status, t.key_id,
            CASE WHEN t.kind IN ('created_group', 'finished_group') THEN g.name ELSE t.key_name END AS name, t.n
       FROM (SELECT ${kind} AS kind, status, ${keyId} AS key_id, max(key_name) AS key_name, sum(n)::int AS n
               FROM requests.insight_rollup
              WHERE kind IN (${counts}, 'work', 'decision') AND ${where} ${typeFilters(scope, params)}
              GROUP BY 1, 2, 3
             HAVING sum(n) <> 0) t
       LEFT JOIN identity.groups g ON g.id = t.key_id AND t.kind IN ('created_group', 'finished_group')`,
    params.values,
  )) as TotalRow[];
}

type HourRow = { kind: string; type: string; status: string; hour: number; n: number };

/** The turnaround's and the stays' hour histograms summed over the period (its months, weeks and days). */
async function hourCounts(db: Queryable, scope: InsightScope): Promise<HourRow[]> {
  const params = new SqlParameters();
  const where = piecesSql(totalPieces(dayNumber(scope.from), dayNumber(scope.to)), params);
  return (await db.query(
    // unnest, not hist[i] per subscript: a long histogram is stored compressed and each hist[i] would
    // decompress it again (a year's histograms: 1.2 s against 0.16 s at 1 000 000 requests). The elements
    // start at the array's lower bound (the first hour written), not always 1.
    `SELECT kind, request_type AS type, status, array_lower(hist, 1) + u.i - 2 AS hour, sum(u.v)::int AS n
       FROM requests.insight_rollup, unnest(hist) WITH ORDINALITY AS u(v, i)
      WHERE kind IN ('finished', 'stay') AND u.v <> 0 AND ${where} ${typeFilters(scope, params)}
      GROUP BY 1, 2, 3, 4
     HAVING sum(u.v) <> 0`,
    params.values,
  )) as HourRow[];
}

/** Work per operator and the QC send-backs per submitter, from the period's totals. */
function peopleFigures(totals: TotalRow[]): Pick<HistoryFigures, 'operators' | 'sendBacks'> {
  const operators = new Map<string | null, InsightOperatorRow & { total: number }>();
  const decisions = new Map<string | null, { name: string; decisions: number; sentBack: number }>();
  for (const row of totals) {
    if (row.kind === 'work') {
      let found = operators.get(row.key_id);
      if (!found)
        operators.set(
          row.key_id,
          (found = { userId: row.key_id, name: '', started: 0, submitted: 0, approved: 0, total: 0 }),
        );
      if (row.name && row.name > found.name) found.name = row.name;
      if (row.status === 'started' || row.status === 'submitted' || row.status === 'approved')
        found[row.status] += row.n;
      found.total += row.n;
    } else if (row.kind === 'decision') {
      let found = decisions.get(row.key_id);
      if (!found) decisions.set(row.key_id, (found = { name: '', decisions: 0, sentBack: 0 }));
      if (row.name && row.name > found.name) found.name = row.name;
      found.decisions += row.n;
      if (row.status === 'Query') found.sentBack += row.n;
    }
  }
  const decisionRows = [...decisions].map(([userId, d]) => ({
    userId,
    name: d.name,
    decisions: d.decisions,
    sentBack: d.sentBack,
    rate: d.decisions ? Math.round((d.sentBack / d.decisions) * 10000) / 10000 : null,
  }));
  const everyone = decisionRows.reduce(
    (total, d) => ({ decisions: total.decisions + d.decisions, sentBack: total.sentBack + d.sentBack }),
    { decisions: 0, sentBack: 0 },
  );
  return {
    operators: [...operators.values()]
      .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name))
      .slice(0, INSIGHT_MAX_PEOPLE)
      .map(({ total: _total, ...row }) => row),
    sendBacks: [
      {
        userId: null,
        name: 'Everyone',
        ...everyone,
        rate: everyone.decisions
          ? Math.round((everyone.sentBack / everyone.decisions) * 10000) / 10000
          : null,
      },
      ...decisionRows
        .sort((a, b) => b.decisions - a.decisions || a.name.localeCompare(b.name))
        .slice(0, INSIGHT_MAX_PEOPLE),
    ],
  };
}

/** The turnaround (overall and per type) and the time in each status, from the hour histograms. */
function hourFigures(
  hours: HourRow[],
  targets: Record<string, number>,
): Pick<HistoryFigures, 'turnaround' | 'statusTimes'> {
  const histogram = (kind: string, pick: (row: HourRow) => string) => {
    const out = new Map<string, Histogram>();
    for (const row of hours.filter((r) => r.kind === kind)) {
      const key = pick(row);
      let found = out.get(key);
      if (!found) out.set(key, (found = new Map()));
      found.set(row.hour, (found.get(row.hour) ?? 0) + row.n);
    }
    return out;
  };
  const turnaroundByType = histogram('finished', (row) => row.type);
  const all: Histogram = new Map();
  for (const h of turnaroundByType.values()) for (const [b, n] of h) all.set(b, (all.get(b) ?? 0) + n);
  const sum = (h: Histogram) => [...h.values()].reduce((total, n) => total + n, 0);
  const turnaround = [
    ['All', all] as const,
    ...[...turnaroundByType].sort(([a], [b]) => a.localeCompare(b)),
  ].map(([type, h]) => ({
    type,
    count: sum(h),
    medianHours: round2(histogramPercentile(h, 0.5)),
    p90Hours: round2(histogramPercentile(h, 0.9)),
  }));
  const statusTimes = [...histogram('stay', (row) => row.status)].map(([status, h]) => {
    const target = targets[status];
    return {
      status,
      stays: sum(h),
      medianHours: round2(histogramPercentile(h, 0.5)),
      p90Hours: round2(histogramPercentile(h, 0.9)),
      targetHours: target ?? null,
      // hours > target, hours in (b - 1, b]: every b above the target (exact for whole hours).
      overTarget:
        target === undefined ? 0 : [...h].filter(([b]) => b > target).reduce((total, [, n]) => total + n, 0),
    };
  });
  return { turnaround, statusTimes };
}

/**
 * The backlog at the end of each bucket: the rollup's backlog deltas summed up to that day (every request
 * created by then at its status then; figures.ts backlogSeries' rule), the days before the period in one
 * sum (read as months, weeks and days).
 */
export async function rollupBacklog(db: Queryable, scope: InsightScope): Promise<InsightBacklogRow[]> {
  const params = new SqlParameters();
  const { where, bucket } = bucketRows(scope, params);
  const before = piecesSql(totalPieces(null, dayNumber(scope.from) - 1), params);
  const rows = (await db.query(
    `SELECT CASE WHEN ${where} THEN ${bucket} END AS bucket, status, sum(n)::int AS n
       FROM requests.insight_rollup
      WHERE kind = 'backlog' ${typeFilters(scope, params)} AND (${before} OR ${where})
      GROUP BY 1, 2`,
    params.values,
  )) as { bucket: string | null; status: string; n: number }[];
  const index = new Map(scope.buckets.map((b, i) => [b, i]));
  const steps = scope.buckets.map(() => new Map<string, number>());
  const prior = new Map<string, number>();
  for (const row of rows) {
    const i = row.bucket === null ? undefined : index.get(row.bucket);
    const into = i === undefined ? prior : steps[i];
    into.set(row.status, (into.get(row.status) ?? 0) + row.n);
  }
  const running = new Map(prior);
  const series = steps.map((step) => {
    for (const [status, n] of step) running.set(status, (running.get(status) ?? 0) + n);
    return new Map(running);
  });
  const seen = new Set<string>();
  for (const at of series) for (const [status, n] of at) if (n !== 0) seen.add(status);
  const order = (REQUEST_STATUSES as readonly string[]).filter((status) => seen.has(status));
  return scope.buckets.flatMap((b, i) =>
    order.map((status) => ({ bucket: b, status, count: series[i].get(status) ?? 0 })),
  );
}
