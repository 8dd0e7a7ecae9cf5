import {
  WEBHOOK_API,
  WEBHOOK_TEXTS,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookEndpointWithSecret,
} from '@portal/contracts';
import { GROUP_ADMIN_TEXT } from '../access';
import {
  ADMIN,
  PLAIN,
  RATES_EDITOR,
  asAdmin,
  call,
  env,
  latestAudit,
  asGroupAdmin,
  makePlainAdminOfKmi,
  useServicesAdminApp,
} from '../testing/harness';

/**
 * A group's webhook endpoints: created with a secret shown once, listed without it, changed, rotated,
 * tested, their deliveries paged and redelivered; private targets refused (the test app does not allow
 * them); who may (administrators any group, a group's admin their own, others 403). Delivery itself is
 * the requests worker's (services/requests/src/webhooks/webhooks.test.ts).
 */

useServicesAdminApp();

/** A public address literal: checked without DNS, never called (no worker runs here). */
const PUBLIC_URL = 'https://93.184.215.14/hooks/portal';
const EVENTS = ['request.status_changed', 'report.ready'];

describe('webhook endpoints', () => {
  let kmi: string;
  let hvv: string;

  beforeAll(async () => {
    ({ kmi, hvv } = await makePlainAdminOfKmi());
  });

  const create = async (groupId = kmi, body: object = {}) => {
    const res = await asAdmin('POST', WEBHOOK_API.groupWebhooks(groupId), {
      url: PUBLIC_URL,
      description: 'Claims system',
      events: EVENTS,
      ...body,
    });
    expect(res.statusCode).toBe(201);
    return res.json() as WebhookEndpointWithSecret;
  };

  it('creates an endpoint: the secret shown once, never listed, the change audited', async () => {
    const created = await create();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    expect(created).toMatchObject({ groupId: kmi, url: PUBLIC_URL, events: EVENTS, enabled: true });
    const list = (await asAdmin('GET', WEBHOOK_API.groupWebhooks(kmi))).json() as WebhookEndpointList;
    expect(list.endpoints.map((endpoint) => endpoint._id)).toContain(created._id);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const audit = await latestAudit('webhookEndpoint', created._id);
    expect(audit?.message).toContain('created');
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1'],
    ['http://10.0.0.5/hook', '10.0.0.5'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[::1]:3000/hook', '::1'],
    ['http://[fd00::1]/hook', 'fd00::1'],
    ['http://100.64.1.1/hook', '100.64.1.1'],
    ['http://localhost:9000/hook', '127.0.0.1'],
  ])('refuses the private target %s without the setting', async (url, address) => {
    const res = await asAdmin('POST', WEBHOOK_API.groupWebhooks(kmi), { url, events: EVENTS });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('private, loopback or link-local');
    if (!url.includes('localhost')) expect(res.json().message).toContain(address);
  });

  it('refuses a URL with credentials or another scheme, and unknown events', async () => {
    for (const url of ['https://user:pw@93.184.215.14/hook', 'ftp://93.184.215.14/hook']) {
      const res = await asAdmin('POST', WEBHOOK_API.groupWebhooks(kmi), { url, events: EVENTS });
      expect(res.statusCode).toBe(400);
    }
    const res = await asAdmin('POST', WEBHOOK_API.groupWebhooks(kmi), {
      url: PUBLIC_URL,
      events: ['user.deleted'],
    });
    expect(res.statusCode).toBe(400);
  });

  it('changes, disables and enables an endpoint (enabling forgets its failures)', async () => {
    const created = await create();
    await env.appDatabase.query(
      `UPDATE webhooks.endpoints SET enabled = false, disabled_at = now(), disabled_reason = 'Failing',
              failing_since = now() - interval '2 days' WHERE id = $1`,
      [created._id],
    );
    const res = await asAdmin('PUT', WEBHOOK_API.endpoint(kmi, created._id), {
      enabled: true,
      events: ['request.created'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      enabled: true,
      events: ['request.created'],
      disabledReason: null,
      failingSince: null,
    });
    const off = (await asAdmin('PUT', WEBHOOK_API.endpoint(kmi, created._id), { enabled: false })).json();
    expect(off).toMatchObject({ enabled: false, disabledReason: 'Disabled by Thandiwe Nkosi.' });
    const refused = await asAdmin('PUT', WEBHOOK_API.endpoint(kmi, created._id), { url: 'http://10.1.1.1/' });
    expect(refused.statusCode).toBe(400);
  });

  it('rotates the secret: a new one, shown once, stored', async () => {
    const created = await create();
    const res = await asAdmin('POST', WEBHOOK_API.rotateSecret(kmi, created._id));
    expect(res.statusCode).toBe(200);
    const rotated = res.json() as WebhookEndpointWithSecret;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const [{ secret }] = (await env.appDatabase.query('SELECT secret FROM webhooks.endpoints WHERE id = $1', [
      created._id,
    ])) as { secret: string }[];
    expect(secret).toBe(rotated.secret);
  });

  it('sends a test event to the one endpoint, and lists and redelivers its deliveries', async () => {
    const created = await create();
    const res = await asAdmin('POST', WEBHOOK_API.test(kmi, created._id));
    expect(res.statusCode).toBe(202);
    const { eventId } = res.json() as { eventId: string };
    const [event] = (await env.appDatabase.query('SELECT * FROM webhooks.events WHERE id = $1', [
      eventId,
    ])) as {
      type: string;
      endpoint_id: string;
      payload: { type: string; data: { endpointId: string } };
    }[];
    expect(event).toMatchObject({ type: 'webhook.test', endpoint_id: created._id });
    expect(event.payload.data.endpointId).toBe(created._id);

    // The worker's part, written here: a delivery with two attempts, the last one failed.
    const [{ id: deliveryId }] = (await env.appDatabase.query(
      `INSERT INTO webhooks.deliveries (event_id, endpoint_id, status, attempts, last_status_code, last_error)
       VALUES ($1, $2, 'pending', 2, 500, 'The endpoint answered HTTP 500.') RETURNING id`,
      [eventId, created._id],
    )) as { id: string }[];
    await env.appDatabase.query(
      `INSERT INTO webhooks.attempts (delivery_id, status_code, duration_ms, error, at)
       VALUES ($1, 502, 40, 'The endpoint answered HTTP 502.', now() - interval '1 minute'),
              ($1, 500, 35, 'The endpoint answered HTTP 500.', now())`,
      [deliveryId],
    );
    const page = (
      await asAdmin('GET', `${WEBHOOK_API.deliveries(kmi, created._id)}?pageSize=10`)
    ).json() as WebhookDeliveryPage;
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 10 });
    expect(page.deliveries[0]).toMatchObject({
      _id: deliveryId,
      eventId,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 2,
      lastStatusCode: 500,
    });
    expect(page.deliveries[0].attemptList.map((attempt) => attempt.statusCode)).toEqual([502, 500]);

    // Still being attempted: left alone. Failed: sent again, pending from now.
    const busy = await asAdmin('POST', WEBHOOK_API.redeliver(kmi, created._id, deliveryId));
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(WEBHOOK_TEXTS.stillPending);
    await env.appDatabase.query(`UPDATE webhooks.deliveries SET status = 'failed' WHERE id = $1`, [
      deliveryId,
    ]);
    const again = await asAdmin('POST', WEBHOOK_API.redeliver(kmi, created._id, deliveryId));
    expect(again.statusCode).toBe(202);
    const [{ status }] = (await env.appDatabase.query(
      'SELECT status FROM webhooks.deliveries WHERE id = $1',
      [deliveryId],
    )) as { status: string }[];
    expect(status).toBe('pending');
    // A delivery of another endpoint is not found under this one.
    const other = await create();
    expect((await asAdmin('POST', WEBHOOK_API.redeliver(kmi, other._id, deliveryId))).statusCode).toBe(404);
  });

  it('deletes an endpoint', async () => {
    const created = await create();
    expect((await asAdmin('DELETE', WEBHOOK_API.endpoint(kmi, created._id))).statusCode).toBe(200);
    expect((await asAdmin('PUT', WEBHOOK_API.endpoint(kmi, created._id), { enabled: true })).statusCode).toBe(
      404,
    );
    // Another group's endpoint is not found under this group.
    const hvvEndpoint = await create(hvv);
    expect((await asAdmin('DELETE', WEBHOOK_API.endpoint(kmi, hvvEndpoint._id))).statusCode).toBe(404);
  });

  describe('who may', () => {
    it("lets a group's admin manage their own group's webhooks", async () => {
      const res = await asGroupAdmin('POST', WEBHOOK_API.groupWebhooks(kmi), {
        url: PUBLIC_URL,
        events: EVENTS,
      });
      expect(res.statusCode).toBe(201);
      const created = res.json() as WebhookEndpointWithSecret;
      expect((await asGroupAdmin('GET', WEBHOOK_API.groupWebhooks(kmi))).statusCode).toBe(200);
      expect((await asGroupAdmin('POST', WEBHOOK_API.rotateSecret(kmi, created._id))).statusCode).toBe(200);
      expect((await asGroupAdmin('GET', WEBHOOK_API.deliveries(kmi, created._id))).statusCode).toBe(200);
      expect((await asGroupAdmin('DELETE', WEBHOOK_API.endpoint(kmi, created._id))).statusCode).toBe(200);
    });

    it("refuses a group's admin another group's webhooks (403)", async () => {
      const hvvEndpoint = (
        await asAdmin('POST', WEBHOOK_API.groupWebhooks(hvv), { url: PUBLIC_URL, events: EVENTS })
      ).json() as WebhookEndpoint;
      for (const [method, url] of [
        ['GET', WEBHOOK_API.groupWebhooks(hvv)],
        ['POST', WEBHOOK_API.groupWebhooks(hvv)],
        ['PUT', WEBHOOK_API.endpoint(hvv, hvvEndpoint._id)],
        ['DELETE', WEBHOOK_API.endpoint(hvv, hvvEndpoint._id)],
        ['POST', WEBHOOK_API.rotateSecret(hvv, hvvEndpoint._id)],
        ['POST', WEBHOOK_API.test(hvv, hvvEndpoint._id)],
        ['GET', WEBHOOK_API.deliveries(hvv, hvvEndpoint._id)],
      ] as const) {
        const res = await asGroupAdmin(
          method,
          url,
          method === 'GET' ? undefined : { url: PUBLIC_URL, events: EVENTS },
        );
        expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 403 });
        expect(res.json().message).toBe(GROUP_ADMIN_TEXT.ownGroupOnly);
      }
    });

    it('refuses everyone else (403) and anonymous callers (401)', async () => {
      for (const email of [PLAIN, RATES_EDITOR]) {
        expect((await call(email, 'GET', WEBHOOK_API.groupWebhooks(kmi))).statusCode).toBe(403);
        expect(
          (await call(email, 'POST', WEBHOOK_API.groupWebhooks(kmi), { url: PUBLIC_URL, events: EVENTS }))
            .statusCode,
        ).toBe(403);
      }
      expect((await call(null, 'GET', WEBHOOK_API.groupWebhooks(kmi))).statusCode).toBe(401);
      expect((await call(ADMIN, 'GET', WEBHOOK_API.groupWebhooks(kmi))).statusCode).toBe(200);
    });
  });
});
