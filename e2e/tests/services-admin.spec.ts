import { expect, test, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { demoAccount, login } from '../support/auth';

// Every test makes its own users and groups (names unique per run), so the seeded accounts and groups the
// other specs rely on stay as they were.

const PASSWORD = 'Marula-Avenue-34';
const stamp = () => Date.now().toString(36);
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function logout(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

async function loginAsAdmin(page: Page) {
  const admin = demoAccount('admin@portal.test');
  await login(page, admin.email, admin.password);
}

/** Registers a user through the API (in a context of its own, which that logs in) and returns their e-mail. */
async function registerUser(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  name: string,
): Promise<string> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${stamp()}@example.co.za`;
  const context = await playwright.request.newContext({ baseURL });
  const answer = await context.post('/api/v1.0/register', {
    data: { name, email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  await context.dispose();
  return email;
}

/** Creates a group through the admin API of the logged-in page; answers its id. */
async function createGroup(page: Page, name: string, code: string): Promise<string> {
  const me = await (await page.request.get('/api/v1.0/users/me')).json();
  const answer = await page.request.put('/api/v1.0/groups', {
    data: { name, code, admin: me._id, references: [] },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()).group._id;
}

/** The answer to the next call of this method to a path matching `path`. */
const answerTo = (page: Page, method: string, path: RegExp) =>
  page.waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname));

test('the remote is loaded by the shell at run time, when /services/admin is first visited', async ({
  page,
}) => {
  const remoteFiles: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/remotes/servicesAdmin/'))
      remoteFiles.push(request.url());
  });
  await loginAsAdmin(page);
  await expect(page.getByRole('list', { name: 'Services' })).toBeVisible();
  expect(remoteFiles).toHaveLength(0);

  await nav(page).getByRole('link', { name: 'User Admin' }).click();

  await expect(page.getByRole('heading', { name: 'Services administration' })).toBeVisible();
  expect(remoteFiles.some((url) => url.endsWith('/remotes/servicesAdmin/mf-manifest.json'))).toBe(true);
  expect(remoteFiles.some((url) => url.includes('/remotes/servicesAdmin/remoteEntry.js'))).toBe(true);
});

test('a user without the admin role is sent home; a rates editor may open their rates only', async ({
  page,
}) => {
  const plain = demoAccount('user@portal.test');
  await login(page, plain.email, plain.password);
  await page.goto('/services/admin');
  await expect(page).toHaveURL(/\/$/);
  await logout(page);

  const ratesEditor = demoAccount('rates@portal.test');
  await login(page, ratesEditor.email, ratesEditor.password);
  for (const path of ['/services/admin', '/services/admin/users', '/services/admin/groups']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
  }
  const { groupID, groupName } = await (await page.request.get('/api/v1.0/users/me')).json();
  await page.goto(`/services/admin/rates/?groupID=${groupID}`);
  await expect(page.getByText(`Rate table of ${groupName}`)).toBeVisible();
});

test("an admin changes a user's group and roles in the users grid; the user sees them on next login", async ({
  page,
  playwright,
  baseURL,
}) => {
  // 'Aa…' sorts the new user to the top of the grid.
  const name = `Aaron Mabaso ${stamp()}`;
  const email = await registerUser(playwright, baseURL, name);

  await loginAsAdmin(page);
  await page.goto('/services/admin/users');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toBeVisible();

  // A role: one click, saved at once.
  const saved = answerTo(page, 'POST', /^\/api\/v1\.0\/user\/[^/]+$/);
  await row.getByRole('checkbox', { name: `SAVi operator for ${name}` }).check();
  expect((await saved).ok()).toBe(true);

  // The group: a dropdown of the groups, saved as soon as one is chosen.
  const groupSaved = answerTo(page, 'POST', /^\/api\/v1\.0\/user\/[^/]+$/);
  await row.locator('[data-field="group"]').dblclick();
  await page.getByRole('option', { name: 'Highveld Valuers' }).click();
  const answer = await groupSaved;
  expect(answer.ok()).toBe(true);
  expect((await answer.json()).user.groupName).toBe('Highveld Valuers');
  await expect(row.locator('[data-field="group"]')).toHaveText('Highveld Valuers');

  // After a reload the grid shows what was saved.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: `SAVi operator for ${name}` })).toBeChecked();
  await logout(page);

  // The user's next session carries the new role and group: the header offers Requests Admin, and the
  // home page the group's services.
  await login(page, email, PASSWORD);
  await expect(nav(page).getByRole('link', { name: 'Requests Admin' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Services' })).toContainText('SAVi');
});

test('an admin creates a group with references', async ({ page }) => {
  const run = stamp();
  const name = `Baobab Brokers ${run}`;
  const code = `BB${run.slice(-6).toUpperCase()}`;
  await loginAsAdmin(page);
  await page.goto('/services/admin');

  await page.getByRole('button', { name: 'New group' }).click();
  const dialog = page.getByRole('dialog', { name: 'New group' });
  await expect(dialog.getByLabel('Extra field')).toHaveValue('Betterments');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await dialog.getByRole('combobox', { name: 'Admin' }).fill('admin@portal');
  await page.getByRole('option', { name: 'Thandiwe Nkosi (admin@portal.test)' }).click();
  // A blank reference cannot be added.
  await expect(dialog.getByRole('button', { name: 'Add reference' })).toBeDisabled();
  for (const label of ['Policy Number', 'Broker name / branch']) {
    await dialog.getByLabel('New reference label').fill(label);
    await dialog.getByRole('button', { name: 'Add reference' }).click();
  }
  const references = dialog.getByRole('list', { name: 'References' });
  await expect(references).toContainText('POLICY_NUMBER');
  await expect(references).toContainText('BROKER_NAME___BRANCH');
  const created = answerTo(page, 'PUT', /^\/api\/v1\.0\/groups$/);
  await dialog.getByRole('button', { name: 'Create group' }).click();
  expect((await created).ok()).toBe(true);
  await expect(page.getByText(`Group ${name} created.`)).toBeVisible();
  await expect(dialog).toBeHidden();

  // The groups grid shows it with its admin and references.
  await page.goto('/services/admin/groups');
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toContainText('Thandiwe Nkosi (admin@portal.test)');
  await expect(row).toContainText('Policy Number, Broker name / branch');
});

test("an admin assigns a service to a group, and the group's user gets its home tile", async ({
  page,
  playwright,
  baseURL,
}) => {
  const run = stamp();
  const groupName = `Cederberg Cover ${run}`;
  const userName = `Anele Zulu ${run}`;
  const email = await registerUser(playwright, baseURL, userName);
  await loginAsAdmin(page);
  await createGroup(page, groupName, `CC${run.slice(-6).toUpperCase()}`);

  // The new user joins the group through the user dialog.
  await page.goto('/services/admin?list=users');
  await page.getByRole('button', { name: `Update user ${userName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Update user ${userName}` });
  await dialog.getByRole('combobox', { name: 'Group' }).click();
  await page.getByRole('option', { name: new RegExp(`^${groupName}`) }).click();
  const userSaved = answerTo(page, 'POST', /^\/api\/v1\.0\/user\/[^/]+$/);
  await dialog.getByRole('button', { name: 'Save user' }).click();
  expect((await userSaved).ok()).toBe(true);
  await expect(dialog).toBeHidden();

  // The group gets SpatialKey.
  await page.getByRole('tab', { name: 'Groups' }).click();
  const added = answerTo(page, 'POST', /^\/api\/v1\.0\/group\/[^/]+\/services$/);
  await page.getByRole('switch', { name: `SpatialKey for ${groupName}` }).check();
  expect((await added).ok()).toBe(true);
  await expect(page.getByRole('switch', { name: `SpatialKey for ${groupName}` })).toBeChecked();
  await logout(page);

  await login(page, email, PASSWORD);
  const tiles = page.getByRole('list', { name: 'Services' });
  await expect(tiles.getByRole('heading', { name: 'SpatialKey' })).toBeVisible();
  await expect(tiles.getByRole('listitem')).toHaveCount(1);
});

test('an admin edits and saves rates in the rates editor, opened in a new tab; they are there after a reload', async ({
  page,
  context,
}) => {
  const run = stamp();
  const groupName = `Drakensberg Mutual ${run}`;
  await loginAsAdmin(page);
  const groupID = await createGroup(page, groupName, `DM${run.slice(-6).toUpperCase()}`);

  await page.goto('/services/admin/groups');
  const [rates] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: `Rates of ${groupName}` }).click(),
  ]);
  await expect(rates).toHaveURL(new RegExp(`/services/admin/rates/\\?groupID=${groupID}$`));
  await expect(rates.getByText(`Rate table of ${groupName}`)).toBeVisible();

  // A new row starts with the spec's defaults and opens for editing.
  await rates.getByRole('button', { name: 'Add row' }).click();
  const row = rates.locator('[role="row"][data-rowindex="0"]');
  await expect(row.locator('[data-field="quantity"]')).toHaveText('no');
  await expect(rates.getByRole('checkbox', { name: 'VAT (Y/N), row 1' })).toBeChecked();
  await rates.keyboard.type('Main building');
  await rates.keyboard.press('Enter');

  // A negative rate is refused, with the reason; the save waits until it is fixed.
  const editCell = async (field: string, text: string) => {
    await row.locator(`[data-field="${field}"]`).dblclick();
    await row.locator(`[data-field="${field}"] input`).fill(text);
    await rates.keyboard.press('Enter');
  };
  await editCell('standard', '-100');
  await expect(rates.getByText('Row 1: Standard rate must be 0 or more.')).toBeVisible();
  await expect(rates.getByRole('button', { name: 'Save' })).toBeDisabled();
  await editCell('standard', '9 800');
  await editCell('increase', '6,5');
  await expect(rates.getByText('Row 1: Standard rate must be 0 or more.')).toBeHidden();

  await rates.getByRole('button', { name: 'Save' }).click();
  const notice = rates.getByText('Rates saved');
  await expect(notice).toBeVisible();
  await expect(notice).toBeHidden({ timeout: 4_000 });

  await rates.reload();
  await expect(row.locator('[data-field="report"]')).toHaveText('Main building');
  await expect(row.locator('[data-field="standard"]')).toHaveText('9800');
  await expect(row.locator('[data-field="increase"]')).toHaveText('6.5');
});
