import {
  INSIGHT_MAX_PEOPLE,
  REQUEST_STATUSES,
  type InsightBacklogRow,
  type InsightOperatorRow,
} from '@portal/contracts';
import { SqlParameters } from '@portal/db';
import type { InsightScope } from './scope';
import {
  num,
  periodInstants,
  requestFilters,
  type CreatedCounts,
  type HistoryFigures,
  type Queryable,
} from './store';

/**
 * The operations dashboard's figures read exactly from the requests and their status lines
 * (requests.request_history, field 'status'): the definition of each figure (docs/insight.md "What each
 * figure is"), with percentile_cont over real hours. The dashboard answers from the rollup (rollup.ts);
 * Jest checks the rollup against these reads (insightRollup.test.ts, insight.test.ts), which a short period
 * at 1 000 000 requests takes seconds to run.
 */

/** The SQL of the bucket (its first day, 'YYYY-MM-DD' SAST, as text) of a timestamptz expression. */
const bucketSql = (scope: InsightScope, at: string) =>
  scope.bucket === 'day'
    ? `(${at} AT TIME ZONE 'Africa/Johannesburg')::date::text`
    : `date_trunc('week', ${at} AT TIME ZONE 'Africa/Johannesburg')::date::text`;

/** Requests created in the period: per bucket, type and sub-type, and per group (one pass: grouping sets). */
export async function createdCounts(ds: Queryable, scope: InsightScope): Promise<CreatedCounts> {
  const { start, end } = periodInstants(scope);
  const params = new SqlParameters([start, end]);
  const filters = requestFilters(scope, params);
  const bucket = bucketSql(scope, 'r.created_at');
  // Index-only over requests_created_insight_idx: the group's name is read from its row afterwards.
  const rows = (await ds.query(
    `SELECT grouping(r.group_id) = 0 AS by_group, ${bucket} AS bucket, r.request_type AS type,
            coalesce(r.request_sub_type, '') AS subtype, r.group_id, count(*)::int AS n
       FROM requests.requests r
      WHERE r.created_at >= $1 AND r.created_at < $2 ${filters}
      GROUP BY GROUPING SETS ((${bucket}, r.request_type, coalesce(r.request_sub_type, '')), (r.group_id))`,
    params.values,
  )) as CreatedCountRow[];
  return createdCountsOf(ds, rows);
}

/** A row of the created counts' grouping sets: a bucket × type × sub-type, or (by_group) a group. */
export interface CreatedCountRow {
  by_group: boolean;
  bucket: string;
  type: string;
  subtype: string;
  group_id: string | null;
  n: number;
}

/** The created counts' rows (from the requests or the rollup) as the answer's flow and named groups. */
export async function createdCountsOf(ds: Queryable, rows: CreatedCountRow[]): Promise<CreatedCounts> {
  const groupIds = rows.filter((row) => row.by_group && row.group_id).map((row) => row.group_id);
  const names = new Map(
    (
      (await ds.query('SELECT id, name FROM identity.groups WHERE id = ANY($1::uuid[])', [groupIds])) as {
        id: string;
        name: string;
      }[]
    ).map((group) => [group.id, group.name]),
  );
  return {
    flow: rows
      .filter((row) => !row.by_group)
      .map((row) => ({ bucket: row.bucket, type: row.type, subtype: row.subtype, created: row.n })),
    groups: rows
      .filter((row) => row.by_group)
      .map((row) => ({
        groupId: row.group_id,
        groupName: (row.group_id && names.get(row.group_id)) || '',
        created: row.n,
      })),
  };
}

/**
 * How far before the period the status lines are read as well, so that each line's predecessor (when the
 * request entered the line's `from` status, and who moved it there) and an earlier Dispatch are found by a
 * window over the lines instead of a look-up per line. A request with no line in that stretch but created
 * before it has its first line's predecessor, and whether it reached Dispatch before, looked up once (rare:
 * a status unchanged for this long).
 */
export const INSIGHT_LOOKBACK_DAYS = 14;

/**
 * Everything read from the status lines of the period, in one statement over one read of them (a
 * materialized CTE the figures share):
 * - finished: a request's first move into Dispatch (an earlier one, before the period too, makes a later one
 *   not count); its turnaround is the hours from its creation (New) to that move;
 * - a stay: the time between a status line and the one before it for the same request (or the request's
 *   creation, for the first), spent in the line's `from` status; the stays that ended in the period;
 * - work per operator: the user of each line into 'In progress' (started), 'QC check' (submitted), and of each
 *   line from 'QC check' to 'Dispatch' (approved);
 * - QC send-backs: each QC decision (a line from 'QC check' to 'Dispatch' or 'Query') is counted against the
 *   operator who submitted the report: the user of the line before it, the one into 'QC check'.
 */
