import { groupedBarsSvg, lineSeriesSvg, stackedBarsSvg, type ChartSeries } from '@portal/charts';
import { INSIGHT_CHART_TITLES, type InsightAnswer } from '@portal/contracts';
import type { DataTable } from './components/ChartCard';

/**
 * The dashboard's charts and tables from one answer: pure, so the screen and its tests read the same. Each
 * chart's table holds the numbers the chart draws (and the export's rows, written by the server).
 */

const bucketHeader = (answer: InsightAnswer) => (answer.period.bucket === 'week' ? 'Week of' : 'Day');
const hours = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** One series per request type over the buckets, of `field` (created or finished). */
function perType(answer: InsightAnswer, field: 'created' | 'finished'): ChartSeries[] {
  const types = [...new Set(answer.flow.map((row) => row.type))].sort();
  return types.map((type) => ({
    name: type,
    values: answer.period.buckets.map((bucket) =>
      answer.flow
        .filter((row) => row.bucket === bucket && row.type === type)
        .reduce((sum, row) => sum + row[field], 0),
    ),
  }));
}

export function flowView(answer: InsightAnswer) {
  const unit = 'requests';
  return {
    createdSvg: stackedBarsSvg(answer.period.buckets, perType(answer, 'created'), {
      title: 'Created, by type',
      unit,
    }),
    finishedSvg: stackedBarsSvg(answer.period.buckets, perType(answer, 'finished'), {
      title: 'Finished, by type',
      unit,
    }),
    table: {
      columns: [bucketHeader(answer), 'Type', 'Sub type', 'Created', 'Finished'],
      numeric: [3, 4],
      rows: answer.flow.map((r) => [r.bucket, r.type, r.subtype, r.created, r.finished]),
    } satisfies DataTable,
  };
}

export function groupsView(answer: InsightAnswer) {
  const rows = answer.groups.slice(0, 15);
  return {
    svg: rows.length
      ? groupedBarsSvg(
          rows.map((g) => ({ label: g.groupName, values: [g.created, g.finished] })),
          {
            title: INSIGHT_CHART_TITLES.groups,
            unit: 'requests',
            series: ['created', 'finished'],
            decimals: 0,
          },
        )
      : undefined,
    table: {
      columns: ['Group', 'Created', 'Finished'],
      numeric: [1, 2],
      rows: answer.groups.map((g) => [g.groupName, g.created, g.finished]),
    } satisfies DataTable,
  };
}

export function turnaroundView(answer: InsightAnswer) {
  return {
    svg: groupedBarsSvg(
      answer.turnaround.map((t) => ({ label: t.type, values: [t.medianHours, t.p90Hours] })),
      { title: INSIGHT_CHART_TITLES.turnaround, unit: 'hours', series: ['median', 'p90'] },
    ),
    table: {
      columns: ['Type', 'Finished', 'Median hours', 'P90 hours'],
      numeric: [1, 2, 3],
      rows: answer.turnaround.map((t) => [t.type, t.count, hours(t.medianHours), hours(t.p90Hours)]),
    } satisfies DataTable,
  };
}

export function statusTimesView(answer: InsightAnswer) {
  return {
    svg: answer.statusTimes.length
      ? groupedBarsSvg(
          answer.statusTimes.map((s) => ({
            label: s.status,
            values: [s.medianHours, s.p90Hours],
            target: s.targetHours,
          })),
          { title: INSIGHT_CHART_TITLES.statusTimes, unit: 'hours', series: ['median', 'p90'] },
        )
      : undefined,
    table: {
      columns: ['Status', 'Stays', 'Median hours', 'P90 hours', 'Target hours', 'Over target'],
      numeric: [1, 2, 3, 4, 5],
      rows: answer.statusTimes.map((s) => [
        s.status,
        s.stays,
        hours(s.medianHours),
        hours(s.p90Hours),
        s.targetHours,
        s.overTarget,
      ]),
    } satisfies DataTable,
  };
}

