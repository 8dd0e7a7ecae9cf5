import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signedIn } from '../support/auth';
import { expectAccessible } from '../support/axe';
import { queryRun } from '../support/env';
import { createSaviRequest } from '../support/requests';

// The operations dashboard through the portal URL (issue 24): an administrator opens /requests/insight
// (mf-requests-admin, loaded by the shell), sees this week's turnaround and the late requests, opens a late
// one in the console with one click, and exports a chart's data. Two requests are made with the request
// tool's own call; their history is then written as if they had moved through the workflow (a request is
// late only after hours in its status, too long to wait for in a test).

test.describe.configure({ mode: 'serial' });

let dispatched: { grip: string; id: string };
let late: { grip: string; id: string };

test.beforeAll(async ({ browser }) => {
  const user = await signedIn(browser, 'user@portal.test');
  dispatched = await createSaviRequest(user, {
    nth: 180,
    policyNumber: 'KM135790',
    keyPrefix: 'insight-e2e',
  });
  late = await createSaviRequest(user, { nth: 181, policyNumber: 'KM135791', keyPrefix: 'insight-e2e' });
  await user.close();
  // Made 50 minutes ago and through QS, the report and QC to Dispatch 10 minutes ago: a 40-minute turnaround.
  await queryRun(
    `UPDATE requests.requests SET created_at = now() - interval '50 minutes', status = 'Dispatch',
            status_changed_at = now() - interval '10 minutes' WHERE id = $1`,
    [dispatched.id],
  );
  await queryRun(
    `INSERT INTO requests.request_history (request_id, at, user_name, field, from_value, to_value)
     SELECT $1, now() - (m || ' minutes')::interval, 'Insight E2E', 'status', f, t
       FROM (VALUES (40, 'New', 'Ready for QS'), (30, 'Ready for QS', 'In progress'),
                    (20, 'In progress', 'QC check'), (10, 'QC check', 'Dispatch')) AS lines(m, f, t)`,
    [dispatched.id],
  );
  // New for 10 hours (the target is 4): late.
  await queryRun(
    `UPDATE requests.requests SET created_at = now() - interval '10 hours',
            status_changed_at = now() - interval '10 hours' WHERE id = $1`,
    [late.id],
  );
});

test("an admin sees this week's turnaround and the late requests, and opens a late one in the console", async ({
  browser,
}) => {
  const admin = await signedIn(browser, 'admin@portal.test');
  await admin.goto('/');
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insight' }).click();
  await expect(admin).toHaveURL(/\/requests\/insight$/);
  await expect(admin.getByRole('heading', { name: 'Operations insight' })).toBeVisible();
  await expect(admin.getByRole('combobox', { name: 'Period' })).toHaveText('This week');

  const median = admin.locator('[data-figure="median"] dd');
  await expect(median).toHaveText(/^\d+\.\d h$/);
  const turnaround = admin.getByRole('region', { name: 'Turnaround New to Dispatch' });
  await expect(turnaround.getByRole('img', { name: 'Turnaround New to Dispatch' })).toBeVisible();

  const lateList = admin.getByRole('region', { name: 'Late requests' });
  const link = lateList.getByRole('link', { name: `Open ${late.grip} in the console` });
  await expect(link).toBeVisible();
  await expect(lateList.getByRole('row').filter({ hasText: late.grip })).toContainText('New');
  await expectAccessible(admin, 'operations dashboard');

  await link.click();
  await expect(admin).toHaveURL(new RegExp(`/requests/admin\\?grip_reference=${late.grip}$`));
  const row = admin.getByRole('row').filter({ hasText: late.grip });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: 'QS check' })).toBeVisible();
});

test("exports a chart's data: the late requests as CSV, the turnaround as xlsx", async ({ browser }) => {
  const admin = await signedIn(browser, 'admin@portal.test');
  await admin.goto('/requests/insight');
  const lateList = admin.getByRole('region', { name: 'Late requests' });
  await expect(lateList.getByRole('link', { name: `Open ${late.grip} in the console` })).toBeVisible();

  const downloading = admin.waitForEvent('download');
  await lateList.getByRole('link', { name: 'Export Late requests as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^insight-late-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe(
    'GRiP reference,Type,Sub type,Status,Group,Created,Hours in status,Target hours,Hours over',
  );
  expect(lines.find((line) => line.startsWith(late.grip))).toMatch(/,New,.*,10,4,6$/);

  const workbook = admin.waitForEvent('download');
  await admin
    .getByRole('region', { name: 'Turnaround New to Dispatch' })
    .getByRole('link', { name: 'Export Turnaround New to Dispatch as xlsx' })
    .click();
  const xlsx = await workbook;
  expect(xlsx.suggestedFilename()).toMatch(/^insight-turnaround-.*\.xlsx$/);
  expect(
    readFileSync((await xlsx.path())!)
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
});

test('a plain requester has no Insight entry and the service refuses them', async ({ browser }) => {
  const user = await signedIn(browser, 'user@portal.test');
  await user.goto('/');
  await expect(
    user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insight' }),
  ).toHaveCount(0);
  expect((await user.request.get('/api/v1.0/requests/insight')).status()).toBe(403);
});
