import { REQUEST_API, REQUEST_HEADERS } from '@portal/contracts';
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
// Through the package, not '../api/baseApi': this subpath is bundled into each remote that uses it, and
// must inject into the one api of the shared web-kit singleton.
import { baseApi, type PortalError } from '@portal/web-kit';

export interface CreateRequestArgs<Form extends object = object> {
  /** The request form of spec 01 §3 (the request tool's, the can't-locate screen's, IRiS's order). */
  form: Form;
  /** Made when the form opens (or per ordered location): a retried submission is written once. */
  idempotencyKey: string;
}

/** What PUT /api/v1.0/request/ answered: 'created' on success (spec 01 §7), the new request's path and GRiP reference. */
export interface CreateRequestAnswer {
  /** The reply as text (compared with 'created'; anything else is only logged). */
  reply: string;
  location: string | null;
  gripReference: string | null;
}

/**
 * Request creation, the one call every screen that logs a request makes (/savi, /avs can't-locate, /iris):
 * the form with its Idempotency-Key, the plain-text reply and the headers that name the new request.
 */
export const requestCreationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    createRequest: build.mutation<CreateRequestAnswer, CreateRequestArgs>({
      async queryFn({ form, idempotencyKey }, _api, _extra, baseQuery) {
        const result = await baseQuery({
          url: REQUEST_API.create,
          method: 'PUT',
          body: form,
          headers: { [REQUEST_HEADERS.idempotencyKey]: idempotencyKey },
        });
        if (result.error) return { error: result.error as PortalError };
        const headers = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers;
        return {
          data: {
            reply: typeof result.data === 'string' ? result.data : JSON.stringify(result.data ?? null),
            location: headers?.get(REQUEST_HEADERS.location) ?? null,
            gripReference: headers?.get(REQUEST_HEADERS.gripReference) ?? null,
          },
        };
      },
      invalidatesTags: ['Request'],
    }),
  }),
  // Every remote that uses the locator kit injects the same endpoint into the one shared api.
  overrideExisting: true,
});

export const { useCreateRequestMutation } = requestCreationApi;
