import type { InsightChart } from '@portal/contracts';

/** The dashboard's texts (issue 24; not in the spec). */
export const INSIGHT_TEXT = {
  title: 'Operations insight',
  subtitle: 'How the request work is going: figures from the request history, days in SAST.',
  period: 'Period',
  from: 'From',
  to: 'To',
  group: 'Group',
  allGroups: 'All groups',
  ownGroup: 'Your group',
  type: 'Type',
  allTypes: 'All types',
  loading: 'Loading the figures',
  loadingFailed: 'The figures could not be loaded.',
  exportXlsx: 'xlsx',
  exportCsv: 'CSV',
  exportLabel: (title: string, format: string) => `Export ${title} as ${format}`,
  showData: 'Data',
  noData: 'Nothing in this period.',
  headline: {
    created: 'Created',
    finished: 'Finished (first Dispatch)',
    median: 'Median turnaround',
    p90: 'P90 turnaround',
    late: 'Late now',
    sendBackRate: 'QC send-back rate',
  },
  hours: (value: number | null) => (value === null ? '–' : `${value.toFixed(1)} h`),
  percent: (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)} %`),
  lateIntro: (total: number) =>
    total === 1
      ? '1 open request has been in its status longer than its ageing target.'
      : `${total} open requests have been in their status longer than their ageing target.`,
  lateOpen: (reference: string) => `Open ${reference} in the console`,
  latePage: 'Pages of late requests',
  queuesIntro: 'Waiting, active and failed are now; done, failed and durations over the period.',
  perBucket: { day: 'per day', week: 'per week (from Monday)' },
} as const;

/** What each chart says, under its title. */
export const CHART_NOTES: Partial<Record<InsightChart, string>> = {
  turnaround:
    'Hours from creation (New) to the first move into Dispatch, for requests that reached it in the period.',
  statusTimes:
    'Hours spent in each status, for stays that ended in the period; the red mark is the ageing target.',
  backlog: 'Requests in each status at the end of each day or week (now, for the current one).',
  sendBacks: 'QC decisions on each operator’s submissions, and the share sent back to Query.',
  operators:
    'Reports started (into In progress), submitted (into QC check) and approved (QC check to Dispatch).',
};
