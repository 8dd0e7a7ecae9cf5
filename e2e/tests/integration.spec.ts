import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { groupIdOf, startWebhookReceiver, withKey } from '../support/machine';

/**
 * A group's integration through the screens (issue 22), as the group's own admin — KMI's claims user, who
 * is no portal admin: from the header's Integration entry, an API key made and copied from its dialog,
 * used by a machine (Bearer) for a geocode, its call counted in the list, revoked (the next call a 401);
 * a webhook endpoint to a receiver started here, its test event delivered and listed; the month's usage
 * of the group with the key's geocode, and its CSV export. Another group's pages say they are not theirs,
 * and the services answer 403. Most steps are taken from the keyboard (focus, Enter, Space, typing).
 */

const GROUP_ADMIN = 'claims@portal.test';
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const integration = (page: Page) =>
  page.getByRole('navigation', { name: 'Integration of Karoo Mutual Insurance' });

/** The month of today in South Africa (UTC+2), as the usage page and its export name it. */
const sastMonth = () => new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 7);

test("a group's admin manages their group's API keys, webhooks and usage from the Integration menu", async ({
  page,
}) => {
  const run = Date.now().toString(36);
  const keyName = `Policy system ${run}`;
  const kmi = await groupIdOf('KMI');
  const account = demoAccount(GROUP_ADMIN);
  await login(page, account.email, account.password);

  // The header's Integration entry opens the group's API keys, the first of three tabs.
  await nav(page).getByRole('link', { name: 'Integration' }).press('Enter');
  await expect(page).toHaveURL(/\/services\/admin\/my-group\/api-keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(integration(page).getByRole('tab', { name: 'API keys' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // A read-only key for the address service: typed, ticked with Space, sent with Enter.
  await page.getByRole('button', { name: 'Create key' }).press('Enter');
  const create = page.getByRole('dialog', { name: 'Create key' });
  const name = create.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  await page.keyboard.type(keyName);
  await create.getByRole('checkbox', { name: 'avs' }).press('Space');
  await expect(create.getByRole('checkbox', { name: 'avs' })).toBeChecked();
  await expect(create.getByRole('radio', { name: /Read-only/ })).toBeChecked();
  await name.press('Enter');

  // The key, shown this once: copied from the dialog's text.
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('Copy the key now: it will not be shown again.')).toBeVisible();
  const key = await shown.getByRole('textbox', { name: keyName }).inputValue();
  expect(key).toMatch(/^ppk_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Done' }).press('Enter');
  await expect(shown).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: keyName });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText('Active');

  // A machine with the key geocodes an address.
  const machine = await withKey(key);
  const geocode = () =>
    machine.post('/api/avs/geocode', { data: { address: '12 Church Street, Stellenbosch' } });
  const answer = await geocode();
  expect(answer.status(), await answer.text()).toBe(200);

  // Its call is counted in the list once the usage is flushed (USAGE_FLUSH_MS in the harness).
  await expect(async () => {
    await page.reload();
    await expect(row.getByRole('cell').nth(7)).toHaveText('1', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row.getByRole('cell').nth(6)).not.toHaveText('Never');

  // Revoked: the list says so, and the key's next call is a 401.
  await row.getByRole('button', { name: `Revoke key ${keyName}` }).press('Enter');
  const revoke = page.getByRole('dialog', { name: 'Revoke this API key?' });
  await revoke.getByRole('button', { name: 'Revoke' }).press('Enter');
  await expect(revoke).toBeHidden();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: `Revoke key ${keyName}` })).toHaveCount(0);
  expect((await geocode()).status()).toBe(401);
  await machine.dispose();

  // Webhooks: an endpoint to the receiver, its secret shown once, a test event delivered.
  const receiver = startWebhookReceiver();
  const url = await receiver.listen();
  try {
    await integration(page).getByRole('tab', { name: 'Webhooks' }).press('Enter');
    await expect(page).toHaveURL(/\/services\/admin\/my-group\/webhooks$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).press('Enter');
    const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    const urlField = add.getByRole('textbox', { name: 'URL' });
    await expect(urlField).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(url);
    await add.getByRole('textbox', { name: 'Description' }).fill(`Claims system ${run}`);
    await urlField.press('Enter');

    const secretDialog = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
    receiver.useSecret(await secretDialog.getByRole('textbox', { name: 'Signing secret' }).inputValue());
    await secretDialog.getByRole('button', { name: 'Done' }).press('Enter');
    await expect(secretDialog).toBeHidden();
    const endpoint = page.getByRole('row').filter({ hasText: url });
    await expect(endpoint).toContainText('Enabled');

    await endpoint.getByRole('button', { name: `Actions for ${url}` }).press('Enter');
    await page.getByRole('menuitem', { name: 'Send test' }).press('Enter');
    await expect(page.getByText('Test event queued: it appears in the deliveries.')).toBeVisible();
    await expect
      .poll(() => receiver.received.map((event) => event.type), { timeout: 30_000 })
      .toContain('webhook.test');
    expect(receiver.problems).toEqual([]);

    // The delivery is listed as delivered, with the receiver's answer.
    const deliveries = page.getByRole('table', { name: `Deliveries to ${url}` });
    await expect(async () => {
      await page.reload();
      await endpoint.getByRole('button', { name: 'Deliveries' }).press('Enter');
      const delivery = deliveries.getByRole('row').filter({ hasText: 'webhook.test' });
      await expect(delivery).toContainText('Delivered', { timeout: 2_000 });
      await expect(delivery.getByRole('cell').nth(4)).toHaveText('204');
    }).toPass({ timeout: 30_000 });
  } finally {
    // Later tests' requests of KMI must not be sent to a receiver that is gone.
    const list = await (await page.request.get(`/api/v1.0/group/${kmi}/webhooks`)).json();
    for (const { _id, url: target } of list.endpoints as { _id: string; url: string }[])
      if (target === url) await page.request.delete(`/api/v1.0/group/${kmi}/webhooks/${_id}`);
    await receiver.close();
  }

  // Usage: the month's geocodes of the group, the key's among them, and the CSV export.
  await integration(page).getByRole('tab', { name: 'Usage' }).press('Enter');
  await expect(page).toHaveURL(/\/services\/admin\/my-group\/usage$/);
  await expect(page.getByRole('textbox', { name: 'Group' })).toHaveValue('Karoo Mutual Insurance');
  await expect(page.getByRole('figure', { name: /^Geocodes: \d+/ })).toBeVisible();
  const usage = page.getByRole('table', { name: `Usage in ${sastMonth()} per metric, service and source` });
  const keyUsage = usage.getByRole('row').filter({ hasText: keyName });
  await expect(keyUsage.getByRole('cell')).toHaveText(['Geocodes', /.+/, new RegExp(keyName), '1']);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export .csv' }).press('Enter');
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`usage-KMI-${sastMonth()}.csv`);
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe('Group,Group code,Month,Service,Metric,Source (API key or session),Count');
  const geocodeLine = csv.find((line) => line.includes(',geocode,') && line.includes(keyName));
  expect(geocodeLine, csv.join('\n')).toMatch(/^Karoo Mutual Insurance,KMI,\d{4}-\d{2},[^,]+,geocode,.+,1$/);
});

