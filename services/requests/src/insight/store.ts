import type { DataSource } from 'typeorm';

/** Where the SQL runs: the pool, or one transaction's connection (heavyRead). */
export type Queryable = Pick<DataSource, 'query'>;
import {
  INSIGHT_LATE_PAGE_SIZE,
  type InsightGroupRow,
  type InsightLateRow,
  type InsightOperatorRow,
  type InsightSendBackRow,
  type InsightStatusTimeRow,
  type InsightTurnaroundRow,
} from '@portal/contracts';
import { SAVI_PDF_KIND } from '@portal/pdf-jobs';
import { SqlParameters } from '@portal/db';
import type { InsightScope } from './scope';

/**
 * The operations dashboard's SQL (issue 24) that the rollup (rollup.ts) and the exact read (exact.ts) share,
 * and the "now" figures both paths read as they are: the late requests and the PDF and export jobs. Times
 * are SAST days.
 */

/**
 * Runs `read` on one connection with more room than the service's other calls: a 30 s statement timeout
 * instead of the pool's 10 s, and 32 MB to sort in memory instead of 4 MB on disk. The rollup's reads take
 * tens of milliseconds at 1 000 000 requests (docs/insight.md "At 1 000 000 requests"), but the exact read
 * (exact.ts) sorts the status lines of a period and the late page may walk far: a slow machine must not turn
 * a dashboard call into a 500. Only this screen's calls get it, set LOCAL to their transaction.
 */
export function heavyRead<T>(ds: DataSource, read: (db: Queryable) => Promise<T>): Promise<T> {
  return ds.transaction('REPEATABLE READ', async (em) => {
    // One round trip for both (a call sends several reads side by side, each with its own transaction).
    await em.query(`SET LOCAL statement_timeout = '30s'; SET LOCAL work_mem = '32MB'`);
    return read(em);
  });
}

/** The period as instants: its first day's midnight SAST, and the midnight after its last day. */
export function periodInstants(scope: Pick<InsightScope, 'from' | 'to'>): { start: Date; end: Date } {
  const start = new Date(`${scope.from}T00:00:00+02:00`);
  const end = new Date(new Date(`${scope.to}T00:00:00+02:00`).getTime() + 86_400_000);
  return { start, end };
}

/** The request filters (group, type, sub-type) on `requests.requests r`. */
export function requestFilters(scope: InsightScope, params: SqlParameters): string {
  const where: string[] = [];
  if (scope.group) where.push(`r.group_id = ${params.bind(scope.group)}::uuid`);
  if (scope.type) where.push(`r.request_type = ${params.bind(scope.type)}`);
  if (scope.subtype) where.push(`r.request_sub_type = ${params.bind(scope.subtype)}`);
  return where.length ? `AND ${where.join(' AND ')}` : '';
}

export const num = (value: unknown): number | null =>
  value === null || value === undefined ? null : Math.round(Number(value) * 100) / 100;

export interface CreatedCounts {
  flow: { bucket: string; type: string; subtype: string; created: number }[];
  groups: { groupId: string | null; groupName: string; created: number }[];
}

export interface HistoryFigures {
  finishedFlow: { bucket: string; type: string; subtype: string; finished: number }[];
  finishedGroups: Omit<InsightGroupRow, 'created'>[];
  turnaround: InsightTurnaroundRow[];
  statusTimes: InsightStatusTimeRow[];
  operators: InsightOperatorRow[];
  sendBacks: InsightSendBackRow[];
}

/**
 * Requests late now: an open request whose whole hours in its current status (since status_changed_at)
 * exceed that status's ageing target (REQUEST_AGEING_TARGETS: "the hours a request may wait in each open
 * status"). Most overdue first, paged by the server; the status and status_changed_at index serves each
 * status's range.
 */
