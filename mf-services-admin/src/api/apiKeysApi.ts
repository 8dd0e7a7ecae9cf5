import {
  API_KEY_ROUTES,
  type ApiKey,
  type ApiKeyList,
  type CreateApiKeyBody,
  type CreatedApiKey,
  type GroupRateLimitBody,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

const groupKeysUrl = (groupId: string) =>
  API_KEY_ROUTES.groupKeys.replace(':id', encodeURIComponent(groupId));
/** The keys of a group, as a cache tag (the portal's api has no tag of its own for keys). */
const keysTag = (groupId: string) => ({ type: 'Group' as const, id: `api-keys:${groupId}` });

/** A group's API keys (issue 22): list, create (the key in the answer, once), revoke, the group's limit. */
export const apiKeysApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    apiKeys: build.query<ApiKeyList, string>({
      query: (groupId) => groupKeysUrl(groupId),
      providesTags: (_list, _error, groupId) => [keysTag(groupId)],
    }),
    createApiKey: build.mutation<CreatedApiKey, { groupId: string; body: CreateApiKeyBody }>({
      query: ({ groupId, body }) => ({ url: groupKeysUrl(groupId), method: 'POST', body }),
      invalidatesTags: (_key, _error, { groupId }) => [keysTag(groupId)],
    }),
    revokeApiKey: build.mutation<ApiKey, { groupId: string; keyId: string }>({
      query: ({ keyId }) => ({
        url: API_KEY_ROUTES.key.replace(':keyId', encodeURIComponent(keyId)),
        method: 'DELETE',
      }),
      invalidatesTags: (_key, _error, { groupId }) => [keysTag(groupId)],
    }),
    setApiRateLimit: build.mutation<unknown, { groupId: string; body: GroupRateLimitBody }>({
      query: ({ groupId, body }) => ({
        url: API_KEY_ROUTES.groupRateLimit.replace(':id', encodeURIComponent(groupId)),
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_answer, _error, { groupId }) => [keysTag(groupId)],
    }),
  }),
});

export const {
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useSetApiRateLimitMutation,
} = apiKeysApi;
