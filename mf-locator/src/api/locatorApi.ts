import {
  API,
  AVS_API,
  IMAGERY_API,
  type AvsOptions,
  type CoverageAnswer,
  type GeoJsonAnswer,
  type ImageUrlAnswer,
  REQUEST_API,
  REQUEST_HEADERS,
  type MyReferencesAnswer,
  type Orientation,
  type ReverseAnswer,
  type SearchAnswer,
  type SearchFlags,
} from '@portal/contracts';
import { baseApi, type PortalError } from '@portal/web-kit';
import type { SaviRequestForm } from '../savi/requestForm';

export interface SearchArgs {
  query: string;
  searchOptions?: SearchFlags;
  options?: AvsOptions;
}

export interface ReverseArgs {
  lat: number;
  lng: number;
  searchOption?: string;
  options?: AvsOptions;
}

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

/**
 * The locator's calls: the address service (/api/avs/*), imagery coverage and URLs, the user's request
 * form references and request creation. Address-service and imagery calls are POST/GET queries, cached by
 * their arguments (a repeated autocomplete prefix or a re-selected result is not fetched again).
 */
export const locatorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    geocode: build.query<SearchAnswer, { address: string; options?: AvsOptions }>({
      query: (body) => ({ url: AVS_API.geocode, method: 'POST', body }),
    }),
    search: build.query<SearchAnswer, SearchArgs>({
      query: (body) => ({ url: AVS_API.search, method: 'POST', body }),
    }),
    searchPostal: build.query<SearchAnswer, { query: string; options?: AvsOptions }>({
      query: (body) => ({ url: AVS_API.searchPostal, method: 'POST', body }),
    }),
    reverse: build.query<ReverseAnswer, ReverseArgs>({
      query: (body) => ({ url: AVS_API.reverse, method: 'POST', body }),
    }),
    geojson: build.query<GeoJsonAnswer, { id: string; type: string; options?: AvsOptions }>({
      query: (body) => ({ url: AVS_API.geojson, method: 'POST', body }),
    }),
    coverage: build.query<CoverageAnswer, { lat: number; lng: number }>({
      query: (params) => ({ url: IMAGERY_API.coverage, params }),
    }),
    imageUrl: build.query<ImageUrlAnswer, { lat: number; lng: number; orientation: Orientation }>({
      query: (params) => ({ url: IMAGERY_API.imageUrl, params }),
    }),
    myReferences: build.query<MyReferencesAnswer, void>({
      query: () => API.myReferences,
    }),
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

export const {
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
  useCreateRequestMutation,
} = locatorApi;
