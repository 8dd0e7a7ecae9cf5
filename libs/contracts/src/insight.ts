import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './common';

/**
 * The operations dashboard (issue 24, "Operations dashboard"): how the request work is going over a period,
 * computed by services/requests from the request history (requests.request_history's status lines) and the
 * jobs' recorded outcomes (pdf.jobs, requests.console_jobs), shown by mf-requests-admin at /requests/insight.
 * For administrators and SAVi operators (any group) and a group's admin (their own group only).
 */
export const INSIGHT_API = {
  insight: '/api/v1.0/requests/insight',
  /** One chart's data as a file: `chart` (INSIGHT_CHARTS) and the same filters as the figures. */
  exportXlsx: '/api/v1.0/requests/insight/export.xlsx',
  exportCsv: '/api/v1.0/requests/insight/export.csv',
} as const;

/** The routes as services/requests registers them (the keys of libs/domain/src/routeAccess.ts). */
export const INSIGHT_ROUTES = INSIGHT_API;

/** The charts whose data export as a file, each a sheet of its own. */
export const INSIGHT_CHARTS = [
  'flow',
  'groups',
  'turnaround',
  'statusTimes',
  'backlog',
  'sendBacks',
  'operators',
  'queues',
  'late',
] as const;
export type InsightChart = (typeof INSIGHT_CHARTS)[number];

/** The chart's title (the screen's heading, the sheet's name, the file's name). */
export const INSIGHT_CHART_TITLES: Record<InsightChart, string> = {
  flow: 'Requests created and finished',
  groups: 'Requests by group',
  turnaround: 'Turnaround New to Dispatch',
  statusTimes: 'Time in each status',
  backlog: 'Backlog by status',
  sendBacks: 'QC send-backs',
  operators: 'Work per operator',
  queues: 'PDF and export queues',
  late: 'Late requests',
};

/** The longest period one answer covers (a year, leap or not, and a day more for a custom range). */
export const INSIGHT_MAX_DAYS = 367;
/** A period longer than this is bucketed by week (Monday to Sunday, SAST), a shorter one by day. */
export const INSIGHT_DAILY_MAX_DAYS = 62;
/** The late list's page size (the server pages it; the console holds the rest). */
export const INSIGHT_LATE_PAGE_SIZE = 25;
/** At most this many operators and groups are listed (the busiest first). */
export const INSIGHT_MAX_PEOPLE = 50;

export const INSIGHT_TEXTS = {
  badRange: 'The period must start on or before the day it ends.',
  tooLong: `The period may be at most ${INSIGHT_MAX_DAYS} days.`,
  badDay: (name: string) => `${name} must be a day written YYYY-MM-DD.`,
  otherGroup: "A group's admin may see only their own group's figures.",
  noGroup: "A group's admin without a group has no figures to see.",
  staffOnly: 'The operations dashboard is for administrators, SAVi operators and group admins.',
  badChart: `chart must be one of ${INSIGHT_CHARTS.join(', ')}.`,
} as const;

const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });

export const InsightQuery = Type.Object(
  {
    /** The first day, 'YYYY-MM-DD' (SAST); with `to` omitted, this week (Monday to today). */
    from: Type.Optional(Day),
    /** The last day, included. */
    to: Type.Optional(Day),
    group: Type.Optional(Type.String({ format: 'uuid' })),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    subtype: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    /** The late list's page, from 1. */
    latePage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  },
  { additionalProperties: false },
);
export type InsightQuery = Static<typeof InsightQuery>;

export const InsightExportQuery = Type.Object(
  {
    ...InsightQuery.properties,
    chart: Type.Union(INSIGHT_CHARTS.map((chart) => Type.Literal(chart))),
  },
  { additionalProperties: false },
);
export type InsightExportQuery = Static<typeof InsightExportQuery>;

const Hours = nullable(Type.Number());

export const InsightFlowRow = Type.Object({
  /** The bucket's first day, 'YYYY-MM-DD'. */
  bucket: Type.String(),
  type: Type.String(),
  subtype: Type.String(),
  created: Type.Integer(),
  /** Requests that reached Dispatch for the first time. */
  finished: Type.Integer(),
});
export type InsightFlowRow = Static<typeof InsightFlowRow>;

export const InsightGroupRow = Type.Object({
  groupId: nullable(Type.String()),
  groupName: Type.String(),
  created: Type.Integer(),
  finished: Type.Integer(),
});
export type InsightGroupRow = Static<typeof InsightGroupRow>;

export const InsightTurnaroundRow = Type.Object({
  /** A request type, or 'All'. */
  type: Type.String(),
  count: Type.Integer(),
  medianHours: Hours,
  p90Hours: Hours,
});
export type InsightTurnaroundRow = Static<typeof InsightTurnaroundRow>;

export const InsightStatusTimeRow = Type.Object({
  status: Type.String(),
  /** Stays in the status that ended in the period. */
  stays: Type.Integer(),
  medianHours: Hours,
  p90Hours: Hours,
  targetHours: Hours,
  /** Stays longer than the target. */
  overTarget: Type.Integer(),
});
export type InsightStatusTimeRow = Static<typeof InsightStatusTimeRow>;

export const InsightBacklogRow = Type.Object({
  /** The bucket's first day; the count is at the end of its last day (or now, for the current one). */
  bucket: Type.String(),
  status: Type.String(),
  count: Type.Integer(),
});
export type InsightBacklogRow = Static<typeof InsightBacklogRow>;

