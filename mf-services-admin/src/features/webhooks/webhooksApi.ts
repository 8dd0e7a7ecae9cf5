import {
  WEBHOOK_API,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookEndpointWithSecret,
  type WebhookTestAnswer,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/** A group's webhooks, as a cache tag (the portal's api has no tag of its own for them). */
const hooksTag = (groupId: string) => ({ type: 'Group' as const, id: `webhooks:${groupId}` });
const deliveriesTag = (endpointId: string) => ({
  type: 'Group' as const,
  id: `webhook-deliveries:${endpointId}`,
});

interface EndpointArgs {
  groupId: string;
  endpointId: string;
}

/** A group's webhook endpoints and their deliveries (issue 22; services-admin routes/webhooks.ts). */
export const webhooksApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    webhooks: build.query<WebhookEndpointList, string>({
      query: (groupId) => WEBHOOK_API.groupWebhooks(groupId),
      providesTags: (_list, _error, groupId) => [hooksTag(groupId)],
    }),
    createWebhook: build.mutation<WebhookEndpointWithSecret, { groupId: string; body: CreateWebhookBody }>({
      query: ({ groupId, body }) => ({ url: WEBHOOK_API.groupWebhooks(groupId), method: 'POST', body }),
      invalidatesTags: (_answer, _error, { groupId }) => [hooksTag(groupId)],
    }),
    updateWebhook: build.mutation<WebhookEndpoint, EndpointArgs & { body: UpdateWebhookBody }>({
      query: ({ groupId, endpointId, body }) => ({
        url: WEBHOOK_API.endpoint(groupId, endpointId),
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_answer, _error, { groupId }) => [hooksTag(groupId)],
    }),
    deleteWebhook: build.mutation<WebhookEndpoint, EndpointArgs>({
      query: ({ groupId, endpointId }) => ({
        url: WEBHOOK_API.endpoint(groupId, endpointId),
        method: 'DELETE',
      }),
      invalidatesTags: (_answer, _error, { groupId }) => [hooksTag(groupId)],
    }),
    rotateWebhookSecret: build.mutation<WebhookEndpointWithSecret, EndpointArgs>({
      query: ({ groupId, endpointId }) => ({
        url: WEBHOOK_API.rotateSecret(groupId, endpointId),
        method: 'POST',
      }),
    }),
    testWebhook: build.mutation<WebhookTestAnswer, EndpointArgs>({
      query: ({ groupId, endpointId }) => ({ url: WEBHOOK_API.test(groupId, endpointId), method: 'POST' }),
      invalidatesTags: (_answer, _error, { endpointId }) => [deliveriesTag(endpointId)],
    }),
    webhookDeliveries: build.query<WebhookDeliveryPage, EndpointArgs & { page: number }>({
      query: ({ groupId, endpointId, page }) => `${WEBHOOK_API.deliveries(groupId, endpointId)}?page=${page}`,
      providesTags: (_answer, _error, { endpointId }) => [deliveriesTag(endpointId)],
    }),
    redeliverWebhook: build.mutation<WebhookTestAnswer, EndpointArgs & { deliveryId: string }>({
      query: ({ groupId, endpointId, deliveryId }) => ({
        url: WEBHOOK_API.redeliver(groupId, endpointId, deliveryId),
        method: 'POST',
      }),
      invalidatesTags: (_answer, _error, { endpointId }) => [deliveriesTag(endpointId)],
    }),
  }),
});

export const {
  useWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useWebhookDeliveriesQuery,
  useRedeliverWebhookMutation,
} = webhooksApi;
