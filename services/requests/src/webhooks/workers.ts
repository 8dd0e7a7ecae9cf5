import { startPgListener, type PgListener } from '../pgListener';
import { Queue, Worker, type Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { PORTAL_QUEUES } from '@portal/contracts';
import { WEBHOOK_DELIVERIES_CHANNEL, WEBHOOK_EVENTS_CHANNEL } from '@portal/db';
import { bullConnection, bullProducerConnection, closeQueue, type Mailer } from '@portal/server-kit';
import type { WebhookSettings } from '../config';
import { tellEndpointDisabled } from './mail';
import { postSigned } from './post';
import {
  abandonDelivery,
  eventPayload,
  fanOut,
  overdueDeliveries,
  readDeliveryTarget,
  readEvent,
  recordFailure,
  recordSuccess,
  undispatchedEvents,
} from './store';

/**
 * Webhook delivery (issue 22), run by the requests worker process (services/requests/src/worker.ts):
 *
 * 1. An event is written to the outbox (webhooks.events) in its change's transaction, with a PostgreSQL
 *    notification sent at commit. The listener here hears it and queues the event's fan-out on
 *    'webhook-dispatch' (job id = the event's id, so it is queued once however often it is heard).
 * 2. The fan-out makes the event's body once (the request's row) and one delivery per endpoint (unique per
 *    event and endpoint) and queues each on 'webhook-delivery' (job id = the delivery's id).
 * 3. A delivery POSTs the signed body (standardwebhooks) and records the attempt. A 2xx delivers it;
 *    anything else is retried after the next pause of the schedule (BullMQ's custom backoff), and after
 *    the last one the delivery has failed. An endpoint failing for a day (since its last success) is
 *    disabled and its group's admins are told by mail.
 * 4. The sweeper (a repeatable job on 'webhook-dispatch') queues what a crash left behind: events not
 *    dispatched (a notification nobody heard) and pending deliveries overdue (their job lost with Redis).
 *    A worker killed mid-delivery leaves its job locked; BullMQ's stalled check gives it to another.
 * A delivery is sent again only while it is pending, so a dispatch run twice sends once per endpoint
 * (a receiver still de-duplicates on webhook-id: a worker killed after the POST and before recording it
 * sends the same message again — at least once, never lost).
 */

export const WEBHOOK_DISPATCH_QUEUE = PORTAL_QUEUES.webhookDispatch;
export const WEBHOOK_DELIVERY_QUEUE = PORTAL_QUEUES.webhookDelivery;
const SWEEP_SCHEDULER = 'webhook-sweep';
/** An undispatched event this old was missed by the listener (it is normally dispatched in milliseconds). */
const MISSED_AFTER_MS = 5_000;
/** A pending delivery this far past its attempt time has lost its job. */
const OVERDUE_AFTER_MS = 60_000;

export interface WebhookWorkerOptions {
  ds: DataSource;
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  settings: WebhookSettings;
  mailer: Mailer;
  log?: (level: 'info' | 'error', msg: string, detail?: Record<string, unknown>) => void;
  /** Lock and stalled-check times of the delivery worker (tests shorten them). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Run the listener (default true); a test of the sweeper runs without it. */
  listen?: boolean;
}

export interface WebhookWorkers {
  dispatchQueue: Queue;
  deliveryQueue: Queue;
  dispatchWorker: Worker;
  deliveryWorker: Worker;
  /** Runs the sweeper once now (the repeatable job does it every sweepIntervalMs). */
  sweep(): Promise<{ events: number; deliveries: number }>;
  close(): Promise<void>;
}

/** Queues an event's fan-out (idempotent: the job id is the event's). */
export const queueDispatch = (queue: Queue, eventId: string) =>
  queue.add(
    'dispatch',
    { eventId },
    {
      jobId: eventId,
      attempts: 10,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  );

/**
 * Queues a delivery (idempotent while its job exists: the job id is the delivery's). Its retries follow
 * the schedule: the job's attempts are the first try and one per pause.
 */
export const queueDelivery = (queue: Queue, deliveryId: string, schedule: number[]) =>
  queue.add(
    'deliver',
    { deliveryId },
    {
      jobId: deliveryId,
      attempts: schedule.length + 1,
      backoff: { type: 'schedule' },
      removeOnComplete: true,
      removeOnFail: true,
    },
  );

/** The pause before retry `attemptsMade` (1: after the first try), from the schedule. */
export const retryPause = (schedule: number[], attemptsMade: number) =>
  schedule[Math.min(Math.max(attemptsMade, 1), schedule.length) - 1];

class DeliveryFailed extends Error {}

export async function startWebhookWorkers(options: WebhookWorkerOptions): Promise<WebhookWorkers> {
  const { ds, settings } = options;
  const log = options.log ?? (() => undefined);
  const dispatchQueue = new Queue(WEBHOOK_DISPATCH_QUEUE, {
    connection: bullProducerConnection(options.redisUrl),
    prefix: options.prefix,
  });
  const deliveryQueue = new Queue(WEBHOOK_DELIVERY_QUEUE, {
    connection: bullProducerConnection(options.redisUrl),
    prefix: options.prefix,
  });

  const sweep = async () => {
    const events = await undispatchedEvents(ds, MISSED_AFTER_MS);
    for (const id of events) await queueDispatch(dispatchQueue, id);
    const deliveries = await overdueDeliveries(ds, OVERDUE_AFTER_MS);
    for (const id of deliveries) await queueDelivery(deliveryQueue, id, settings.retryScheduleMs);
    if (events.length + deliveries.length > 0)
      log('info', 'webhook sweep queued what was left behind', {
        events: events.length,
        deliveries: deliveries.length,
      });
    return { events: events.length, deliveries: deliveries.length };
  };

  const dispatchWorker = new Worker(
    WEBHOOK_DISPATCH_QUEUE,
    async (job: Job<{ eventId?: string }>) => {
      if (job.name === 'sweep') {
        await sweep();
        return;
      }
      const event = job.data.eventId ? await readEvent(ds, job.data.eventId) : null;
      if (!event) return;
      await eventPayload(ds, event);
      const deliveries = await fanOut(ds, event);
      for (const id of deliveries) await queueDelivery(deliveryQueue, id, settings.retryScheduleMs);
    },
    { connection: bullConnection(options.redisUrl), prefix: options.prefix, concurrency: 4 },
  );

  const deliveryWorker = new Worker(
    WEBHOOK_DELIVERY_QUEUE,
    async (job: Job<{ deliveryId: string }>) => {
      const target = await readDeliveryTarget(ds, job.data.deliveryId);
      // Delivered or failed already (a second queueing of a finished delivery), or gone with its endpoint.
      if (!target || target.status !== 'pending') return;
      if (!target.enabled && target.event_type !== 'webhook.test') {
        await abandonDelivery(ds, target.delivery_id, 'The endpoint is disabled.');
        return;
      }
      const payload = target.payload ?? (await eventPayload(ds, (await readEvent(ds, target.event_id))!));
      const outcome = await postSigned(
        target.url,
        target.secret,
        { id: target.event_id, body: JSON.stringify(payload), at: new Date() },
        { timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivateTargets },
      );
      if (outcome.error === null) {
        await recordSuccess(ds, target, outcome);
        return;
      }
      const pause = settings.retryScheduleMs[job.attemptsMade];
      const next = pause === undefined ? null : new Date(Date.now() + pause);
      const { disabled } = await recordFailure(ds, target, outcome, next, settings.disableAfterMs);
      if (disabled) {
        log('info', 'webhook endpoint disabled', { endpointId: target.endpoint_id });
        await tellEndpointDisabled(ds, options.mailer, target.endpoint_id, (msg, detail) =>
          log('error', msg, detail),
        );
        await abandonDelivery(ds, target.delivery_id, 'The endpoint was disabled.');
        return;
      }
      // Thrown for BullMQ to retry after the schedule's next pause (or to give up after the last).
      if (next) throw new DeliveryFailed(outcome.error);
    },
    {
      connection: bullConnection(options.redisUrl),
      prefix: options.prefix,
      concurrency: settings.concurrency,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 15_000,
      maxStalledCount: 5,
      settings: {
        backoffStrategy: (attemptsMade: number) => retryPause(settings.retryScheduleMs, attemptsMade),
      },
    },
  );
  for (const worker of [dispatchWorker, deliveryWorker])
    worker.on('failed', (job, err) => {
      if (!(err instanceof DeliveryFailed))
        log('error', 'webhook job failed', { queue: worker.name, jobId: job?.id, err: err.message });
    });

  await dispatchQueue.upsertJobScheduler(
    SWEEP_SCHEDULER,
    { every: settings.sweepIntervalMs },
    { name: 'sweep' },
  );
  const listener =
    options.listen === false
      ? null
      : startListener(options.databaseUrl, dispatchQueue, deliveryQueue, settings, log, sweep);
  await listener?.listening();

  return {
    dispatchQueue,
    deliveryQueue,
    dispatchWorker,
    deliveryWorker,
    sweep,
    async close() {
      await listener?.close();
      await Promise.all([dispatchWorker.close(), deliveryWorker.close()]);
      await closeQueue(dispatchQueue);
      await closeQueue(deliveryQueue);
    },
  };
}

/**
 * LISTENs for the outbox's notifications on a connection of its own and queues what it hears. A lost
 * connection is opened again after a second; on each (re)connection the sweeper runs once, for what was
 * committed while nobody listened.
 */
function startListener(
  databaseUrl: string,
  dispatchQueue: Queue,
  deliveryQueue: Queue,
  settings: WebhookSettings,
  log: NonNullable<WebhookWorkerOptions['log']>,
  sweep: () => Promise<unknown>,
): PgListener {
  return startPgListener({
    databaseUrl,
    applicationName: 'requests-worker webhooks',
    channels: [WEBHOOK_EVENTS_CHANNEL, WEBHOOK_DELIVERIES_CHANNEL],
    onId: (channel, id) => {
      const queued =
        channel === WEBHOOK_EVENTS_CHANNEL
          ? queueDispatch(dispatchQueue, id)
          : queueDelivery(deliveryQueue, id, settings.retryScheduleMs);
      // Not queued now (Redis away): the sweeper queues it.
      queued.catch((err: Error) => log('error', 'webhook job not queued', { id, err: err.message }));
    },
    onConnected: sweep,
    onError: (err) => log('error', 'webhook listener could not connect', { err: err.message }),
  });
}
