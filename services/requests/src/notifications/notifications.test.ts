import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  NOTIFICATION_ROUTES,
  REQUEST_ADMIN_API,
  notificationChannel,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationPushedEvent,
} from '@portal/contracts';
import { DEFAULT_AGEING_TARGETS, QS_CHECKS } from '@portal/domain';
import { folderMailer, type Mailer, type MailMessage } from '@portal/server-kit';
import {
  ADMIN,
  OPERATOR,
  PLAIN,
  call,
  env,
  redis,
  redisUrl,
  useRequestsApp,
  userByEmail,
} from '../testing/harness';
import { allChecks, seedRequest } from '../testing/queueRequests';
import { queueNotification, startNotificationWorkers, type NotificationWorkers } from './worker';

// Notifications on the real PostgreSQL (the harness's throwaway database) and Redis (a queue prefix of this
// run): the changes write the rows, the worker started here (listening to PostgreSQL as in production)
// pushes them on Redis and writes the mails into a temporary folder (the folder mailer, as without
// SMTP_URL). Nothing is timed: the tests wait until the database or the folder shows the outcome.

useRequestsApp();

const mailDir = mkdtempSync(join(tmpdir(), 'notifications-mail-'));
const prefix = `notify-test-${randomUUID().slice(0, 8)}`;
const publicUrl = 'https://portal.example.test';
const folder = folderMailer(mailDir, 'Portal <no-reply@portal.test>', { info: () => undefined });
/** Fails the sends named here once each (the worker's retry then sends them), counting every send. */
const failOnce = new Set<string>();
const sends: MailMessage[] = [];
const mailer: Mailer = {
  async send(message) {
    if (message.id && failOnce.delete(message.id)) throw new Error('SMTP 451: try again later');
    sends.push(message);
    await folder.send(message);
  },
};
const pushed: NotificationPushedEvent[] = [];
const subscriber = redis.duplicate();
let workers: NotificationWorkers;

beforeAll(async () => {
  await subscriber.subscribe(notificationChannel(prefix));
  subscriber.on('message', (_channel: string, message: string) => pushed.push(JSON.parse(message)));
  workers = await startNotificationWorkers({
    ds: env.appDatabase,
    databaseUrl: env.db.url,
    redisUrl,
    prefix,
    redisPrefix: prefix,
    publisher: redis,
    // The sweeper runs only when a test calls it.
    settings: { publicUrl, mailAttempts: 3, sweepIntervalMs: 3_600_000, lateLookbackHours: 24 },
    ageingTargets: { ...DEFAULT_AGEING_TARGETS } as Record<string, number>,
    mailer,
  });
});

afterAll(async () => {
  await workers?.close();
  await subscriber.quit();
  rmSync(mailDir, { recursive: true, force: true });
});

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The mail files written for one notification (their names carry its id). */
const mailFiles = (notificationId: string) =>
  readdirSync(mailDir).filter((file) => file.includes(notificationId));

interface Row {
  id: string;
  user_id: string;
  kind: string;
  mail_status: string;
  data: Record<string, unknown>;
}
const rowsOf = async (requestId: string) =>
  (await env.db.dataSource.query(
    `SELECT id, user_id, kind, mail_status, data FROM notifications.notifications
      WHERE request_id = $1 ORDER BY created_at, id`,
    [requestId],
  )) as Row[];

/** Waits until each row's mail is settled and answers the rows. */
const settled = (requestId: string) =>
  until(
    () => rowsOf(requestId),
    (rows) => rows.every((row) => row.mail_status === 'sent' || row.mail_status === 'failed'),
    'the mails to be sent',
  );

/** A SAVI request of `email` in Dispatch with its report made (the PDF's key set). */
async function dispatchedRequest(email = PLAIN): Promise<string> {
  const id = await seedRequest(email, { status: 'Dispatch' });
  await env.db.dataSource.query(`UPDATE requests.requests SET report_pdf_url = $2 WHERE id = $1`, [
    id,
    `reports/savi/${id}.pdf`,
  ]);
  return id;
}

