import { REQUEST_API, type RequestMapAnswer } from '@portal/contracts';
import { baseApi } from '@portal/web-kit';
import type { RequestMapParams } from './filters';

/** GET /api/v1.0/request/map (services/requests): the caller's requests (staff: all) as points. */
export const spatialKeyApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    requestMap: build.query<RequestMapAnswer, RequestMapParams>({
      query: (params) => ({ url: REQUEST_API.map, params }),
      // A request logged elsewhere in the portal shows on the next look.
      providesTags: ['Request'],
    }),
  }),
});

export const { useRequestMapQuery } = spatialKeyApi;
