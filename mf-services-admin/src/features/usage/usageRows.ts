import { USAGE_METRICS, type UsageAnswer, type UsageMetric } from '@portal/contracts';
import type { DailyCount } from '@portal/charts';

/** A metric's count on every day of the month (0 on a day without use), for its chart. */
export function dailySeries(answer: UsageAnswer, metric: UsageMetric): DailyCount[] {
  const byDay = new Map(answer.days.map((day) => [day, 0]));
  for (const row of answer.rows)
    if (row.metric === metric && byDay.has(row.day)) byDay.set(row.day, byDay.get(row.day)! + row.count);
  return [...byDay].map(([day, count]) => ({ day, count }));
}

/** The metrics used in the month, in the portal's order. */
export const usedMetrics = (answer: UsageAnswer): UsageMetric[] =>
  USAGE_METRICS.filter((metric) => (answer.totals[metric] ?? 0) > 0);

/** A line of the page's table: a metric's month total per service and source. */
export interface UsageTableRow {
  key: string;
  metric: UsageMetric;
  service: string;
  /** The key's name and prefix, or the session source. */
  source: string;
  count: number;
}

/** The month's totals per metric, service and source, in the portal's order of metrics. */
export function tableRows(answer: UsageAnswer, sessionLabel: string): UsageTableRow[] {
  const rows = new Map<string, UsageTableRow>();
  for (const row of answer.rows) {
    const source = row.source === 'session' ? sessionLabel : (row.sourceName ?? row.source);
    const key = `${row.metric}|${row.service}|${source}`;
    const line = rows.get(key);
    if (line) line.count += row.count;
    else
      rows.set(key, {
        key,
        metric: row.metric as UsageMetric,
        service: row.service,
        source,
        count: row.count,
      });
  }
  const order = (metric: string) => USAGE_METRICS.indexOf(metric as UsageMetric);
  return [...rows.values()].sort(
    (a, b) =>
      order(a.metric) - order(b.metric) ||
      a.service.localeCompare(b.service) ||
      a.source.localeCompare(b.source),
  );
}