export async function historyFigures(
  ds: Queryable,
  scope: InsightScope,
  targets: Record<string, number>,
): Promise<HistoryFigures> {
  const { start, end } = periodInstants(scope);
  const lookback = new Date(start.getTime() - INSIGHT_LOOKBACK_DAYS * 86_400_000);
  const params = new SqlParameters([start, end, JSON.stringify(targets), INSIGHT_MAX_PEOPLE, lookback]);
  const filters = requestFilters(scope, params);
  const bucket = bucketSql(scope, 'f.at');
  const [row] = (await ds.query(
    `WITH lines AS MATERIALIZED (
       SELECT h.id, h.request_id, h.at, h.user_id, h.user_name, h.from_value, h.to_value,
              r.request_type, coalesce(r.request_sub_type, '') AS subtype, r.group_id, r.group_name, r.created_at,
              lag(h.at) OVER w AS prev_at, lag(h.user_id) OVER w AS prev_user_id,
              lag(h.user_name) OVER w AS prev_user_name, lag(h.to_value) OVER w AS prev_to,
              count(*) FILTER (WHERE h.to_value = 'Dispatch') OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                AS dispatches_before
         FROM requests.request_history h JOIN requests.requests r ON r.id = h.request_id
        WHERE h.field = 'status' AND h.at >= $5 AND h.at < $2 ${filters}
       WINDOW w AS (PARTITION BY h.request_id ORDER BY h.at, h.id)
     ),
     probe AS (
       SELECT l.request_id, p.at, p.user_id, p.user_name, p.to_value,
              EXISTS (SELECT 1 FROM requests.request_history d
                       WHERE d.request_id = l.request_id AND d.field = 'status' AND d.to_value = 'Dispatch'
                         AND d.at < $5) AS dispatched_earlier
         FROM lines l
         LEFT JOIN LATERAL (SELECT p.at, p.user_id, p.user_name, p.to_value FROM requests.request_history p
                             WHERE p.request_id = l.request_id AND p.field = 'status' AND (p.at, p.id) < (l.at, l.id)
                             ORDER BY p.at DESC, p.id DESC LIMIT 1) p ON true
        WHERE l.prev_at IS NULL AND l.created_at < $5
     ),
     ev AS MATERIALIZED (
       SELECT l.id, l.request_id, l.at, l.user_id, l.user_name, l.from_value, l.to_value, l.request_type,
              l.subtype, l.group_id, l.group_name, l.created_at,
              CASE WHEN l.prev_at IS NULL THEN coalesce(pr.at, l.created_at) ELSE l.prev_at END AS entered_at,
              CASE WHEN l.prev_at IS NULL THEN pr.to_value ELSE l.prev_to END AS prev_to,
              CASE WHEN l.prev_at IS NULL THEN pr.user_id ELSE l.prev_user_id END AS prev_user_id,
              CASE WHEN l.prev_at IS NULL THEN pr.user_name ELSE l.prev_user_name END AS prev_user_name,
              l.dispatches_before > 0 OR coalesce(pr.dispatched_earlier, false) AS dispatched_before
         FROM lines l LEFT JOIN probe pr ON pr.request_id = l.request_id
        WHERE l.at >= $1
     ),
     fin AS (
       SELECT f.*, extract(epoch FROM f.at - f.created_at) / 3600 AS hours FROM ev f
        WHERE f.to_value = 'Dispatch' AND NOT f.dispatched_before
     ),
     stay AS (
       SELECT e.from_value AS status, extract(epoch FROM e.at - e.entered_at) / 3600 AS hours
         FROM ev e WHERE e.from_value IS NOT NULL
     ),
     decision AS (
       SELECT CASE WHEN e.prev_to = 'QC check' THEN e.prev_user_id END AS user_id,
              CASE WHEN e.prev_to = 'QC check' THEN e.prev_user_name END AS user_name, e.to_value
         FROM ev e WHERE e.from_value = 'QC check' AND e.to_value IN ('Dispatch', 'Query')
     )
     SELECT
       (SELECT coalesce(jsonb_agg(x), '[]') FROM (
          SELECT ${bucket} AS bucket, f.request_type AS type, f.subtype, count(*)::int AS finished
            FROM fin f GROUP BY 1, 2, 3) x) AS finished_flow,
       (SELECT coalesce(jsonb_agg(x), '[]') FROM (
          SELECT f.group_id AS "groupId", coalesce(max(f.group_name), '') AS "groupName", count(*)::int AS finished
            FROM fin f GROUP BY f.group_id) x) AS finished_groups,
       (SELECT coalesce(jsonb_agg(x ORDER BY x.type = 'All' DESC, x.type), '[]') FROM (
          SELECT coalesce(f.request_type, 'All') AS type, count(*)::int AS count,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY f.hours) AS median,
                 percentile_cont(0.9) WITHIN GROUP (ORDER BY f.hours) AS p90
            FROM fin f GROUP BY GROUPING SETS ((), (f.request_type))) x) AS turnaround,
       (SELECT coalesce(jsonb_agg(x), '[]') FROM (
          SELECT s.status, count(*)::int AS stays,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY s.hours) AS median,
                 percentile_cont(0.9) WITHIN GROUP (ORDER BY s.hours) AS p90,
                 count(*) FILTER (WHERE s.hours > ($3::jsonb ->> s.status)::float8)::int AS over
            FROM stay s GROUP BY s.status) x) AS status_times,
       (SELECT coalesce(jsonb_agg(x), '[]') FROM (
          SELECT e.user_id AS "userId", coalesce(max(e.user_name), '') AS name,
                 count(*) FILTER (WHERE e.to_value = 'In progress')::int AS started,
                 count(*) FILTER (WHERE e.to_value = 'QC check')::int AS submitted,
                 count(*) FILTER (WHERE e.from_value = 'QC check' AND e.to_value = 'Dispatch')::int AS approved
            FROM ev e
           WHERE e.to_value IN ('In progress', 'QC check')
              OR (e.from_value = 'QC check' AND e.to_value = 'Dispatch')
           GROUP BY e.user_id ORDER BY count(*) DESC, 2 LIMIT $4) x) AS operators,
       (SELECT coalesce(jsonb_agg(x ORDER BY x.total DESC, x.decisions DESC, x.name), '[]') FROM (
          SELECT grouping(d.user_id) = 1 AS total, d.user_id AS "userId", coalesce(max(d.user_name), '') AS name,
                 count(*)::int AS decisions, count(*) FILTER (WHERE d.to_value = 'Query')::int AS "sentBack"
            FROM decision d GROUP BY GROUPING SETS ((), (d.user_id))) x) AS send_backs`,
    params.values,
  )) as {
    finished_flow: HistoryFigures['finishedFlow'];
    finished_groups: HistoryFigures['finishedGroups'];
    turnaround: { type: string; count: number; median: number | null; p90: number | null }[];
    status_times: { status: string; stays: number; median: number; p90: number; over: number }[];
    operators: InsightOperatorRow[];
    send_backs: {
      total: boolean;
      userId: string | null;
      name: string;
      decisions: number;
      sentBack: number;
    }[];
  }[];
  const turnaround = row.turnaround.map((t) => ({
    type: t.type,
    count: t.count,
    medianHours: num(t.median),
    p90Hours: num(t.p90),
  }));
  if (!turnaround.some((t) => t.type === 'All'))
    turnaround.unshift({ type: 'All', count: 0, medianHours: null, p90Hours: null });
  const sendBacks = row.send_backs
    .slice(0, INSIGHT_MAX_PEOPLE + 1)
    .map(({ total, userId, name, decisions, sentBack }) => ({
      userId: total ? null : userId,
      name: total ? 'Everyone' : name,
      decisions,
      sentBack,
      rate: decisions ? Math.round((sentBack / decisions) * 10000) / 10000 : null,
    }));
  if (!sendBacks.some((s) => s.userId === null && s.name === 'Everyone'))
    sendBacks.unshift({ userId: null, name: 'Everyone', decisions: 0, sentBack: 0, rate: null });
  return {
    finishedFlow: row.finished_flow,
    finishedGroups: row.finished_groups,
    turnaround,
    statusTimes: row.status_times.map((s) => ({
      status: s.status,
      stays: s.stays,
      medianHours: num(s.median),
      p90Hours: num(s.p90),
      targetHours: targets[s.status] ?? null,
      overTarget: s.over,
    })),
    operators: row.operators,
    sendBacks,
  };
}