export async function lateRequests(
  ds: Queryable,
  scope: InsightScope,
  targets: Record<string, number>,
): Promise<{ total: number; rows: InsightLateRow[] }> {
  // Late: whole hours over the target, at least target + 1 hours in the status (the console's whole hours).
  // The page: each status's most overdue first from the (status, status_changed_at) index — within a status
  // the order of entry is the order of lateness — at most offset + page rows each, merged by their deadline.
  const pageParams = new SqlParameters();
  const pageFilters = requestFilters(scope, pageParams);
  const take = pageParams.bind(scope.latePage * INSIGHT_LATE_PAGE_SIZE);
  const perStatus = Object.entries(targets).map(([status, hours]) => {
    const statusParam = pageParams.bind(status);
    const hoursParam = pageParams.bind(hours);
    return `(SELECT r.id, r.grip_reference, r.request_type, coalesce(r.request_sub_type, '') AS subtype, r.status,
                    coalesce(r.group_name, '') AS group_name, r.created_at, r.status_changed_at,
                    ${hoursParam}::float8 AS target
               FROM requests.requests r
              WHERE r.status = ${statusParam}
                AND r.status_changed_at <= now() - (floor(${hoursParam}::float8) + 1) * interval '1 hour'
                ${pageFilters}
              ORDER BY r.status_changed_at, r.id LIMIT ${take})`;
  });
  const limit = pageParams.bind(INSIGHT_LATE_PAGE_SIZE);
  const offset = pageParams.bind((scope.latePage - 1) * INSIGHT_LATE_PAGE_SIZE);
  // The count: each status's requests now (the rollup's backlog deltas summed over all its months: exact, kept
  // in the writers' transactions) less those that entered it within its target (a short index range), not a
  // count of every late request (700 000 at 1 000 000 requests).
  const countParams = new SqlParameters();
  const countFilters = requestFilters(scope, countParams);
  const recent = Object.entries(targets).map(([status, hours]) => {
    const statusParam = countParams.bind(status);
    return `(SELECT ${statusParam}::text AS status, count(*) AS n FROM requests.requests r
              WHERE r.status = ${statusParam}
                AND (r.status_changed_at > now() - (floor(${countParams.bind(hours)}::float8) + 1) * interval '1 hour'
                     OR r.status_changed_at IS NULL) ${countFilters})`;
  });
  const rollupFilters = [
    scope.group ? `scope_group = ${countParams.bind(scope.group)}::uuid` : 'scope_group IS NULL',
    ...(scope.type ? [`request_type = ${countParams.bind(scope.type)}`] : []),
    ...(scope.subtype ? [`subtype = ${countParams.bind(scope.subtype)}`] : []),
  ].join(' AND ');
  const statuses = countParams.bind(Object.keys(targets));
  const [[{ total }], rows] = await Promise.all([
    (recent.length === 0
      ? Promise.resolve([{ total: 0 }])
      : ds.query(
          `WITH now_in AS (
             SELECT status, sum(n) AS n FROM requests.insight_rollup
              WHERE kind = 'backlog' AND grain = 'm' AND ${rollupFilters} AND status = ANY(${statuses}::text[])
              GROUP BY status)
           SELECT coalesce(sum(now_in.n - coalesce(recent.n, 0)), 0)::int AS total
             FROM now_in LEFT JOIN (${recent.join(' UNION ALL ')}) recent ON recent.status = now_in.status`,
          countParams.values,
        )) as Promise<{ total: number }[]>,
    (perStatus.length === 0
      ? Promise.resolve([])
      : ds.query(
          `SELECT l.*, floor(extract(epoch FROM now() - l.status_changed_at) / 3600)::int AS in_status
             FROM (${perStatus.join(' UNION ALL ')}) l
            ORDER BY l.status_changed_at + l.target * interval '1 hour', l.id
            LIMIT ${limit} OFFSET ${offset}`,
          pageParams.values,
        )) as Promise<
      {
        id: string;
        grip_reference: string | null;
        request_type: string;
        subtype: string;
        status: string;
        group_name: string;
        created_at: Date;
        target: number;
        in_status: number;
      }[]
    >,
  ]);
  return {
    total,
    rows: rows.map((row) => ({
      requestID: row.id,
      gripReference: row.grip_reference,
      type: row.request_type,
      subtype: row.subtype,
      status: row.status,
      groupName: row.group_name,
      created: new Date(row.created_at).toISOString(),
      hoursInStatus: row.in_status,
      targetHours: row.target,
      hoursOver: row.in_status - row.target,
    })),
  };
}

export interface JobOutcomes {
  kind: 'pdf' | 'export';
  done: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

/**
 * The PDF and export jobs that ended in the period, from their rows (pdf.jobs for the SAVi report PDFs the
 * report builder's worker renders, requests.console_jobs for the console's xlsx exports and zips): how many
 * were done or failed, and the done ones' duration (started to finished) p50/p95 in seconds.
 */
export async function jobOutcomes(ds: Queryable, scope: InsightScope): Promise<JobOutcomes[]> {
  const { start, end } = periodInstants(scope);
  const figures = (table: string, kind: string, where: string) =>
    `SELECT '${kind}' AS kind, count(*) FILTER (WHERE state = 'done')::int AS done,
            count(*) FILTER (WHERE state = 'failed')::int AS failed,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at))
              FILTER (WHERE state = 'done' AND started_at IS NOT NULL) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at))
              FILTER (WHERE state = 'done' AND started_at IS NOT NULL) AS p95
       FROM ${table} WHERE finished_at >= $1 AND finished_at < $2 ${where}`;
  const rows = (await ds.query(
    `${figures('pdf.jobs', 'pdf', 'AND kind = $3')} UNION ALL ${figures('requests.console_jobs', 'export', '')}`,
    [start, end, SAVI_PDF_KIND],
  )) as JobOutcomes[];
  return rows.map((row) => ({ ...row, p50: num(row.p50), p95: num(row.p95) }));
}
