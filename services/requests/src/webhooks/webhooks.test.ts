import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { createTestDatabase, recordRequestEvents, type TestDatabase } from '@portal/db';
import {
  bullConnection,
  checkWebhookTarget,
  folderMailer,
  isPrivateAddress,
  type Mailer,
} from '@portal/server-kit';
import { loadRequestsConfig, type WebhookSettings } from '../config';
import { openDatabase } from '../database';
import {
  WEBHOOK_DELIVERY_QUEUE,
  queueDelivery,
  queueDispatch,
  startWebhookWorkers,
  type WebhookWorkers,
} from './workers';
import { fanOut, readEvent } from './store';

// Webhook delivery on the real PostgreSQL (a throwaway database) and Redis (a queue prefix per test), to a
// receiver this file runs on 127.0.0.1 (so the tests allow private targets, except where they check the
// refusal). Nothing is timed: the tests wait for the database or the receiver to show the outcome.

jest.setTimeout(60_000);

const redisUrl = loadRequestsConfig().redisUrl;
const mailDir = mkdtempSync(join(tmpdir(), 'webhooks-mail-'));
let db: TestDatabase;
let ds: DataSource;
let groupId: string;
const running: WebhookWorkers[] = [];
const rawWorkers: Worker[] = [];

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
/** How the receiver answers the next calls (status codes in turn; 200 when the list is empty). */
const answers: number[] = [];
let receiver: http.Server;
let receiverUrl: string;

const settings = (overrides: Partial<WebhookSettings> = {}): WebhookSettings => ({
  allowPrivateTargets: true,
  retryScheduleMs: [100, 200, 300],
  disableAfterMs: 24 * 3600 * 1000,
  timeoutMs: 5000,
  sweepIntervalMs: 60_000,
  concurrency: 4,
  mailFrom: 'Portal <no-reply@portal.test>',
  mailDir,
  ...overrides,
});
const silentLog = { info: () => undefined };
const mailer: Mailer = folderMailer(mailDir, 'Portal <no-reply@portal.test>', silentLog);