/** The backlog's raw counts: requests by current status and creation bucket, and the status moves after the period began. */
export interface BacklogCounts {
  /** Requests created before the period's end by their status now; `bucket` null: created before the period. */
  current: { bucket: string | null; status: string; n: number }[];
  /** Status lines since the period began, of requests created before its end; `bucket` null: after the period. */
  moves: {
    bucket: string | null;
    createdBucket: string | null;
    from: string | null;
    to: string | null;
    n: number;
  }[];
}

/**
 * The backlog's current statuses without reading every request: the kept totals per status
 * (requests.request_totals, exact in the writers' transactions; by type, no group or sub-type) less the
 * requests created since the period began, which are read by their creation (an index range) and put back
 * per bucket when created within it. heavyRead's REPEATABLE READ makes the two reads one snapshot.
 */
async function currentFromTotals(ds: Queryable, scope: InsightScope): Promise<BacklogCounts['current']> {
  const { start, end } = periodInstants(scope);
  const totals = (await ds.query(
    `SELECT status, sum(requests)::int AS n FROM requests.request_totals
      WHERE ($1::text IS NULL OR request_type = $1) GROUP BY status`,
    [scope.type],
  )) as { status: string; n: number }[];
  const recent = (await ds.query(
    `SELECT r.created_at >= $2 AS after, ${bucketSql(scope, 'r.created_at')} AS bucket, r.status, count(*)::int AS n
       FROM requests.requests r WHERE r.created_at >= $1 AND ($3::text IS NULL OR r.request_type = $3)
      GROUP BY 1, 2, 3`,
    [start, end, scope.type],
  )) as { after: boolean; bucket: string; status: string; n: number }[];
  const before = new Map(totals.map((row) => [row.status, row.n]));
  for (const row of recent) before.set(row.status, (before.get(row.status) ?? 0) - row.n);
  return [
    ...[...before].map(([status, n]) => ({ bucket: null, status, n })),
    ...recent.filter((row) => !row.after).map(({ bucket, status, n }) => ({ bucket, status, n })),
  ];
}

