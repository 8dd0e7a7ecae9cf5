import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './common';

/**
 * Webhooks (issue 22): a group's endpoints receive its requests' events, signed the Standard Webhooks way
 * (headers webhook-id, webhook-timestamp, webhook-signature; the `standardwebhooks` package verifies
 * them). An administrator, or the group's own admin, manages them in services admin. The body of every
 * event is `{ type, timestamp, data }`, `data` being the request as GET /api/v1.0/request/{id}/any
 * answers it. docs/api.md ("Webhooks") shows a receiver.
 */
export const WEBHOOK_ROUTES = {
  /** GET lists the group's endpoints, POST creates one (its secret answered once). */
  groupWebhooks: '/api/v1.0/group/:id/webhooks',
  /** PUT changes an endpoint (url, description, events, enabled), DELETE removes it. */
  endpoint: '/api/v1.0/group/:id/webhooks/:endpointId',
  /** POST: a new secret, answered once; the old one stops signing at once. */
  rotateSecret: '/api/v1.0/group/:id/webhooks/:endpointId/rotate-secret',
  /** POST: sends a `webhook.test` event to this endpoint only. */
  test: '/api/v1.0/group/:id/webhooks/:endpointId/test',
  /** GET: the endpoint's deliveries, newest first, with their attempts (paged). */
  deliveries: '/api/v1.0/group/:id/webhooks/:endpointId/deliveries',
  /** POST: sends the delivery again (a new series of attempts). */
  redeliver: '/api/v1.0/group/:id/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
} as const;

export const WEBHOOK_API = {
  groupWebhooks: (groupId: string) => `/api/v1.0/group/${encodeURIComponent(groupId)}/webhooks`,
  endpoint: (groupId: string, endpointId: string) =>
    `${WEBHOOK_API.groupWebhooks(groupId)}/${encodeURIComponent(endpointId)}`,
  rotateSecret: (groupId: string, endpointId: string) =>
    `${WEBHOOK_API.endpoint(groupId, endpointId)}/rotate-secret`,
  test: (groupId: string, endpointId: string) => `${WEBHOOK_API.endpoint(groupId, endpointId)}/test`,
  deliveries: (groupId: string, endpointId: string) =>
    `${WEBHOOK_API.endpoint(groupId, endpointId)}/deliveries`,
  redeliver: (groupId: string, endpointId: string, deliveryId: string) =>
    `${WEBHOOK_API.deliveries(groupId, endpointId)}/${encodeURIComponent(deliveryId)}/redeliver`,
} as const;

/** The events an endpoint may subscribe to (libs/db's outbox writes them). */
export const WEBHOOK_EVENTS = ['request.created', 'request.status_changed', 'report.ready'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The type of the event "Send a test event" sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WebhookEventName = Type.Union([
  Type.Literal('request.created'),
  Type.Literal('request.status_changed'),
  Type.Literal('report.ready'),
]);

const Url = Type.String({
  minLength: 8,
  maxLength: 2000,
  pattern: '^https?://',
  description: 'Where the events are POSTed (http or https; private and local addresses are refused).',
});
const Events = Type.Array(WebhookEventName, {
  minItems: 1,
  uniqueItems: true,
  description: 'The events the endpoint receives.',
});
const Description = Type.String({ maxLength: 500, description: 'What the endpoint is (shown in the list).' });

export const CreateWebhookBody = Type.Object({
  url: Url,
  description: Type.Optional(Description),
  events: Events,
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(Url),
  description: Type.Optional(Description),
  events: Type.Optional(Events),
  /** false disables the endpoint; true enables it again (and forgets its failures). */
  enabled: Type.Optional(Type.Boolean()),
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WebhookEndpoint = Type.Object({
  _id: Type.String(),
  groupId: Type.String(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledAt: nullable(Type.String()),
  disabledReason: nullable(Type.String()),
  /** The first failure since the last success (null: not failing). */
  failingSince: nullable(Type.String()),
  createdBy: nullable(Type.String()),
  createdAt: Type.String(),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** Creation and rotation answer the secret (`whsec_…`), this once. */
export const WebhookEndpointWithSecret = Type.Composite([
  WebhookEndpoint,
  Type.Object({ secret: Type.String({ description: 'The signing secret, shown this once.' }) }),
]);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = Type.Object({
  group: Type.Object({ _id: Type.String(), name: Type.String() }),
  endpoints: Type.Array(WebhookEndpoint),
});
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const WebhookParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  endpointId: Type.String({ format: 'uuid' }),
});
export type WebhookParams = Static<typeof WebhookParams>;

export const WebhookDeliveryParams = Type.Composite([
  WebhookParams,
  Type.Object({ deliveryId: Type.String({ format: 'uuid' }) }),
]);
export type WebhookDeliveryParams = Static<typeof WebhookDeliveryParams>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookAttempt = Type.Object({
  at: Type.String(),
  /** The answer's HTTP status; null when there was none (refused, timed out). */
  statusCode: nullable(Type.Integer()),
  durationMs: Type.Integer(),
  error: nullable(Type.String()),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const WebhookDelivery = Type.Object({
  _id: Type.String(),
  /** The event's webhook-id (`msg_…`): the same on every attempt, for the receiver's de-duplication. */
  eventId: Type.String(),
  eventType: Type.String(),
  requestId: nullable(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastStatusCode: nullable(Type.Integer()),
  lastError: nullable(Type.String()),
  lastDurationMs: nullable(Type.Integer()),
  nextAttemptAt: nullable(Type.String()),
  createdAt: Type.String(),
  deliveredAt: nullable(Type.String()),
  attemptList: Type.Array(WebhookAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** Deliveries per page. */
export const WEBHOOK_DELIVERY_PAGE_SIZE = 25;

export const WebhookDeliveriesQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'From 1.' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type WebhookDeliveriesQuery = Static<typeof WebhookDeliveriesQuery>;

export const WebhookDeliveryPage = Type.Object({
  deliveries: Type.Array(WebhookDelivery),
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
});
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;

export const WebhookTestAnswer = Type.Object({ eventId: Type.String() });
export type WebhookTestAnswer = Static<typeof WebhookTestAnswer>;

/** The body of every event the portal sends. */
export interface WebhookPayload<Data = unknown> {
  type: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  data: Data;
}

export const WEBHOOK_TEXTS = {
  notFound: 'No such webhook endpoint in this group.',
  deliveryNotFound: 'No such delivery of this endpoint.',
  stillPending: 'This delivery is still being attempted; redeliver it once it has succeeded or failed.',
  ownGroup: "You may only manage your own group's webhooks.",
  noGroup: 'No such group.',
  privateTarget: (host: string, address: string) =>
    `The webhook URL's host ${host} resolves to ${address}, a private, loopback or link-local address; ` +
    'webhooks are only sent to public addresses.',
  unresolvable: (host: string) => `The webhook URL's host ${host} does not resolve.`,
  badUrl: 'The webhook URL must be an absolute http or https URL without credentials.',
} as const;
