import {
  CreateWebhookBody,
  errorAnswers,
  IdParams,
  ROLE,
  UpdateWebhookBody,
  WEBHOOK_DELIVERY_PAGE_SIZE,
  WEBHOOK_ROUTES,
  WEBHOOK_TEXTS,
  WebhookDeliveriesQuery,
  WebhookDeliveryPage,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookParams,
  WebhookTestAnswer,
} from '@portal/contracts';
import {
  WebhookTargetRefused,
  badRequest,
  checkWebhookTarget,
  conflict,
  notFound,
  type TypedFastify,
} from '@portal/server-kit';
import { assertAdminOfGroup, type Guard } from '../access';
import type { ServicesAdminContext } from '../context';
import { recordChange } from '../store/audit';
import {
  deleteEndpoint,
  endpointDeliveries,
  groupEndpoint,
  groupEndpoints,
  groupNamed,
  insertEndpoint,
  insertTestEvent,
  newWebhookSecret,
  redeliver,
  rotateSecret,
  updateEndpoint,
} from '../store/webhooks';

/**
 * A group's webhook endpoints (issue 22): administrators for any group, the group's own admin for theirs
 * (the route table's GROUP_INTEGRATION and assertAdminOfGroup). The secret is answered at creation and at
 * rotation only. A URL whose host resolves to a private, loopback or link-local address is refused (400)
 * unless the portal allows such targets (WEBHOOKS_ALLOW_PRIVATE_TARGETS); the worker checks again at each
 * delivery. Deliveries are sent by the requests worker (services/requests/src/webhooks/).
 */

const TAGS = ['Webhooks'];

/** The endpoint's fields as audited: never its secret. */
const audited = (endpoint: WebhookEndpoint) => ({
  groupId: endpoint.groupId,
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events,
  enabled: endpoint.enabled,
});

/** The URL as stored, or a 400: absolute http(s), no credentials, a host that may be delivered to. */
async function checkedUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest(WEBHOOK_TEXTS.badUrl);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || !url.hostname)
    throw badRequest(WEBHOOK_TEXTS.badUrl);
  try {
    await checkWebhookTarget(url, allowPrivate);
  } catch (err) {
    if (!(err instanceof WebhookTargetRefused)) throw err;
    throw badRequest(
      err.address ? WEBHOOK_TEXTS.privateTarget(err.host, err.address) : WEBHOOK_TEXTS.unresolvable(err.host),
    );
  }
  return url.toString();
}

