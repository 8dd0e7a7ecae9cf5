import { API, type MyReferencesAnswer } from '@portal/contracts';
// Through the package, not '../../api/baseApi': this subpath is bundled into each remote that uses it, and
// must inject into the one api of the shared web-kit singleton.
import { baseApi } from '@portal/web-kit';

/**
 * GET /api/v1.0/users/me/references: the user's group's request references (spec 01 §3). Every remote that
 * logs requests carries its own copy of this module and injects the same definition (`overrideExisting`, as
 * the locator's search calls).
 */
export const referencesApi = baseApi.injectEndpoints({
  overrideExisting: true,
  endpoints: (build) => ({
    myReferences: build.query<MyReferencesAnswer, void>({
      query: () => API.myReferences,
    }),
  }),
});

export const { useMyReferencesQuery } = referencesApi;