export function backlogView(answer: InsightAnswer) {
  const statuses = [...new Set(answer.backlog.map((b) => b.status))];
  const series = statuses.map((status) => ({
    name: status,
    values: answer.period.buckets.map(
      (bucket) => answer.backlog.find((b) => b.bucket === bucket && b.status === status)?.count ?? 0,
    ),
  }));
  return {
    svg: series.length
      ? lineSeriesSvg(answer.period.buckets, series, {
          title: INSIGHT_CHART_TITLES.backlog,
          unit: 'requests',
        })
      : undefined,
    table: {
      columns: [bucketHeader(answer), ...statuses],
      numeric: statuses.map((_, i) => i + 1),
      rows: answer.period.buckets.map((bucket, i) => [bucket, ...series.map((s) => s.values[i])]),
    } satisfies DataTable,
  };
}

const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

export function sendBacksView(answer: InsightAnswer) {
  const rows = answer.sendBacks.filter((s) => s.decisions > 0).slice(0, 16);
  return {
    svg: rows.length
      ? groupedBarsSvg(
          rows.map((s) => ({ label: s.name, values: [percent(s.rate)] })),
          { title: INSIGHT_CHART_TITLES.sendBacks, unit: '% sent back', series: ['sent back'] },
        )
      : undefined,
    table: {
      columns: ['Operator', 'QC decisions', 'Sent back', 'Rate (%)'],
      numeric: [1, 2, 3],
      rows: answer.sendBacks.map((s) => [s.name, s.decisions, s.sentBack, percent(s.rate)]),
    } satisfies DataTable,
  };
}

export function operatorsView(answer: InsightAnswer) {
  const rows = answer.operators.slice(0, 15);
  return {
    svg: rows.length
      ? groupedBarsSvg(
          rows.map((o) => ({ label: o.name, values: [o.started, o.submitted, o.approved] })),
          {
            title: INSIGHT_CHART_TITLES.operators,
            unit: 'reports',
            series: ['started', 'submitted', 'approved'],
            decimals: 0,
          },
        )
      : undefined,
    table: {
      columns: ['Operator', 'Started', 'Submitted', 'Approved'],
      numeric: [1, 2, 3],
      rows: answer.operators.map((o) => [o.name, o.started, o.submitted, o.approved]),
    } satisfies DataTable,
  };
}

export function queuesView(answer: InsightAnswer) {
  return {
    svg: answer.queues.length
      ? groupedBarsSvg(
          answer.queues.map((q) => ({
            label: q.label,
            values: [q.durationP50Seconds, q.durationP95Seconds],
          })),
          { title: 'Job duration', unit: 'seconds', series: ['p50', 'p95'] },
        )
      : undefined,
    table: {
      columns: [
        'Queue',
        'Waiting',
        'Active',
        'Failed now',
        'Done in period',
        'Failed in period',
        'P50 s',
        'P95 s',
      ],
      numeric: [1, 2, 3, 4, 5, 6, 7],
      rows: answer.queues.map((q) => [
        q.label,
        q.waiting,
        q.active,
        q.failed,
        q.done,
        q.failedInPeriod,
        q.durationP50Seconds,
        q.durationP95Seconds,
      ]),
    } satisfies DataTable,
  };
}

/** The headline figures: created and finished in the period, the turnaround, the late count, the send-back rate. */
export function headline(answer: InsightAnswer) {
  const all = answer.turnaround.find((t) => t.type === 'All');
  const everyone = answer.sendBacks.find((s) => s.userId === null);
  return {
    created: answer.flow.reduce((sum, row) => sum + row.created, 0),
    finished: answer.flow.reduce((sum, row) => sum + row.finished, 0),
    median: all?.medianHours ?? null,
    p90: all?.p90Hours ?? null,
    late: answer.late.total,
    sendBackRate: everyone?.rate ?? null,
  };
}
