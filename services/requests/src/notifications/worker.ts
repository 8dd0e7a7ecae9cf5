import { startPgListener, type PgListener } from '../pgListener';
import { Queue, Worker, type Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { PORTAL_QUEUES, notificationChannel, type NotificationPushedEvent } from '@portal/contracts';
import { NOTIFICATIONS_CHANNEL } from '@portal/db';
import {
  bullConnection,
  bullProducerConnection,
  closeQueue,
  type Mailer,
  type Redis,
} from '@portal/server-kit';
import type { NotificationSettings } from '../config';
import { notificationMail } from './mail';
import {
  claimMail,
  pendingMails,
  readMailTarget,
  settleMail,
  sweepLateRequests,
  toNotification,
} from './store';

/**
 * Notifications for people (issue 24), run by the requests worker process (services/requests/src/worker.ts),
 * beside the webhooks (webhooks/workers.ts, the same shape):
 *
 * 1. A notification row is written with its change (libs/db recordNotifications, or the late sweep below),
 *    with a PostgreSQL notification at commit. The listener here hears it and queues the notification's
 *    job on 'notifications' (job id = the notification's id: queued once however often it is heard).
 * 2. The job pushes the notification to its person's sockets (a Redis message the requests service's
 *    realtime relays to that person's room only; on the job's first try only) and sends its mail: claimed
 *    ('pending' → 'sending', one claimer), sent, then 'sent'. A mail that could not be sent is given back
 *    ('pending') and the job throws, so BullMQ tries again after a growing pause; after the last try it is
 *    'failed'. Only a pending mail is claimed, so a retried or re-queued job never sends a mail twice.
 * 3. The sweeper (a repeatable job on the same queue) runs the late sweep (store.ts sweepLateRequests:
 *    newly late requests, once per request) and re-queues pending mails whose job was lost with Redis.
 */

export const NOTIFICATION_QUEUE = PORTAL_QUEUES.notifications;
const SWEEP_SCHEDULER = 'notifications-sweep';
/** A pending mail this old was missed by the listener (it is normally queued in milliseconds). */
const MISSED_AFTER_MS = 60_000;

export interface NotificationWorkerOptions {
  ds: DataSource;
  databaseUrl: string;
  redisUrl: string;
  /** The BullMQ key prefix. */
  prefix: string;
  /** The portal's Redis prefix: the realtime channel is under it. */
  redisPrefix: string;
  /** Publishes the realtime message (a Redis client of the caller's). */
  publisher: Redis;
  settings: NotificationSettings;
  /** The requests' ageing targets (hours per status): late is past the status's target. */
  ageingTargets: Record<string, number>;
  mailer: Mailer;
  log?: (level: 'info' | 'error', msg: string, detail?: Record<string, unknown>) => void;
  /** Run the listener (default true); a test of the job alone runs without it. */
  listen?: boolean;
}

export interface NotificationWorkers {
  queue: Queue;
  worker: Worker;
  /** Runs the sweeper once now (the repeatable job does it every sweepIntervalMs). */
  sweep(): Promise<{ late: number; mails: number }>;
  close(): Promise<void>;
}

/** Queues a notification's push and mail (idempotent while its job exists: the job id is the notification's). */
export const queueNotification = (queue: Queue, notificationId: string, attempts: number) =>
  queue.add(
    'notify',
    { notificationId },
    {
      jobId: notificationId,
      attempts,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  );

class MailNotSent extends Error {}

export async function startNotificationWorkers(
  options: NotificationWorkerOptions,
): Promise<NotificationWorkers> {
  const { ds, settings } = options;
  const log = options.log ?? (() => undefined);
  const queue = new Queue(NOTIFICATION_QUEUE, {
    connection: bullProducerConnection(options.redisUrl),
    prefix: options.prefix,
  });
  const channel = notificationChannel(options.redisPrefix);

  const sweep = async () => {
    const late = await sweepLateRequests(ds, options.ageingTargets, settings.lateLookbackHours);
    for (const id of late.notifications) await queueNotification(queue, id, settings.mailAttempts);
    const mails = await pendingMails(ds, MISSED_AFTER_MS);
    for (const id of mails) await queueNotification(queue, id, settings.mailAttempts);
    if (late.requests + mails.length > 0)
      log('info', 'notification sweep', { lateRequests: late.requests, requeued: mails.length });
    return { late: late.requests, mails: mails.length };
  };

  const worker = new Worker(
    NOTIFICATION_QUEUE,
    async (job: Job<{ notificationId?: string }>) => {
      if (job.name === 'sweep') {
        await sweep();
        return;
      }
      const target = job.data.notificationId ? await readMailTarget(ds, job.data.notificationId) : null;
      if (!target) return;
      // The bell: pushed on the first try (a retry is about the mail; the list has the row anyway).
      if (job.attemptsMade === 0) {
        const event: NotificationPushedEvent = {
          userId: target.user_id,
          notification: toNotification(target),
        };
        await options.publisher.publish(channel, JSON.stringify(event)).catch((err: Error) => {
          log('error', 'notification not pushed', { id: target.id, err: err.message });
        });
      }
      // No mail to a person no longer active (or an account that is not a person's).
      if (!target.person) {
        if (await claimMail(ds, target.id))
          await settleMail(ds, target.id, { status: 'failed', error: 'No person to mail.' });
        return;
      }
      if (!(await claimMail(ds, target.id))) return;
      try {
        await options.mailer.send(notificationMail(target, settings.publicUrl));
      } catch (err) {
        const error = (err as Error).message;
        const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        await settleMail(ds, target.id, { status: last ? 'failed' : 'pending', error });
        throw new MailNotSent(error);
      }
      await settleMail(ds, target.id, { status: 'sent' });
    },
    {
      connection: bullConnection(options.redisUrl),
      prefix: options.prefix,
      concurrency: 4,
      lockDuration: 30_000,
      stalledInterval: 15_000,
      maxStalledCount: 2,
    },
  );
  worker.on('failed', (job, err) => {
    log('error', err instanceof MailNotSent ? 'notification mail not sent' : 'notification job failed', {
      jobId: job?.id,
      attemptsMade: job?.attemptsMade,
      err: err.message,
    });
  });

  await queue.upsertJobScheduler(SWEEP_SCHEDULER, { every: settings.sweepIntervalMs }, { name: 'sweep' });
  const listener =
    options.listen === false ? null : startListener(options.databaseUrl, queue, settings, log, sweep);
  await listener?.listening();

  return {
    queue,
    worker,
    sweep,
    async close() {
      await listener?.close();
      await worker.close();
      await closeQueue(queue);
    },
  };
}

/**
 * LISTENs for new notifications on a connection of its own and queues each. A lost connection is opened
 * again after a second; on each (re)connection the sweeper runs once, for what was committed meanwhile.
 */
function startListener(
  databaseUrl: string,
  queue: Queue,
  settings: NotificationSettings,
  log: NonNullable<NotificationWorkerOptions['log']>,
  sweep: () => Promise<unknown>,
): PgListener {
  return startPgListener({
    databaseUrl,
    applicationName: 'requests-worker notifications',
    channels: [NOTIFICATIONS_CHANNEL],
    onId: (_channel, id) =>
      // Not queued now (Redis away): the sweeper queues its mail.
      void queueNotification(queue, id, settings.mailAttempts).catch((err: Error) =>
        log('error', 'notification job not queued', { id, err: err.message }),
      ),
    onConnected: sweep,
    onError: (err) => log('error', 'notification listener could not connect', { err: err.message }),
  });
}
