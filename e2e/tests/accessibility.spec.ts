import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { expectAccessible, reportThirdParty } from '../support/axe';
import { openConsoleAt } from '../support/console';
import { queryRun } from '../support/env';
import { createSaviRequest } from '../support/requests';

// Every screen of the shell and of every remote through axe-core (issue 24, docs/accessibility.md): the
// WCAG 2.1 A/AA rules, failing on a serious or critical violation, for each role that can open the screen.
// One browser context per role walks its screens in turn (a soft failure per screen, so one run lists
// them all); the dialogs a screen opens from its main actions are checked open, and closing each must give
// the focus back to the button that opened it. Third-party screens (Bull Board, the API reference) are
// checked apart and only reported.

// A control that is not there fails in seconds, not at the test's end (the walk is long).
test.use({ actionTimeout: 15_000 });

type Account =
  | 'admin@portal.test'
  | 'operator@portal.test'
  | 'qc@portal.test'
  | 'rates@portal.test'
  | 'claims@portal.test'
  | 'user@portal.test';

/** A signed-in page in a browser context of its own. */
async function pageOf(browser: Browser, email: Account): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const account = demoAccount(email);
  await login(page, account.email, account.password);
  return page;
}

/**
 * Waits until the screen at the page's URL has drawn: its main heading, and nothing still loading (no
 * progress bar, the network quiet for a moment; a map keeps fetching tiles, so quiet is best effort).
 */
async function settled(page: Page, heading?: string | RegExp): Promise<void> {
  if (heading) await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  else await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
}

/** Opens `path`, checks it stayed there (the role may open it) and checks the screen. */
async function checkScreen(page: Page, name: string, path: string, heading?: string | RegExp): Promise<void> {
  await test.step(name, async () => {
    await page.goto(path);
    await expect(page, `${name}: the role is let in`).toHaveURL((url) =>
      (url.pathname + url.search).startsWith(path.replace(/\/$/, '')),
    );
    await settled(page, heading);
    await expectAccessible(page, name);
  });
}

/**
 * Opens a dialog with `opener`, checks it open, closes it with Escape and expects the focus back on the
 * opener (MUI's dialogs trap and return focus; a custom one must too).
 */
async function checkDialog(page: Page, name: string, opener: Locator, dialogName?: string | RegExp) {
  await test.step(`${name} (dialog)`, async () => {
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = dialogName ? page.getByRole('dialog', { name: dialogName }) : page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
    await expectAccessible(page, name);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener, `${name}: closing gives the focus back to its opener`).toBeFocused();
  });
}

/**
 * The header's notification bell (issue 24), opened from the keyboard on the page as it stands: its menu
 * checked open, closed with Escape, the focus back on the bell.
 */
async function checkBell(page: Page): Promise<void> {
  await test.step('notification bell (its menu open)', async () => {
    const bell = page.getByRole('button', { name: /^Notifications, / });
    await bell.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Notifications' });
    await expect(menu).toBeVisible();
    await expectAccessible(page, 'notification bell');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(bell, 'notification bell: closing gives the focus back to the bell').toBeFocused();
  });
}

test('the signed-out screens: home, log in, register, forgot and reset password, not found', async ({
  page,
}) => {
  await checkScreen(page, 'home (signed out)', '/');
  await checkScreen(page, 'log in', '/auth/login', 'Log in');
  await test.step('log in, with a field in error', async () => {
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').focus();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'log in with errors');
  });
  await checkScreen(page, 'register', '/auth/register', 'Register');
  await checkScreen(page, 'forgot password', '/forgot-password', 'Forgot password');
  await checkScreen(page, 'reset password (a token)', '/reset/an-unknown-token', 'Choose a new password');
  await checkScreen(page, 'not found', '/no-such-page');
});

test('a plain user: home, their requests, the request tool, address validation, locate, spatial key, IRiS', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const page = await pageOf(browser, 'user@portal.test');
  await checkScreen(page, 'home', '/');
  await checkScreen(page, 'my requests', '/requests');
  await checkScreen(page, 'request tool', '/savi');
  await checkScreen(page, 'address validation', '/avs');
  await checkScreen(page, 'locate', '/locate');
  await checkScreen(page, 'spatial key', '/spatialkey');
  await checkScreen(page, 'IRiS', '/iris');
  await checkScreen(page, 'not found (signed in)', '/no-such-page');
  await checkScreen(page, 'notification settings', '/account/notifications', 'Notifications');
  await checkBell(page);
});