export const InsightSendBackRow = Type.Object({
  /** The operator who submitted the report QC decided on; null for the whole team. */
  userId: nullable(Type.String()),
  name: Type.String(),
  /** QC decisions (approved to Dispatch, or sent back to Query) on this operator's submissions. */
  decisions: Type.Integer(),
  sentBack: Type.Integer(),
  /** sentBack ÷ decisions, 0 to 1; null without decisions. */
  rate: nullable(Type.Number()),
});
export type InsightSendBackRow = Static<typeof InsightSendBackRow>;

export const InsightOperatorRow = Type.Object({
  userId: nullable(Type.String()),
  name: Type.String(),
  /** Moves into 'In progress' (Start report, Revisit report). */
  started: Type.Integer(),
  /** Moves into 'QC check'. */
  submitted: Type.Integer(),
  /** Moves from 'QC check' to 'Dispatch' (QC approvals made). */
  approved: Type.Integer(),
});
export type InsightOperatorRow = Static<typeof InsightOperatorRow>;

export const InsightQueueRow = Type.Object({
  /** The BullMQ queue's name (PORTAL_QUEUES). */
  queue: Type.String(),
  label: Type.String(),
  /** Now, from BullMQ; null when Redis did not answer. */
  waiting: nullable(Type.Integer()),
  active: nullable(Type.Integer()),
  failed: nullable(Type.Integer()),
  /** Over the period, from the jobs' rows in PostgreSQL. */
  done: Type.Integer(),
  failedInPeriod: Type.Integer(),
  durationP50Seconds: Hours,
  durationP95Seconds: Hours,
});
export type InsightQueueRow = Static<typeof InsightQueueRow>;

export const InsightLateRow = Type.Object({
  requestID: Type.String(),
  gripReference: nullable(Type.String()),
  type: Type.String(),
  subtype: Type.String(),
  status: Type.String(),
  groupName: Type.String(),
  created: Type.String(),
  /** Whole hours in the current status (since its last status change). */
  hoursInStatus: Type.Integer(),
  targetHours: Type.Number(),
  hoursOver: Type.Number(),
});
export type InsightLateRow = Static<typeof InsightLateRow>;

export const InsightAnswer = Type.Object({
  period: Type.Object({
    from: Type.String(),
    to: Type.String(),
    bucket: Type.Union([Type.Literal('day'), Type.Literal('week')]),
    /** Every bucket's first day, in order (a chart's x axis has no holes). */
    buckets: Type.Array(Type.String()),
  }),
  filters: Type.Object({
    group: nullable(Type.String()),
    type: nullable(Type.String()),
    subtype: nullable(Type.String()),
  }),
  targets: Type.Record(Type.String(), Type.Number()),
  flow: Type.Array(InsightFlowRow),
  groups: Type.Array(InsightGroupRow),
  turnaround: Type.Array(InsightTurnaroundRow),
  statusTimes: Type.Array(InsightStatusTimeRow),
  backlog: Type.Array(InsightBacklogRow),
  sendBacks: Type.Array(InsightSendBackRow),
  operators: Type.Array(InsightOperatorRow),
  queues: Type.Array(InsightQueueRow),
  late: Type.Object({
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
    rows: Type.Array(InsightLateRow),
  }),
});
export type InsightAnswer = Static<typeof InsightAnswer>;

/** The period presets of the screen's filter. */
export const INSIGHT_PRESETS = [
  'thisWeek',
  'lastWeek',
  'thisMonth',
  'last30Days',
  'thisQuarter',
  'thisYear',
  'custom',
] as const;
export type InsightPreset = (typeof INSIGHT_PRESETS)[number];
export const INSIGHT_PRESET_LABELS: Record<InsightPreset, string> = {
  thisWeek: 'This week',
  lastWeek: 'Last week',
  thisMonth: 'This month',
  last30Days: 'Last 30 days',
  thisQuarter: 'This quarter',
  thisYear: 'This year',
  custom: 'Custom',
};

const SAST_MS = 2 * 3_600_000;
const isoDay = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10);

/**
 * A preset's days ('YYYY-MM-DD', SAST, both included) on the day `now` is in South Africa: weeks run Monday
 * to Sunday and end today when current. 'custom' answers this week (the screen's starting point). The
 * service's default period and the screen's presets both come from here.
 */
export function insightPresetRange(
  preset: InsightPreset,
  now: Date = new Date(),
): { from: string; to: string } {
  const sa = new Date(now.getTime() + SAST_MS);
  const today = Date.UTC(sa.getUTCFullYear(), sa.getUTCMonth(), sa.getUTCDate());
  const day = 86_400_000;
  const monday = today - ((sa.getUTCDay() + 6) % 7) * day;
  const year = sa.getUTCFullYear();
  const month = sa.getUTCMonth();
  switch (preset) {
    case 'lastWeek':
      return { from: isoDay(monday - 7 * day), to: isoDay(monday - day) };
    case 'thisMonth':
      return { from: isoDay(Date.UTC(year, month, 1)), to: isoDay(today) };
    case 'last30Days':
      return { from: isoDay(today - 29 * day), to: isoDay(today) };
    case 'thisQuarter':
      return { from: isoDay(Date.UTC(year, month - (month % 3), 1)), to: isoDay(today) };
    case 'thisYear':
      return { from: isoDay(Date.UTC(year, 0, 1)), to: isoDay(today) };
    default:
      return { from: isoDay(monday), to: isoDay(today) };
  }
}
