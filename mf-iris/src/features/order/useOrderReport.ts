import { useCallback, useMemo, useState } from 'react';
import { IRIS_SUPPORT_EMAIL_DEFAULT, REQUEST_CREATED } from '@portal/contracts';
import { newIdempotencyKey, useAppDispatch } from '@portal/web-kit';
import {
  useCreateIrisReportMutation,
  useCreateIrisRequestMutation,
  useIrisSettingsQuery,
} from '../../api/irisApi';
import { IRIS_ERRORS } from '../../texts';
import { reportOpened } from '../../state/reportSlice';
import { buildIrisRequest, requestIdFromLocation, type OrderInput } from './orderRequest';

export interface OrderReport {
  order: (input: OrderInput) => Promise<void>;
  ordering: boolean;
  /** The spec's text for what failed (spec 03 §8), or null. */
  error: string | null;
  clearError: () => void;
}

/**
 * Spec 03 §4 step 1: create the request (PUT /api/v1.0/request/, type IRIS, an Idempotency-Key per
 * location so a retried order is written once), then the report (PUT /api/v1.0/iris/ { requestId }); the
 * report opens in the store. A failed registration and a failed report each show their spec text.
 */
export function useOrderReport(pointKey: string | null): OrderReport {
  const dispatch = useAppDispatch();
  const settings = useIrisSettingsQuery();
  const [createRequest] = useCreateIrisRequestMutation();
  const [createReport] = useCreateIrisReportMutation();
  const [ordering, setOrdering] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per chosen location: ordering the same point again (after a failure) is the same request.
  const idempotencyKey = useMemo(() => (pointKey ? newIdempotencyKey() : ''), [pointKey]);
  const supportEmail = settings.data?.supportEmail || IRIS_SUPPORT_EMAIL_DEFAULT;

  const order = useCallback(
    async (input: OrderInput) => {
      setOrdering(true);
      setError(null);
      try {
        let requestId: string | null = null;
        try {
          const created = await createRequest({ form: buildIrisRequest(input), idempotencyKey }).unwrap();
          requestId = created.reply === REQUEST_CREATED ? requestIdFromLocation(created.location) : null;
          if (!requestId) console.error('[iris] request not created', created);
        } catch (failure) {
          console.error('[iris] request registration failed', failure);
        }
        if (!requestId) {
          setError(IRIS_ERRORS.registration);
          return;
        }
        try {
          const answer = await createReport(requestId).unwrap();
          if (!answer.success || !answer.report) throw new Error('report creation answered no success');
          dispatch(reportOpened(answer.report));
        } catch (failure) {
          console.error('[iris] report creation failed', failure);
          setError(IRIS_ERRORS.processing(supportEmail));
        }
      } finally {
        setOrdering(false);
      }
    },
    [createRequest, createReport, dispatch, idempotencyKey, supportEmail],
  );

  return { order, ordering, error, clearError: useCallback(() => setError(null), []) };
}