test('a plain user: the request tool and IRiS in use (results, marker popup, the request form, a risk report)', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const [address] = await queryRun<{ house_number: string; street_name: string; town: string }>(
    `SELECT house_number, street_name, town FROM geo.addresses
      WHERE town = 'Stellenbosch' AND unit IS NULL AND house_number <> '' AND parcel_id IS NOT NULL
      ORDER BY id OFFSET 30 LIMIT 1`,
  );
  const typed = `${address.house_number} ${address.street_name}, ${address.town}`;
  const page = await pageOf(browser, 'user@portal.test');
  const findAddress = async () => {
    await page.getByRole('button', { name: /^Search by Street Address/ }).click();
    const box = page.getByRole('textbox', { name: 'Search by Street Address' });
    await box.fill(typed);
    await box.press('Enter');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('button').first()).toContainText(address.street_name);
    await results.getByRole('button').first().click();
  };

  await page.goto('/savi');
  await findAddress();
  await test.step('request tool: a result chosen, its marker popup', async () => {
    await expect(page.getByTestId('marker-popup')).toContainText(address.street_name);
    await settled(page);
    await expectAccessible(page, 'request tool: result and marker popup');
  });
  await test.step('request tool: the request form', async () => {
    await page.getByRole('button', { name: 'Replacement Value Estimate' }).click();
    await expect(page.getByLabel('Policy Number')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(/Policy number must be/)).toBeVisible();
    await expectAccessible(page, 'request tool: the request form with an error');
  });

  await page.goto('/iris');
  await findAddress();
  await test.step('IRiS: a risk report and its PDF progress', async () => {
    await page.getByLabel('Policy Number').fill('KM424242');
    await page.getByRole('button', { name: 'Order risk report' }).click();
    await expect(page.getByTestId('pdf-status')).toBeVisible({ timeout: 60_000 });
    await settled(page);
    await expectAccessible(page, 'IRiS: the risk report');
  });
});

test('an administrator: the services admin screens, grids and dialogs; usage; the console; the address editor', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const page = await pageOf(browser, 'admin@portal.test');
  await checkScreen(page, 'home', '/');
  await checkScreen(page, 'services admin', '/services/admin', 'Services administration');
  await checkDialog(page, 'new group', page.getByRole('button', { name: 'New group' }));
  await checkDialog(page, 'update group', page.getByRole('button', { name: /^Update group / }).first());
  await checkDialog(
    page,
    'claims settings',
    page.getByRole('button', { name: /^Claims settings of / }).first(),
  );
  await page.getByRole('tab', { name: 'Users' }).click();
  await checkDialog(page, 'update user', page.getByRole('button', { name: /^Update user / }).first());
  await checkScreen(page, 'users grid', '/services/admin/users', 'Users');
  await checkScreen(page, 'groups grid', '/services/admin/groups', 'Groups');
  await checkScreen(page, 'usage', '/services/admin/usage', 'Usage');
  await checkScreen(page, 'rates editor (pick a group)', '/services/admin/rates', 'Rates editor');
  const [kmi] = await queryRun<{ id: string }>(`SELECT id::text FROM identity.groups WHERE code = 'KMI'`);
  await checkScreen(
    page,
    'rates editor (a group)',
    `/services/admin/rates/?groupID=${kmi.id}`,
    'Rates editor',
  );
  await checkScreen(page, "a group's API keys", `/services/admin/groups/${kmi.id}/api-keys`, 'API keys');
  await checkScreen(page, "a group's webhooks", `/services/admin/groups/${kmi.id}/webhooks`, 'Webhooks');
  await checkScreen(page, 'my requests', '/requests');
  await checkScreen(page, 'request console', '/requests/admin');
  await checkScreen(page, 'operations dashboard', '/requests/insight', 'Operations insight');
  await checkBell(page);
  await checkScreen(page, 'address editor', '/avs/editor');
  await test.step('address editor: a parcel taken, an address popup and the marker popup', async () => {
    await page.getByRole('button', { name: 'Next multi-address parcel' }).click();
    await expect(page.getByTestId('work-item')).toContainText(/Multi-address parcel/);
    await page.getByRole('list', { name: 'Addresses' }).getByRole('button').first().click();
    await expect(page.getByRole('dialog', { name: /^Address / })).toBeVisible();
    await settled(page);
    await expectAccessible(page, 'address editor: an address popup');
    await page.getByRole('button', { name: 'Marker popup' }).click();
    await expect(page.getByRole('dialog', { name: 'Marker popup' })).toBeVisible();
    await expectAccessible(page, 'address editor: the marker popup');
    // The parcel goes back to the queue, for the editor's own tests.
    await page.getByRole('button', { name: 'Give back' }).click();
  });
  await checkScreen(page, 'request tool', '/savi');
  await checkScreen(page, 'IRiS', '/iris');
});

