import { useMemo } from 'react';
import { skipToken } from '@portal/web-kit';
import type { ReportDetails } from '@portal/contracts';
import { useGroupRatesQuery, useReportRequestQuery } from '../api/reportBuilderApi';
import { saviRows } from './rateOptions';

/**
 * The group's savi rates for the cascading dropdowns, and the request (its point, its group): the group
 * from the report's details, else from the request.
 */
export function useGroupRates(requestID: string | null, details: ReportDetails | undefined) {
  const request = useReportRequestQuery(requestID ?? skipToken).data;
  const groupID = details?.group?.id ?? request?.group?.id ?? null;
  const rates = useGroupRatesQuery(groupID ?? skipToken).data;
  const rows = useMemo(() => saviRows(rates?.rates ?? []), [rates]);
  return { request, rows };
}