async function startWorkers(overrides: Partial<WebhookSettings> = {}, extra: { listen?: boolean } = {}) {
  const workers = await startWebhookWorkers({
    ds,
    databaseUrl: db.url,
    redisUrl,
    prefix: `webhooks-test-${randomUUID().slice(0, 8)}`,
    settings: settings(overrides),
    mailer,
    lockDurationMs: 1000,
    stalledIntervalMs: 300,
    ...extra,
  });
  running.push(workers);
  return workers;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Gave up waiting for ${what}`);
}

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function createEndpoint(options: { url?: string; events?: string[]; failingSince?: string } = {}) {
  const key = secret();
  const [row] = (await ds.query(
    `INSERT INTO webhooks.endpoints (group_id, url, events, secret, failing_since)
     VALUES ($1, $2, $3, $4, $5::timestamptz) RETURNING id`,
    [
      groupId,
      options.url ?? `${receiverUrl}/hook/${randomUUID()}`,
      options.events ?? ['request.created', 'request.status_changed', 'report.ready'],
      key,
      options.failingSince ?? null,
    ],
  )) as { id: string }[];
  return { id: row.id, secret: key };
}

async function createRequest(): Promise<string> {
  const [row] = (await ds.query(
    `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, group_id, group_name,
       group_code, address)
     SELECT 'SAVI', 'New', u.id, u.name, u.email, g.id, g.name, g.code, '12 Dorp Street, Stellenbosch'
       FROM identity.users u JOIN identity.groups g ON g.id = u.group_id WHERE u.email = 'user@portal.test'
     RETURNING id`,
  )) as { id: string }[];
  return row.id;
}

/** A status change with its event, as services/requests writes them: in one transaction. */
async function changeStatus(requestId: string, status = 'In progress'): Promise<string[]> {
  return ds.transaction(async (em) => {
    await em.query('UPDATE requests.requests SET status = $2 WHERE id = $1', [requestId, status]);
    return recordRequestEvents(em, 'request.status_changed', [requestId]);
  });
}

const delivery = async (eventId: string, endpointId: string) =>
  (
    (await ds.query('SELECT * FROM webhooks.deliveries WHERE event_id = $1 AND endpoint_id = $2', [
      eventId,
      endpointId,
    ])) as {
      id: string;
      status: string;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
    }[]
  )[0];

const finished = (eventId: string, endpointId: string) =>
  waitFor(`the delivery of ${eventId}`, async () => {
    const row = await delivery(eventId, endpointId);
    return row && row.status !== 'pending' ? row : null;
  });

const receivedFor = (endpointPath: string) => received.filter((message) => message.path === endpointPath);
const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  db = await createTestDatabase({ seed: true });
  ds = await openDatabase(db.url);
  [{ id: groupId }] = (await ds.query(
    `SELECT g.id FROM identity.groups g JOIN identity.users u ON u.group_id = g.id WHERE u.email = 'user@portal.test'`,
  )) as { id: string }[];
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.statusCode = answers.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(rawWorkers.splice(0).map((worker) => worker.close(true)));
  // Each test's queues (its prefix) are removed with their sweep scheduler: nothing is left in Redis.
  for (const workers of running.splice(0)) {
    await Promise.all([workers.dispatchWorker.close(), workers.deliveryWorker.close()]);
    await workers.dispatchQueue.obliterate({ force: true });
    await workers.deliveryQueue.obliterate({ force: true });
    await workers.close();
  }
  answers.length = 0;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await ds?.destroy();
  await db?.drop();
});

describe('the outbox', () => {
  it('writes an event only with a committed change, and only for a group with a subscribed endpoint', async () => {
    const requestId = await createRequest();
    expect(await changeStatus(requestId)).toEqual([]); // no endpoint yet
    const endpoint = await createEndpoint({ events: ['report.ready'] });
    expect(await changeStatus(requestId)).toEqual([]); // not subscribed to status changes
    await ds.query('UPDATE webhooks.endpoints SET events = $2 WHERE id = $1', [
      endpoint.id,
      ['request.status_changed'],
    ]);
    await expect(
      ds.transaction(async (em) => {
        await recordRequestEvents(em, 'request.status_changed', [requestId]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await ds.query('SELECT id FROM webhooks.events WHERE request_id = $1', [requestId])).toEqual([]);
    const [eventId] = await changeStatus(requestId);
    expect(eventId).toMatch(/^msg_[0-9a-f]{32}$/);
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });
});

describe('delivery', () => {
  it('POSTs the request row signed the Standard Webhooks way', async () => {
    await startWorkers();
    const endpoint = await createEndpoint();
    const requestId = await createRequest();
    const [eventId] = await changeStatus(requestId, 'QC check');
    const row = await finished(eventId, endpoint.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 });

    const [message] = received.filter((m) => m.headers['webhook-id'] === eventId);
    const verified = new Webhook(endpoint.secret).verify(message.body, {
      'webhook-id': String(message.headers['webhook-id']),
      'webhook-timestamp': String(message.headers['webhook-timestamp']),
      'webhook-signature': String(message.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: { _id: string; status: string; gripReference: string } };
    expect(verified.type).toBe('request.status_changed');
    expect(verified.data).toMatchObject({ _id: requestId, status: 'QC check' });
    expect(verified.data.gripReference).toMatch(/^GRP-/);
    expect(message.headers['content-type']).toBe('application/json');
    // Another secret does not verify it.
    expect(() =>
      new Webhook(secret()).verify(message.body, message.headers as Record<string, string>),
    ).toThrow();
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });

  it('retries a 500 after the schedule and records each attempt', async () => {
    await startWorkers();
    const endpoint = await createEndpoint();
    answers.push(500, 503);
    const [eventId] = await changeStatus(await createRequest());
    const row = await finished(eventId, endpoint.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
    const attempts = (await ds.query(
      'SELECT status_code, error FROM webhooks.attempts WHERE delivery_id = $1 ORDER BY at, id',
      [row.id],
    )) as { status_code: number; error: string | null }[];
    expect(attempts.map((attempt) => attempt.status_code)).toEqual([500, 503, 200]);
    expect(attempts[0].error).toContain('500');
    // The same message each time: one webhook-id.
    const path = pathOf(await endpointUrl(endpoint.id));
    const ids = new Set(receivedFor(path).map((m) => m.headers['webhook-id']));
    expect([...ids]).toEqual([eventId]);
    // The endpoint's failures were forgotten on success.
    const [{ failing_since }] = (await ds.query(
      'SELECT failing_since FROM webhooks.endpoints WHERE id = $1',
      [endpoint.id],
    )) as { failing_since: Date | null }[];
    expect(failing_since).toBeNull();
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });

  it('fails a delivery after the last retry', async () => {
    await startWorkers({ retryScheduleMs: [50] });
    const endpoint = await createEndpoint();
    answers.push(500, 500);
    const [eventId] = await changeStatus(await createRequest());
    expect(await finished(eventId, endpoint.id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status_code: 500,
    });
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });

  it('delivers an event once per endpoint even when it is dispatched twice', async () => {
    const workers = await startWorkers();
    const first = await createEndpoint();
    const second = await createEndpoint();
    const [eventId] = await changeStatus(await createRequest());
    await queueDispatch(workers.dispatchQueue, eventId);
    await queueDispatch(workers.dispatchQueue, eventId);
    await finished(eventId, first.id);
    await finished(eventId, second.id);
    // Dispatched once more after delivery: the fan-out finds the deliveries made, none pending.
    const event = (await readEvent(ds, eventId))!;
    expect(await fanOut(ds, event)).toEqual([]);
    await queueDispatch(workers.dispatchQueue, eventId);
    await workers.sweep();
    for (const endpoint of [first, second]) {
      const messages = receivedFor(pathOf(await endpointUrl(endpoint.id))).filter(
        (m) => m.headers['webhook-id'] === eventId,
      );
      expect(messages).toHaveLength(1);
    }
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = ANY($1)', [[first.id, second.id]]);
  });

  it('loses no delivery when the worker sending it is killed', async () => {
    const workers = await startWorkers({}, { listen: false });
    // The real delivery worker steps aside; a worker that hangs forever takes the delivery, and is killed.
    await workers.deliveryWorker.close();
    const endpoint = await createEndpoint();
    const [eventId] = await changeStatus(await createRequest());
    const event = (await readEvent(ds, eventId))!;
    const [deliveryId] = await fanOut(ds, event);
    let taken = false;
    const doomed = new Worker(
      WEBHOOK_DELIVERY_QUEUE,
      () => {
        taken = true;
        return new Promise<void>(() => undefined);
      },
      {
        connection: bullConnection(redisUrl),
        prefix: workers.deliveryQueue.opts.prefix,
        lockDuration: 1000,
        stalledInterval: 300,
      },
    );
    rawWorkers.push(doomed);
    await queueDelivery(workers.deliveryQueue, deliveryId, [100]);
    await waitFor('the doomed worker to take the delivery', async () => taken);
    await doomed.close(true); // killed: its lock is never renewed, the job stays active
    expect((await delivery(eventId, endpoint.id)).status).toBe('pending');

    // A new worker process comes up: BullMQ's stalled check hands it the delivery.
    const next = await startWebhookWorkers({
      ds,
      databaseUrl: db.url,
      redisUrl,
      prefix: workers.deliveryQueue.opts.prefix!,
      settings: settings(),
      mailer,
      lockDurationMs: 1000,
      stalledIntervalMs: 300,
      listen: false,
    });
    running.push(next);
    expect(await finished(eventId, endpoint.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });

  it('dispatches an event whose notification nobody heard (the sweeper)', async () => {
    const endpoint = await createEndpoint();
    const [eventId] = await changeStatus(await createRequest()); // no worker is listening
    await ds.query(`UPDATE webhooks.events SET occurred_at = now() - interval '1 minute' WHERE id = $1`, [
      eventId,
    ]);
    const workers = await startWorkers({}, { listen: false });
    expect((await workers.sweep()).events).toBeGreaterThanOrEqual(1);
    expect(await finished(eventId, endpoint.id)).toMatchObject({ status: 'delivered' });
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });

  it('refuses a private target without the setting, at delivery time', async () => {
    await startWorkers({ allowPrivateTargets: false, retryScheduleMs: [] });
    const endpoint = await createEndpoint();
    const before = received.length;
    const [eventId] = await changeStatus(await createRequest());
    const row = await finished(eventId, endpoint.id);
    expect(row).toMatchObject({ status: 'failed', last_status_code: null });
    expect(row.last_error).toMatch(/private, loopback or link-local/);
    expect(received).toHaveLength(before);
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });

  it('disables an endpoint failing for a day and tells its admins by mail', async () => {
    await startWorkers();
    const endpoint = await createEndpoint({
      failingSince: new Date(Date.now() - 25 * 3600 * 1000).toISOString(),
    });
    answers.push(500);
    const [eventId] = await changeStatus(await createRequest());
    const row = await finished(eventId, endpoint.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    const [state] = (await ds.query('SELECT enabled, disabled_reason FROM webhooks.endpoints WHERE id = $1', [
      endpoint.id,
    ])) as { enabled: boolean; disabled_reason: string }[];
    expect(state.enabled).toBe(false);
    expect(state.disabled_reason).toContain('a day');
    const url = await endpointUrl(endpoint.id);
    const mail = await waitFor('the mail', async () =>
      readdirSync(mailDir)
        .map(
          (file) =>
            JSON.parse(readFileSync(join(mailDir, file), 'utf8')) as {
              to: string;
              subject: string;
              text: string;
            },
        )
        .find((message) => message.to === 'admin@portal.test' && message.text.includes(url)),
    );
    expect(mail.subject).toBe('A webhook endpoint was disabled');
    // A disabled endpoint gets no more events.
    expect(await changeStatus(await createRequest())).toEqual([]);
    await ds.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpoint.id]);
  });
});

describe('the SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '41.0.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('checks the resolved addresses of a name, unless allowed', async () => {
    await expect(checkWebhookTarget(new URL('http://localhost:8080/hook'), false)).rejects.toThrow(
      /loopback/,
    );
    await expect(checkWebhookTarget(new URL('http://[::1]/hook'), false)).rejects.toThrow(/::1/);
    await expect(checkWebhookTarget(new URL('http://127.0.0.1/hook'), true)).resolves.toEqual(['127.0.0.1']);
  });
});

async function endpointUrl(id: string): Promise<string> {
  const [row] = (await ds.query('SELECT url FROM webhooks.endpoints WHERE id = $1', [id])) as {
    url: string;
  }[];
  return row.url;
}
