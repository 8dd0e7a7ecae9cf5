import { REQUEST_API, REQUEST_HEADERS } from '@portal/contracts';
import { baseApi, type PortalError } from '@portal/web-kit';
import type { SaviRequestForm } from '../savi/requestForm';

// The address and imagery calls are the locator kit's (@portal/web-kit/locator), shared with every screen
// that picks a location; re-exported here for the screens of this remote.
export {
  useGeocodeQuery,
  useLazyGeocodeQuery,
  useSearchQuery,
  useLazySearchQuery,
  useSearchPostalQuery,
  useLazySearchPostalQuery,
  useReverseQuery,
  useLazyReverseQuery,
  useGeojsonQuery,
  useLazyGeojsonQuery,
  useCoverageQuery,
  useLazyCoverageQuery,
  useLazyImageUrlQuery,
  useMyReferencesQuery,
  type SearchArgs,
  type ReverseArgs,
} from '@portal/web-kit/locator';

export interface CreateRequestArgs {
  form: SaviRequestForm;
  /** Made when the form opens: a retried submission is written once (Idempotency-Key). */
  idempotencyKey: string;
}

/** What the service answered: 'created' on success (spec 01 §7), with the request's GRiP reference. */
export interface CreateRequestAnswer {
  reply: string;
  location: string | null;
  gripReference: string | null;
}

/** This remote's own call: request creation (the user's references are the locator kit's). */
export const locatorApi = baseApi.injectEndpoints({
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
        const headers = (result.meta as { response?: Response } | undefined)?.response?.headers;
        return {
          data: {
            reply: typeof result.data === 'string' ? result.data : JSON.stringify(result.data),
            location: headers?.get(REQUEST_HEADERS.location) ?? null,
            gripReference: headers?.get(REQUEST_HEADERS.gripReference) ?? null,
          },
        };
      },
      invalidatesTags: ['Request'],
    }),
  }),
});

export const { useCreateRequestMutation } = locatorApi;