/**
 * What the backlog over time is computed from (figures.ts backlogSeries): a request's status at an instant
 * is its status now with every later move undone. Two grouped reads, never one per bucket.
 */
export async function backlogCounts(ds: Queryable, scope: InsightScope): Promise<BacklogCounts> {
  const { start, end } = periodInstants(scope);
  const currentParams = new SqlParameters([start, end]);
  const currentFilters = requestFilters(scope, currentParams);
  const created = `CASE WHEN r.created_at < $1 THEN NULL ELSE ${bucketSql(scope, 'r.created_at')} END`;
  const movesParams = new SqlParameters([start, end]);
  const movesFilters = requestFilters(scope, movesParams);
  const [current, moves] = await Promise.all([
    scope.group || scope.subtype
      ? ds.query(
          `SELECT ${created} AS bucket, r.status, count(*)::int AS n FROM requests.requests r
            WHERE r.created_at < $2 ${currentFilters} GROUP BY 1, 2`,
          currentParams.values,
        )
      : currentFromTotals(ds, scope),
    ds.query(
      `SELECT CASE WHEN h.at >= $2 THEN NULL ELSE ${bucketSql(scope, 'h.at')} END AS bucket,
              ${created} AS "createdBucket", h.from_value AS "from", h.to_value AS "to", count(*)::int AS n
         FROM requests.request_history h JOIN requests.requests r ON r.id = h.request_id
        WHERE h.field = 'status' AND h.at >= $1 AND r.created_at < $2 ${movesFilters}
        GROUP BY 1, 2, 3, 4`,
      movesParams.values,
    ),
  ]);
  return { current, moves } as BacklogCounts;
}

/**
 * The backlog at the end of each bucket (or now, for the current one), per status: the requests created by
 * then at their status now, with every status move after that instant undone (a move from A to B, undone,
 * puts the request back in A). Statuses never seen are left out; a seen one is listed in every bucket.
 */
export function backlogSeries(buckets: readonly string[], counts: BacklogCounts): InsightBacklogRow[] {
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  // A bucket before the first (created before the period) is -1; after the last (moved after it) is n.
  const at = (bucket: string | null, missing: number) =>
    bucket === null ? missing : (index.get(bucket) ?? missing);
  const series = buckets.map(() => new Map<string, number>());
  const add = (i: number, status: string | null, n: number) => {
    if (status === null) return;
    series[i].set(status, (series[i].get(status) ?? 0) + n);
  };
  for (const row of counts.current) {
    const created = at(row.bucket, -1);
    for (let i = Math.max(0, created); i < buckets.length; i++) add(i, row.status, row.n);
  }
  for (const move of counts.moves) {
    const created = at(move.createdBucket, -1);
    const moved = at(move.bucket, buckets.length);
    // Undone for every bucket that ended before the move and after the request existed.
    for (let i = Math.max(0, created); i < moved; i++) {
      add(i, move.from, move.n);
      add(i, move.to, -move.n);
    }
  }
  const seen = new Set<string>();
  for (const bucket of series) for (const [status, n] of bucket) if (n !== 0) seen.add(status);
  const order = (REQUEST_STATUSES as readonly string[]).filter((status) => seen.has(status));
  return buckets.flatMap((bucket, i) =>
    order.map((status) => ({ bucket, status, count: series[i].get(status) ?? 0 })),
  );
}
