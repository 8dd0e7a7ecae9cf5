import {
  REQUEST_API,
  VALIDATION_API,
  type RequestMapAnswer,
  type RequestMapQuery,
  type ValidateAnswer,
  type ValidateBatchAnswer,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/**
 * This remote's own calls, injected into web-kit's one api. The address and imagery calls, the group's
 * references and request creation are the locator kit's (`@portal/web-kit/locator`), shared with /iris:
 * the screens import those hooks from there.
 */
export const locatorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // /avs, address validation (services/locator). Validations are mutations: a batch must be sent each
    // time it is asked for, and a typed address is validated when the user says so, not served from a cache.
    validateAddress: build.mutation<ValidateAnswer, { address: string }>({
      query: (body) => ({ url: VALIDATION_API.validate, method: 'POST', body }),
    }),
    validateBatch: build.mutation<ValidateBatchAnswer, { addresses: string[] }>({
      query: (body) => ({ url: VALIDATION_API.batch, method: 'POST', body }),
    }),
    // /spatialkey, GET /api/v1.0/request/map (services/requests): the caller's requests (staff: all) as points.
    requestMap: build.query<RequestMapAnswer, RequestMapQuery>({
      query: (params) => ({ url: REQUEST_API.map, params }),
      // A request logged elsewhere in the portal shows on the next look.
      providesTags: ['Request'],
    }),
  }),
});

export const { useValidateAddressMutation, useValidateBatchMutation, useRequestMapQuery } = locatorApi;
