import {
  REQUEST_API,
  REQUEST_HEADERS,
  VALIDATION_API,
  type RequestForm,
  type ValidateAnswer,
  type ValidateBatchAnswer,
} from '@portal/contracts';
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import { baseApi, type PortalError } from '@portal/web-kit';

export interface CantLocateArgs {
  form: RequestForm;
  /** Made when the form is filled in: a retried submission is written once. */
  idempotencyKey: string;
}

/** The service's reply ('created' on success) and what its headers say about the new request. */
export interface CantLocateAnswer {
  reply: string | null;
  gripReference: string | null;
  location: string | null;
}

/**
 * The /avs screen's calls: address validation (services/locator) and the can't-locate request
 * (services/requests). Validations are mutations: a batch must be sent each time it is asked for, and a
 * typed address is validated when the user says so, not served from a cache.
 */
export const avsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    validateAddress: build.mutation<ValidateAnswer, { address: string }>({
      query: (body) => ({ url: VALIDATION_API.validate, method: 'POST', body }),
    }),
    validateBatch: build.mutation<ValidateBatchAnswer, { addresses: string[] }>({
      query: (body) => ({ url: VALIDATION_API.batch, method: 'POST', body }),
    }),
    createCantLocate: build.mutation<CantLocateAnswer, CantLocateArgs>({
      async queryFn({ form, idempotencyKey }, _api, _extra, baseQuery) {
        const result = await baseQuery({
          url: REQUEST_API.create,
          method: 'PUT',
          body: { ...form, idempotencyKey },
          headers: { 'Idempotency-Key': idempotencyKey },
        });
        if (result.error) return { error: result.error as PortalError };
        const headers = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers;
        return {
          data: {
            reply: typeof result.data === 'string' ? result.data : null,
            gripReference: headers?.get(REQUEST_HEADERS.gripReference) ?? null,
            location: headers?.get(REQUEST_HEADERS.location) ?? null,
          },
        };
      },
      invalidatesTags: ['Request'],
    }),
  }),
});

export const { useValidateAddressMutation, useValidateBatchMutation, useCreateCantLocateMutation } = avsApi;
