import { VALIDATION_API, type ValidateAnswer, type ValidateBatchAnswer } from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/**
 * The /avs screen's calls: address validation (services/locator). Validations are mutations: a batch must be sent each time it is asked for, and a
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
  }),
});

export const { useValidateAddressMutation, useValidateBatchMutation } = avsApi;

/** The can't-locate request is created with the locator kit's request creation (shared with /savi, /iris). */
export { useCreateRequestMutation as useCreateCantLocateMutation } from '@portal/web-kit/locator';