test("a group's admin: the Integration pages (API keys, webhooks, usage) and their dialogs", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const page = await pageOf(browser, 'claims@portal.test');
  await checkScreen(page, 'home', '/');
  await checkScreen(page, 'my requests', '/requests');
  await checkScreen(page, 'API keys', '/services/admin/my-group/api-keys', 'API keys');
  await checkDialog(page, 'create key', page.getByRole('button', { name: 'Create key' }));
  await checkScreen(page, 'webhooks', '/services/admin/my-group/webhooks', 'Webhooks');
  await checkDialog(page, 'add endpoint', page.getByRole('button', { name: 'Add endpoint' }));
  await checkScreen(page, 'usage', '/services/admin/my-group/usage', 'Usage');
  await checkScreen(page, 'operations dashboard (their group)', '/requests/insight', 'Operations insight');
  await checkScreen(page, 'request tool', '/savi');
});

test('a rates editor: the rates editor', async ({ browser }) => {
  const page = await pageOf(browser, 'rates@portal.test');
  await checkScreen(page, 'home', '/');
  await checkScreen(page, 'rates editor', '/services/admin/rates', 'Rates editor');
});

test('a SAVi operator: the console and its dialogs, QS checklist, report builder wizard, duplicate check; QC screens', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const user = await pageOf(browser, 'user@portal.test');
  const { grip, id } = await createSaviRequest(user, {
    nth: 160,
    policyNumber: 'KM135790',
    keyPrefix: 'a11y-e2e',
  });
  await user.context().close();

  const operator = await pageOf(browser, 'operator@portal.test');
  await checkScreen(operator, 'home', '/');
  await checkScreen(operator, 'operations dashboard', '/requests/insight', 'Operations insight');
  await checkScreen(operator, 'address editor', '/avs/editor');

  // The console, one request; its detail and dispute dialogs.
  let row = await test.step('request console', async () => {
    const found = await openConsoleAt(operator, grip);
    await settled(operator);
    await expectAccessible(operator, 'request console');
    return found;
  });
  await checkDialog(
    operator,
    'request details',
    row.getByRole('button', { name: 'Details' }),
    `Request ${grip}`,
  );
  await row.getByRole('checkbox').check();
  await checkDialog(operator, 'update all fees', operator.getByRole('button', { name: 'Update all fees' }));
  await checkDialog(operator, 'mark invoiced', operator.getByRole('button', { name: 'Mark invoiced' }));
  await row.getByRole('checkbox').uncheck();
  await checkScreen(operator, 'duplicate check', `/requests/admin/duplicate-check?requestID=${id}`);

  // QS checklist → Ready for QS; Start report opens the report builder.
  row = await openConsoleAt(operator, grip);
  await row.getByRole('button', { name: 'QS check' }).click();
  await settled(operator, 'QS checklist');
  await expectAccessible(operator, 'QS checklist');
  const qsChecks = operator.getByRole('group', { name: 'QS checks' }).getByRole('checkbox');
  await expect(qsChecks).toHaveCount(3);
  for (const check of await qsChecks.all()) await check.check();
  await operator.getByRole('button', { name: 'Save' }).click();
  await expect(operator).toHaveURL(/\/requests\/admin$/);
  row = await openConsoleAt(operator, grip);
  const opened = operator.context().waitForEvent('page');
  await row.getByRole('button', { name: 'Start report' }).click();
  const rb = await opened;

  // The report builder, step by step: property → section → building, improvement, images, map, address.
  await test.step('report builder: property overview', async () => {
    await rb.waitForURL(/\/reportbuilder\/property-overview\?requestID=/);
    await settled(rb, 'Property overview');
    await expectAccessible(rb, 'report builder: property overview');
  });
  const addSection = rb.getByRole('button', { name: 'Add section' });
  await test.step('report builder: add section (dialog)', async () => {
    await addSection.click();
    const popup = rb.getByRole('dialog', { name: 'Add section' });
    await expect(popup).toBeVisible();
    await expectAccessible(rb, 'report builder: add section');
    await popup.getByLabel('Section name').fill('Main house');
    await popup.getByLabel('Section type').selectOption('Residential');
    await popup.getByRole('button', { name: 'Add' }).click();
    await expect(popup).toHaveCount(0);
    await expect(addSection, 'the focus returns to Add section').toBeFocused();
  });
  await rb.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(rb.getByText('Unsaved changes')).toHaveCount(0);
  await rb.getByRole('table', { name: 'Sections' }).getByRole('link', { name: 'Main house' }).click();
  await test.step('report builder: section overview', async () => {
    await settled(rb, 'Section overview: Main house');
    await expectAccessible(rb, 'report builder: section overview');
  });
  await test.step('report builder: add building, add improvement (dialogs)', async () => {
    for (const [button, field, value] of [
      ['Add building', 'Building name', 'House'],
      ['Add improvement', 'Improvement name', 'Pool'],
    ] as const) {
      await rb.getByRole('button', { name: button }).click();
      const dialog = rb.getByRole('dialog', { name: button });
      await expect(dialog).toBeVisible();
      await expectAccessible(rb, `report builder: ${button.toLowerCase()}`);
      await dialog.getByLabel(field).fill(value);
      await dialog.getByRole('button', { name: 'Add' }).click();
      await expect(dialog).toHaveCount(0);
    }
  });
  await rb.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(rb.getByText('Unsaved changes')).toHaveCount(0);
  await rb.getByRole('table', { name: 'Buildings' }).getByRole('link', { name: 'House' }).click();
  await test.step('report builder: building overview', async () => {
    await settled(rb, 'Building overview: House');
    await expectAccessible(rb, 'report builder: building overview');
  });
  await rb.goBack();
  await rb.getByRole('table', { name: 'Improvements' }).getByRole('link', { name: 'Pool' }).click();
  await test.step('report builder: improvement overview', async () => {
    await settled(rb, 'Improvement overview: Pool');
    await expectAccessible(rb, 'report builder: improvement overview');
  });
  await rb.getByRole('link', { name: 'Mark the location on the map' }).click();
  await test.step('report builder: the improvement on the map (leaflet page)', async () => {
    await settled(rb);
    await expectAccessible(rb, 'report builder: leaflet page');
  });
  await checkScreen(rb, 'report builder: image upload', `/reportbuilder/image-upload?requestID=${id}`);
  await rb.goto(`/reportbuilder/property-overview?requestID=${id}`);
  await settled(rb, 'Property overview');
  await rb
    .getByRole('region', { name: 'Property image' })
    .getByRole('link', { name: 'Add an image' })
    .click();
  await test.step('report builder: image capture', async () => {
    await settled(rb, 'Property image');
    // The survey's picture answered before axe runs: "Use this picture" enabled (its colour then fades in
    // from the disabled grey, which axe must not measure half-way), or the survey has no picture here.
    await expect(
      rb
        .locator('button:not([disabled])', { hasText: 'Use this picture' })
        .or(rb.getByText('There is no picture of this survey here.')),
    ).toBeVisible();
    await expectAccessible(rb, 'report builder: image capture');
  });
  await checkScreen(
    rb,
    'report builder: edit report address',
    `/reportbuilder/edit-report-address?requestID=${id}`,
  );
  await checkScreen(rb, 'report builder: view report', `/reportbuilder/view-report?requestID=${id}`);

  // The QC screens (admins and operators) before approval.
  await checkScreen(operator, 'QC launcher', `/requests/admin/qc-checklist-launcher?requestID=${id}`);
  await checkScreen(operator, 'QC checklist', `/requests/admin/qc-checklist?requestID=${id}`);
  await checkScreen(
    operator,
    'satellite map',
    `/requests/admin/satellite-map?requestID=${id}&lat=-33.93&lng=18.86`,
    'Satellite map',
  );
});

test('SAVi QC: home, the console, their requests', async ({ browser }) => {
  const page = await pageOf(browser, 'qc@portal.test');
  await checkScreen(page, 'home', '/');
  await checkScreen(page, 'request console', '/requests/admin');
  await checkScreen(page, 'my requests', '/requests');
});

test('third-party screens (reported, not failed): Bull Board and the API reference', async ({ browser }) => {
  const page = await pageOf(browser, 'admin@portal.test');
  await page.goto('/admin/queues');
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await reportThirdParty(page, 'Bull Board (/admin/queues)');
  await page.goto('/api/docs');
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await reportThirdParty(page, 'API reference (/api/docs)');
});
