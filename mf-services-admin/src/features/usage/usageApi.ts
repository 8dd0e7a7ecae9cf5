import { USAGE_ROUTES, type UsageAnswer } from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/** Which usage the page shows: a group's (or all groups', for administrators) in a month. */
export interface UsageArgs {
  /** Unset: every group (administrators) or the caller's own (a group's admin). */
  groupId?: string;
  /** 'YYYY-MM'. */
  month: string;
}

/** The query string of a usage call or export. */
export const usageParams = ({ groupId, month }: UsageArgs) =>
  new URLSearchParams({ month, ...(groupId ? { groupId } : {}) }).toString();

/** GET /api/v1.0/usage (issue 22). The exports are plain downloads of USAGE_ROUTES.exportXlsx / exportCsv. */
export const usageApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    usage: build.query<UsageAnswer, UsageArgs>({
      query: (args) => `${USAGE_ROUTES.usage}?${usageParams(args)}`,
    }),
  }),
});

export const { useUsageQuery } = usageApi;