export async function webhookRoutes(app: TypedFastify, { ds, config }: ServicesAdminContext, guard: Guard) {
  const integration = guard(ROLE.admin, ROLE.groupAdmin);
  const allowPrivate = config.webhooksAllowPrivateTargets;

  /** The group's endpoint, for a caller who may manage the group's webhooks (403 / 404 otherwise). */
  const endpointOr404 = async (
    actor: Parameters<typeof assertAdminOfGroup>[1],
    groupId: string,
    endpointId: string,
  ) => {
    await assertAdminOfGroup(ds, actor, groupId);
    const endpoint = await groupEndpoint(ds, groupId, endpointId);
    if (!endpoint) throw notFound(WEBHOOK_TEXTS.notFound);
    return endpoint;
  };

  app.get(
    WEBHOOK_ROUTES.groupWebhooks,
    {
      onRequest: integration,
      schema: {
        summary: "List a group's webhook endpoints",
        description:
          "The group's endpoints in the order they were made, with the events they receive and whether they " +
          'are enabled, failing or disabled (never their secrets).',
        tags: TAGS,
        params: IdParams,
        response: { 200: WebhookEndpointList, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId } = request.params;
      await assertAdminOfGroup(ds, request.actor, groupId);
      const group = await groupNamed(ds, groupId);
      if (!group) throw notFound(WEBHOOK_TEXTS.noGroup);
      return { group, endpoints: await groupEndpoints(ds, groupId) };
    },
  );

  app.post(
    WEBHOOK_ROUTES.groupWebhooks,
    {
      onRequest: integration,
      schema: {
        summary: 'Create a webhook endpoint for a group',
        description:
          "Adds an endpoint that receives the group's events (request.created, request.status_changed, " +
          'report.ready), signed with a new secret that this answer carries — the only time it is shown.',
        tags: TAGS,
        params: IdParams,
        body: CreateWebhookBody,
        response: { 201: WebhookEndpointWithSecret, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id: groupId } = request.params;
      const { actor, body } = request;
      await assertAdminOfGroup(ds, actor, groupId);
      if (!(await groupNamed(ds, groupId))) throw notFound(WEBHOOK_TEXTS.noGroup);
      const url = await checkedUrl(body.url, allowPrivate);
      const secret = newWebhookSecret();
      const endpoint = await ds.transaction(async (em) => {
        const created = await insertEndpoint(em, {
          groupId,
          url,
          description: body.description?.trim() ?? '',
          events: body.events,
          secret,
          createdBy: actor.id,
        });
        await recordChange(em, request, {
          entity: 'webhookEndpoint',
          entityId: created._id,
          message: `Webhook endpoint ${created.url} created`,
          before: null,
          after: audited(created),
        });
        return created;
      });
      return reply.status(201).send({ ...endpoint, secret });
    },
  );

  app.put(
    WEBHOOK_ROUTES.endpoint,
    {
      onRequest: integration,
      schema: {
        summary: 'Change a webhook endpoint',
        description:
          'Changes the URL, description or events, or disables or enables the endpoint; enabling it again ' +
          'forgets its failures. The secret stays (rotate it on its own).',
        tags: TAGS,
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpoint, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId, endpointId } = request.params;
      const { actor, body } = request;
      const before = await endpointOr404(actor, groupId, endpointId);
      const url = body.url === undefined ? undefined : await checkedUrl(body.url, allowPrivate);
      return ds.transaction(async (em) => {
        const current = await groupEndpoint(em, groupId, endpointId, true);
        if (!current) throw notFound(WEBHOOK_TEXTS.notFound);
        const after = await updateEndpoint(
          em,
          current,
          { url, description: body.description?.trim(), events: body.events, enabled: body.enabled },
          actor.name,
        );
        await recordChange(em, request, {
          entity: 'webhookEndpoint',
          entityId: endpointId,
          message: `Webhook endpoint ${after.url} changed`,
          before: audited(before),
          after: audited(after),
        });
        return after;
      });
    },
  );

  app.delete(
    WEBHOOK_ROUTES.endpoint,
    {
      onRequest: integration,
      schema: {
        summary: 'Delete a webhook endpoint',
        description:
          'Removes the endpoint with its deliveries; nothing more is sent to it. Answers the endpoint as it was.',
        tags: TAGS,
        params: WebhookParams,
        response: { 200: WebhookEndpoint, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId, endpointId } = request.params;
      const endpoint = await endpointOr404(request.actor, groupId, endpointId);
      await ds.transaction(async (em) => {
        await deleteEndpoint(em, endpointId);
        await recordChange(em, request, {
          entity: 'webhookEndpoint',
          entityId: endpointId,
          message: `Webhook endpoint ${endpoint.url} deleted`,
          before: audited(endpoint),
          after: null,
        });
      });
      return endpoint;
    },
  );

  app.post(
    WEBHOOK_ROUTES.rotateSecret,
    {
      onRequest: integration,
      schema: {
        summary: "Rotate a webhook endpoint's secret",
        description:
          'Makes a new signing secret, answered this once; deliveries from now on are signed with it only.',
        tags: TAGS,
        params: WebhookParams,
        response: { 200: WebhookEndpointWithSecret, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId, endpointId } = request.params;
      const endpoint = await endpointOr404(request.actor, groupId, endpointId);
      const secret = newWebhookSecret();
      await ds.transaction(async (em) => {
        await rotateSecret(em, endpointId, secret);
        await recordChange(em, request, {
          entity: 'webhookEndpoint',
          entityId: endpointId,
          message: `Webhook endpoint ${endpoint.url}: secret rotated`,
          before: null,
          after: null,
        });
      });
      return { ...endpoint, secret };
    },
  );

  app.post(
    WEBHOOK_ROUTES.test,
    {
      onRequest: integration,
      schema: {
        summary: 'Send a test event to a webhook endpoint',
        description:
          'Queues a signed `webhook.test` event for this endpoint only (even a disabled one); its delivery ' +
          "appears in the endpoint's deliveries.",
        tags: TAGS,
        params: WebhookParams,
        response: { 202: WebhookTestAnswer, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id: groupId, endpointId } = request.params;
      const endpoint = await endpointOr404(request.actor, groupId, endpointId);
      const eventId = await ds.transaction((em) => insertTestEvent(em, endpoint, request.actor));
      return reply.status(202).send({ eventId });
    },
  );

  app.get(
    WEBHOOK_ROUTES.deliveries,
    {
      onRequest: integration,
      schema: {
        summary: "List a webhook endpoint's deliveries",
        description:
          'The deliveries to the endpoint, newest first, a page at a time: status, answer code, duration, ' +
          'the next attempt, and every attempt made.',
        tags: TAGS,
        params: WebhookParams,
        querystring: WebhookDeliveriesQuery,
        response: { 200: WebhookDeliveryPage, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId, endpointId } = request.params;
      await endpointOr404(request.actor, groupId, endpointId);
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? WEBHOOK_DELIVERY_PAGE_SIZE;
      const { deliveries, total } = await endpointDeliveries(ds, endpointId, page, pageSize);
      return { deliveries, total, page, pageSize };
    },
  );

  app.post(
    WEBHOOK_ROUTES.redeliver,
    {
      onRequest: integration,
      schema: {
        summary: 'Send a webhook delivery again',
        description:
          'Sends a delivered or failed delivery again, now, with the same webhook-id (receivers de-duplicate ' +
          'on it); a delivery still being attempted is left alone (409).',
        tags: TAGS,
        params: WebhookDeliveryParams,
        response: { 202: WebhookTestAnswer, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { id: groupId, endpointId, deliveryId } = request.params;
      await endpointOr404(request.actor, groupId, endpointId);
      const before = await ds.transaction((em) => redeliver(em, endpointId, deliveryId));
      if (before === null) throw notFound(WEBHOOK_TEXTS.deliveryNotFound);
      if (before === 'pending') throw conflict(WEBHOOK_TEXTS.stillPending);
      const [{ event_id: eventId }] = (await ds.query(
        'SELECT event_id FROM webhooks.deliveries WHERE id = $1',
        [deliveryId],
      )) as { event_id: string }[];
      return reply.status(202).send({ eventId });
    },
  );
}