test("a group's admin is refused another group's API keys, webhooks and usage, on the screens and by the services", async ({
  page,
}) => {
  const hvv = await groupIdOf('HVV');
  const account = demoAccount(GROUP_ADMIN);
  await login(page, account.email, account.password);

  await page.goto(`/services/admin/groups/${hvv}/api-keys`);
  await expect(page.getByText("You may only manage your own group's API keys.")).toBeVisible();
  expect((await page.request.get(`/api/v1.0/group/${hvv}/api-keys`)).status()).toBe(403);
  const created = await page.request.post(`/api/v1.0/group/${hvv}/api-keys`, {
    data: { name: 'Not mine', services: ['savi'], scope: 'read' },
  });
  expect(created.status()).toBe(403);

  await page.goto(`/services/admin/groups/${hvv}/webhooks`);
  await expect(page.getByText("You may only manage your own group's webhooks.")).toBeVisible();
  expect((await page.request.get(`/api/v1.0/group/${hvv}/webhooks`)).status()).toBe(403);

  expect((await page.request.get(`/api/v1.0/usage?groupId=${hvv}`)).status()).toBe(403);
  expect((await page.request.get(`/api/v1.0/usage/export.csv?groupId=${hvv}`)).status()).toBe(403);
  // The administrators' screens stay closed to a group's admin.
  await page.goto('/services/admin');
  await expect(page).toHaveURL(/\/$/);
});

test("an administrator finds the usage, and each group's API keys and webhooks, on the services-admin screen", async ({
  page,
}) => {
  // Wide enough for the groups list's actions column to be drawn.
  await page.setViewportSize({ width: 1680, height: 900 });
  const admin = demoAccount('admin@portal.test');
  await login(page, admin.email, admin.password);
  await nav(page).getByRole('link', { name: 'User Admin' }).click();
  await expect(page.getByRole('heading', { name: 'Services administration' })).toBeVisible();

  await page.getByRole('link', { name: 'Usage' }).press('Enter');
  await expect(page).toHaveURL(/\/services\/admin\/usage$/);
  await expect(page.getByRole('combobox', { name: 'Group' })).toBeVisible();
  await page.goBack();

  const kmi = await groupIdOf('KMI');
  await page.getByRole('link', { name: 'API keys of Karoo Mutual Insurance' }).click();
  await expect(page).toHaveURL(new RegExp(`/services/admin/groups/${kmi}/api-keys$`));
  await expect(
    page.getByText('Keys the machines of Karoo Mutual Insurance call the portal with.'),
  ).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: 'Webhooks of Karoo Mutual Insurance' }).click();
  await expect(page).toHaveURL(new RegExp(`/services/admin/groups/${kmi}/webhooks$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
});
