import {
  AVS_API,
  IMAGERY_API,
  type AvsOptions,
  type CoverageAnswer,
  type GeoJsonAnswer,
  type ImageUrlAnswer,
  type Orientation,
  type ReverseAnswer,
  type SearchAnswer,
  type SearchFlags,
} from '@portal/contracts';
// Through the package, not '../api/baseApi': this subpath is bundled into each remote that uses it, and
// must inject into the one api of the shared web-kit singleton.
import { baseApi } from '@portal/web-kit';

export interface SearchArgs {
  query: string;
  searchOptions?: SearchFlags;
  options?: AvsOptions;
}

export interface ImageUrlArgs {
  lat: number;
  lng: number;
  orientation: Orientation;
  /** The survey to show (GET /api/imagery/surveys lists them); the newest at the point without. */
  survey?: number;
}

export interface ReverseArgs {
  lat: number;
  lng: number;
  searchOption?: string;
  options?: AvsOptions;
}

/**
 * The calls a screen that picks a location makes: the address service (/api/avs/*) and imagery coverage
 * and URLs. POST/GET queries cached by their arguments (a repeated autocomplete prefix or a re-selected
 * result is not fetched again). Every remote that uses the locator kit carries its own copy of this module
 * and injects the same definitions: a second injection replaces them with equal ones (`overrideExisting`
 * true, which also keeps RTK Query from logging the repeat as an error in development).
 */
export const locatorSearchApi = baseApi.injectEndpoints({
  overrideExisting: true,
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
    /** A picture's URL; `survey` picks a dated survey (issue 21), the newest at the point without. */
    imageUrl: build.query<ImageUrlAnswer, ImageUrlArgs>({
      query: ({ survey, ...params }) => ({
        url: IMAGERY_API.imageUrl,
        params: survey === undefined ? params : { ...params, survey },
      }),
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
  useImageUrlQuery,
  useLazyImageUrlQuery,
} = locatorSearchApi;
