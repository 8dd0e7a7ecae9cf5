import { expect, test } from '@playwright/test';
import { signedIn } from '../support/auth';
import { harness, queryRun } from '../support/env';
import { readLatestMail } from '../support/mail';
import { createSaviRequest } from '../support/requests';

/** services/requests' notification calls (contracts NOTIFICATION_ROUTES). */
const NOTIFICATIONS = '/api/v1.0/request/notifications';

// Notifications for people (issue 24) through the portal URL: a requester's request is delivered by an
// operator (the console's bulk call), services/requests writes the notification with the change, the
// requests-worker pushes it on the realtime socket (the bell, already open, counts it) and writes the
// mail into the run's mail folder (no SMTP_URL here). The request reaches Dispatch with its report's PDF
// key by SQL: the report flow itself is request-queue.spec's.

test('a delivered request: the requester’s bell shows 1, the list has it, the mail was written', async ({
  browser,
}) => {
  const user = await signedIn(browser, 'user@portal.test');
  // Earlier tests' notifications of this demo user (their reports made) are read first: the count is this one's.
  expect((await user.request.post(`${NOTIFICATIONS}/read_all`)).status()).toBe(200);
  const { grip, id } = await createSaviRequest(user, {
    nth: 70,
    policyNumber: 'KM123456',
    keyPrefix: 'notifications-e2e',
  });
  const moved = await queryRun(
    `UPDATE requests.requests SET status = 'Dispatch', report_pdf_url = $2 WHERE id = $1 RETURNING id`,
    [id, `reports/savi/${id}.pdf`],
  );
  expect(moved).toHaveLength(1);

  await user.goto('/');
  const bell = user.getByRole('button', { name: /^Notifications, / });
  await expect(bell).toHaveAccessibleName('Notifications, none unread');

  const since = new Date();
  const operator = await signedIn(browser, 'operator@portal.test');
  const delivered = await operator.request.post('/api/v1.0/request/all_to_delivered', {
    data: { ids: [id] },
  });
  expect(delivered.status(), await delivered.text()).toBe(200);

  // Pushed to the open page by the socket (no reload), and announced.
  const title = `The report for ${grip} is ready.`;
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: 20_000 });
  await expect(user.getByRole('status').filter({ hasText: 'New notification' })).toHaveText(
    `New notification: ${title}`,
  );

  // The list, from the keyboard: the menu opens with the newest focused; Escape gives focus back.
  await bell.focus();
  await user.keyboard.press('Enter');
  const menu = user.getByRole('menu', { name: 'Notifications' });
  const item = menu.getByRole('menuitem', { name: new RegExp(title.replace(/\./g, '\\.')) });
  await expect(item).toBeFocused();
  await expect(item).toContainText('Unread:');
  await user.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(bell).toBeFocused();
  await user.keyboard.press('Enter');
  await expect(item).toBeFocused();
  await user.keyboard.press('Enter');
  await expect(user).toHaveURL(new RegExp(`/requests\\?grip_reference=${grip}$`));
  await expect(bell).toHaveAccessibleName('Notifications, none unread');
  // The requester's list opens on that one request.
  await expect(
    user.getByRole('button', { name: `Showing ${grip} only: show all my requests` }),
  ).toBeVisible();
  await expect(user.getByRole('row').filter({ hasText: grip })).toHaveCount(1);

  // The mail, once, in plain text and HTML with the portal's link to the request.
  const mail = await readLatestMail('user@portal.test', { since, timeoutMs: 20_000 });
  expect(mail.subject).toBe(title);
  const link = `${harness().baseURL}/requests?grip_reference=${grip}`;
  expect(mail.link).toBe(link);
  expect(mail.text).toContain(link);
  expect(mail.html).toContain(`href="${link}"`);
  const rows = await queryRun<{ mail_status: string }>(
    `SELECT mail_status FROM notifications.notifications WHERE request_id = $1`,
    [id],
  );
  expect(rows).toEqual([{ mail_status: 'sent' }]);
});

test('My account → Notifications turns a kind off on the server', async ({ browser }) => {
  const user = await signedIn(browser, 'qc@portal.test');
  await user.goto('/account/notifications');
  await expect(user.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  const late = user.getByRole('checkbox', { name: 'A request I look after is late' });
  await expect(late).toBeChecked();
  await late.focus();
  await user.keyboard.press('Space');
  await expect(
    user.getByRole('status').filter({ hasText: 'A request I look after is late: off.' }),
  ).toBeVisible();
  const saved = await user.request.get(`${NOTIFICATIONS}/preferences`);
  expect((await saved.json()).preferences).toContainEqual(
    expect.objectContaining({ kind: 'request.late', enabled: false }),
  );
  await user.reload();
  await expect(user.getByRole('checkbox', { name: 'A request I look after is late' })).not.toBeChecked();
});
