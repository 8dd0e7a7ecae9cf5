import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import {
  INSIGHT_LATE_PAGE_SIZE,
  INSIGHT_MAX_PEOPLE,
  PORTAL_QUEUES,
  REQUEST_STATUSES,
  ROLE,
  type InsightAnswer,
  type InsightFlowRow,
  type InsightGroupRow,
  type InsightQueueRow,
} from '@portal/contracts';
import type { Caller } from '@portal/server-kit';
import type { InsightScope } from './scope';
import { heavyRead, jobOutcomes, lateRequests, type Queryable } from './store';
import { rollupFigures } from './rollup';

/** The queues the dashboard watches: the SAVi report PDFs and the console's exports. */
export interface InsightQueues {
  pdf: Pick<Queue, 'getJobCounts'>;
  export: Pick<Queue, 'getJobCounts'>;
}

const QUEUE_LABELS = {
  pdf: { queue: PORTAL_QUEUES.reportbuilderPdf, label: 'Report PDFs' },
  export: { queue: PORTAL_QUEUES.requestConsole, label: 'Console exports and zips' },
} as const;

/** BullMQ's counts now; null when Redis does not answer in time (the period's figures still stand). */
async function queueCounts(queue: Pick<Queue, 'getJobCounts'>) {
  try {
    const counts = await Promise.race([
      queue.getJobCounts('waiting', 'active', 'failed', 'delayed', 'prioritized'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
    ]);
    return {
      waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      failed: counts.failed ?? 0,
    };
  } catch {
    return { waiting: null, active: null, failed: null };
  }
}

/** Created and finished side by side per bucket, type and sub-type (the period's buckets only). */
function flowRows(
  created: { bucket: string; type: string; subtype: string; created: number }[],
  finished: { bucket: string; type: string; subtype: string; finished: number }[],
): InsightFlowRow[] {
  const rows = new Map<string, InsightFlowRow>();
  const row = (bucket: string, type: string, subtype: string) => {
    const key = JSON.stringify([bucket, type, subtype]);
    let found = rows.get(key);
    if (!found) rows.set(key, (found = { bucket, type, subtype, created: 0, finished: 0 }));
    return found;
  };
  for (const c of created) row(c.bucket, c.type, c.subtype).created += c.created;
  for (const f of finished) row(f.bucket, f.type, f.subtype).finished += f.finished;
  return [...rows.values()].sort(
    (a, b) =>
      a.bucket.localeCompare(b.bucket) || a.type.localeCompare(b.type) || a.subtype.localeCompare(b.subtype),
  );
}

function groupRows(
  created: { groupId: string | null; groupName: string; created: number }[],
  finished: { groupId: string | null; groupName: string; finished: number }[],
  limit: number,
): InsightGroupRow[] {
  const rows = new Map<string | null, InsightGroupRow>();
  const row = (groupId: string | null, groupName: string) => {
    let found = rows.get(groupId);
    if (!found)
      rows.set(groupId, (found = { groupId, groupName: groupName || 'No group', created: 0, finished: 0 }));
    return found;
  };
  for (const c of created) row(c.groupId, c.groupName).created += c.created;
  for (const f of finished) row(f.groupId, f.groupName).finished += f.finished;
  return [...rows.values()]
    .sort(
      (a, b) => b.created + b.finished - (a.created + a.finished) || a.groupName.localeCompare(b.groupName),
    )
    .slice(0, limit);
}

/**
 * The whole answer of GET /api/v1.0/requests/insight: the reads run side by side on the pool. The queues
 * are the portal's own (not a group's), so a group's admin gets none.
 */
export async function insightFigures(
  deps: { ds: DataSource; queues: InsightQueues; targets: Record<string, number> },
  scope: InsightScope,
  caller: Caller,
): Promise<InsightAnswer> {
  const { ds, targets } = deps;
  const seesQueues = caller.roles.includes(ROLE.admin) || caller.roles.includes(ROLE.saviOperator);
  // Every period reads the rollup (rollup.ts); each statement on its own connection (the pool's), side by
  // side: a call is as long as its slowest statement, not their sum.
  const pooled: Queryable = { query: (sql, values) => heavyRead(ds, (db) => db.query(sql, values)) };
  const [{ created, history, backlog }, late, jobs] = await Promise.all([
    rollupFigures(pooled, scope, targets),
    lateRequests(pooled, scope, targets),
    seesQueues ? jobOutcomes(ds, scope) : Promise.resolve([]),
  ]);
  const queues: InsightQueueRow[] = await Promise.all(
    jobs.map(async (job) => ({
      ...QUEUE_LABELS[job.kind],
      ...(await queueCounts(deps.queues[job.kind])),
      done: job.done,
      failedInPeriod: job.failed,
      durationP50Seconds: job.p50,
      durationP95Seconds: job.p95,
    })),
  );
  return {
    period: { from: scope.from, to: scope.to, bucket: scope.bucket, buckets: scope.buckets },
    filters: { group: scope.group, type: scope.type, subtype: scope.subtype },
    targets,
    flow: flowRows(created.flow, history.finishedFlow),
    groups: groupRows(created.groups, history.finishedGroups, INSIGHT_MAX_PEOPLE),
    turnaround: history.turnaround,
    statusTimes: history.statusTimes.sort(
      (a, b) =>
        (REQUEST_STATUSES as readonly string[]).indexOf(a.status) -
        (REQUEST_STATUSES as readonly string[]).indexOf(b.status),
    ),
    backlog,
    sendBacks: history.sendBacks,
    operators: history.operators,
    queues,
    late: { total: late.total, page: scope.latePage, pageSize: INSIGHT_LATE_PAGE_SIZE, rows: late.rows },
  };
}
