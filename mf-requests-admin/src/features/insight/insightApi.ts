import { INSIGHT_API, type InsightAnswer, type InsightChart } from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/** What the dashboard asks: the period's SAST days, the filters, and the late list's page. */
export interface InsightArgs {
  from: string;
  to: string;
  group?: string;
  type?: string;
  latePage?: number;
}

/** The query string of the figures and of an export (blank filters left out). */
export function insightParams(args: InsightArgs, chart?: InsightChart): string {
  const params = new URLSearchParams({ from: args.from, to: args.to });
  if (args.group) params.set('group', args.group);
  if (args.type) params.set('type', args.type);
  if (args.latePage && args.latePage > 1) params.set('latePage', String(args.latePage));
  if (chart) params.set('chart', chart);
  return params.toString();
}

/** A chart's data as a file: a plain download (the session cookie goes with it). */
export const insightExportHref = (args: InsightArgs, chart: InsightChart, format: 'xlsx' | 'csv') =>
  `${format === 'xlsx' ? INSIGHT_API.exportXlsx : INSIGHT_API.exportCsv}?${insightParams(args, chart)}`;

/** GET /api/v1.0/requests/insight (issue 24). */
export const insightApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    insight: build.query<InsightAnswer, InsightArgs>({
      query: (args) => `${INSIGHT_API.insight}?${insightParams(args)}`,
    }),
  }),
});

export const { useInsightQuery } = insightApi;