describe('a requester told that the report is ready', () => {
  it('gets one mail (text and HTML, with the link), one bell entry and one push when the request is delivered', async () => {
    const requester = await userByEmail(PLAIN);
    const id = await dispatchedRequest();
    const delivered = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [id] });
    expect(delivered.statusCode).toBe(200);

    const rows = await settled(id);
    expect(rows).toEqual([
      expect.objectContaining({ user_id: requester.id, kind: 'report.ready', mail_status: 'sent' }),
    ]);
    const [file] = mailFiles(rows[0].id);
    expect(mailFiles(rows[0].id)).toHaveLength(1);
    const mail = JSON.parse(readFileSync(join(mailDir, file), 'utf8')) as MailMessage;
    const [{ grip_reference: grip }] = (await env.db.dataSource.query(
      'SELECT grip_reference FROM requests.requests WHERE id = $1',
      [id],
    )) as { grip_reference: string }[];
    expect(mail).toMatchObject({ to: PLAIN, subject: `The report for ${grip} is ready.` });
    const link = `${publicUrl}/requests?grip_reference=${grip}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);

    const list = await call(PLAIN, 'GET', NOTIFICATION_ROUTES.list);
    expect(list.statusCode).toBe(200);
    const page = list.json<NotificationPage>();
    expect(page.docs.filter((n) => n.requestId === id)).toEqual([
      expect.objectContaining({ id: rows[0].id, kind: 'report.ready', gripReference: grip, readAt: null }),
    ]);
    await until(
      () => pushed.filter((event) => event.notification.id === rows[0].id),
      (e) => e.length > 0,
      'the push',
    );
    expect(pushed.filter((event) => event.notification.id === rows[0].id)).toEqual([
      expect.objectContaining({ userId: requester.id }),
    ]);
    // Nobody else was told (the operator who delivered it is not the requester).
    expect(rows.map((row) => row.user_id)).toEqual([requester.id]);
  });

  it('tells nothing while the preference is off, and again once it is on', async () => {
    const off = await call(PLAIN, 'PUT', NOTIFICATION_ROUTES.preferences, {
      preferences: { 'report.ready': false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json<NotificationPreferences>().preferences).toContainEqual(
      expect.objectContaining({ kind: 'report.ready', enabled: false }),
    );
    const quiet = await dispatchedRequest();
    await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [quiet] });
    // The rows are written in the change's transaction: none now means none ever (no mail, no bell).
    expect(await rowsOf(quiet)).toEqual([]);

    await call(PLAIN, 'PUT', NOTIFICATION_ROUTES.preferences, { preferences: { 'report.ready': true } });
    const told = await dispatchedRequest();
    await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [told] });
    expect(await settled(told)).toHaveLength(1);
  });

  it('sends the mail once when its first try fails and the job is retried, and once more queued', async () => {
    const id = await dispatchedRequest();
    // The worker is held while the change commits, so the row's first try can be made to fail.
    await workers.worker.pause();
    await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [id] });
    const [row] = await rowsOf(id);
    failOnce.add(row.id);
    workers.worker.resume();
    const [sent] = await settled(id);
    expect(sent.mail_status).toBe('sent');
    expect(failOnce.has(row.id)).toBe(false);
    expect(sends.filter((mail) => mail.id === row.id)).toHaveLength(1);

    // Queued again (a notification heard twice, the sweeper, a job re-run): no second mail.
    await queueNotification(workers.queue, row.id, 3);
    await until(
      () => workers.queue.getJob(row.id),
      (job) => !job,
      'the job to finish',
    );
    expect(sends.filter((mail) => mail.id === row.id)).toHaveLength(1);
    expect(mailFiles(row.id)).toHaveLength(1);
  });
});

describe('queries, disputes and assignments', () => {
  it('tells the requester of a query with its comment, but not of their own dispute', async () => {
    const id = await seedRequest(PLAIN, { status: 'Delivered' });
    const disputed = await call(PLAIN, 'POST', REQUEST_ADMIN_API.dispute, {
      _id: id,
      comment: 'Wrong house',
    });
    expect(disputed.statusCode).toBe(200);
    expect(await rowsOf(id)).toEqual([]);

    const other = await seedRequest(PLAIN, { status: 'QC check' });
    await call(OPERATOR, 'POST', REQUEST_ADMIN_API.query, { _id: other, comment: 'Which erf?' });
    const [row] = await settled(other);
    expect(row).toMatchObject({ kind: 'request.queried', data: { comment: 'Which erf?', disputed: false } });
    expect(sends.find((mail) => mail.id === row.id)?.text).toContain('Comment: Which erf?');
  });

  it('tells the first QS the request is theirs, once', async () => {
    const operator = await userByEmail(OPERATOR);
    const id = await seedRequest(PLAIN);
    const qs = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qsChecklist, {
      _id: id,
      priority: 'No',
      checks: allChecks(QS_CHECKS.length),
    });
    expect(qs.statusCode).toBe(200);
    await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateStatus, { _id: id, status: 'In progress' });
    const rows = await settled(id);
    expect(rows).toEqual([expect.objectContaining({ kind: 'request.assigned', user_id: operator.id })]);
  });
});

describe('late requests', () => {
  it('tells the console people of a newly late request once, and nothing of one late for days', async () => {
    const hour = 3_600_000;
    const late = await seedRequest(PLAIN, { created_at: new Date(Date.now() - 5 * hour).toISOString() });
    const longAgo = await seedRequest(PLAIN, { created_at: new Date(Date.now() - 80 * hour).toISOString() });
    const fresh = await seedRequest(PLAIN, { created_at: new Date(Date.now() - hour).toISOString() });
    const first = await workers.sweep();
    expect(first.late).toBeGreaterThanOrEqual(1);
    const staff = (await env.db.dataSource.query(
      `SELECT id FROM identity.users WHERE active AND kind = 'person' AND (is_admin OR savi_operator) ORDER BY id`,
    )) as { id: string }[];
    const rows = await settled(late);
    expect(rows.map((row) => row.user_id).sort()).toEqual(staff.map((user) => user.id));
    expect(rows[0]).toMatchObject({ kind: 'request.late', data: { status: 'New', targetHours: 4 } });
    expect(staff.map((user) => user.id)).toContain((await userByEmail(ADMIN)).id);
    expect(await rowsOf(longAgo)).toEqual([]);
    expect(await rowsOf(fresh)).toEqual([]);

    await workers.sweep();
    expect(await rowsOf(late)).toHaveLength(rows.length);
  });
});

describe('the list and preferences', () => {
  it('counts unread, marks one read and then all, and pages newest first', async () => {
    const before = (await call(PLAIN, 'GET', NOTIFICATION_ROUTES.unreadCount)).json<{ unread: number }>()
      .unread;
    expect(before).toBeGreaterThanOrEqual(2);
    const page = (await call(PLAIN, 'GET', `${NOTIFICATION_ROUTES.list}?limit=1`)).json<NotificationPage>();
    expect(page.docs).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    const second = (
      await call(PLAIN, 'GET', `${NOTIFICATION_ROUTES.list}?limit=1&page=2`)
    ).json<NotificationPage>();
    expect(new Date(second.docs[0].createdAt) <= new Date(page.docs[0].createdAt)).toBe(true);

    const one = await call(PLAIN, 'POST', NOTIFICATION_ROUTES.markRead, { ids: [page.docs[0].id] });
    expect(one.json()).toEqual({ unread: before - 1 });
    // Another person's id marks nothing of theirs.
    const admin = await call(ADMIN, 'POST', NOTIFICATION_ROUTES.markRead, { ids: [second.docs[0].id] });
    expect(admin.statusCode).toBe(200);
    expect((await call(PLAIN, 'GET', NOTIFICATION_ROUTES.unreadCount)).json()).toEqual({
      unread: before - 1,
    });

    expect((await call(PLAIN, 'POST', NOTIFICATION_ROUTES.markAllRead)).json()).toEqual({ unread: 0 });
    const unreadOnly = (
      await call(PLAIN, 'GET', `${NOTIFICATION_ROUTES.list}?unread=true`)
    ).json<NotificationPage>();
    expect(unreadOnly).toMatchObject({ total: 0, unread: 0, docs: [] });
  });

  it('refuses bad input with a 400 and anonymous callers with a 401', async () => {
    expect((await call(PLAIN, 'POST', NOTIFICATION_ROUTES.markRead, { ids: ['nope'] })).statusCode).toBe(400);
    expect((await call(PLAIN, 'POST', NOTIFICATION_ROUTES.markRead, { ids: [] })).statusCode).toBe(400);
    expect((await call(PLAIN, 'GET', `${NOTIFICATION_ROUTES.list}?limit=1000`)).statusCode).toBe(400);
    const unknown = await call(PLAIN, 'PUT', NOTIFICATION_ROUTES.preferences, {
      preferences: { 'request.lost': true },
    });
    expect(unknown.statusCode).toBe(400);
    expect((await call(PLAIN, 'PUT', NOTIFICATION_ROUTES.preferences, { preferences: {} })).statusCode).toBe(
      400,
    );
    expect((await call(null, 'GET', NOTIFICATION_ROUTES.list)).statusCode).toBe(401);
  });

  it('lists every kind on by default, and turns all off', async () => {
    const fresh = (await call(ADMIN, 'GET', NOTIFICATION_ROUTES.preferences)).json<NotificationPreferences>();
    expect(fresh.preferences.every((preference) => preference.enabled)).toBe(true);
    const allOff = Object.fromEntries(fresh.preferences.map((preference) => [preference.kind, false]));
    const off = await call(ADMIN, 'PUT', NOTIFICATION_ROUTES.preferences, { preferences: allOff });
    expect(off.json<NotificationPreferences>().preferences.every((preference) => !preference.enabled)).toBe(
      true,
    );
  });
});
