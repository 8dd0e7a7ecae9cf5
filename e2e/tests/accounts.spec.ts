import { expect, test, type Page } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { queryRun } from '../support/env';
import { readLatestMail } from '../support/mail';

/** A fresh address per run, so the suite can run again against the same database. */
const uniqueEmail = (who: string) => `${who}.${Date.now().toString(36)}@example.co.za`;

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function logout(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

test('register → log in → home → guards → forgot password → mailed link → reset → log in with the new password', async ({
  page,
}) => {
  const email = uniqueEmail('Lerato.Mokoena');
  const password = 'Baobab-Street-12';
  const newPassword = 'Marula-Avenue-34';

  // Registration: the spec's validation messages first, then success.
  await page.goto('/auth/register');
  await page.getByLabel('Name').fill('Lerato Mokoena');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm Password').fill('other');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Email must be a valid email address.')).toBeVisible();
  await expect(page.getByText('Password must be between 8-30 characters long.')).toBeVisible();

  await page.getByLabel('Email').fill(email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Registration successful. Welcome!')).toBeVisible();
  // After 2 s the page goes on to the earlier URL (here: home), logged in.
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
  await expect(page.getByTestId('current-user-name')).toHaveText('Lerato Mokoena');

  // Log out, then log in with the (lower-cased) address.
  await logout(page);
  await login(page, email.toLowerCase(), password);
  await expect(page).toHaveURL(/\/$/);
  // A new user has no services yet: the home page says so instead of showing tiles.
  await expect(
    page.getByText('No services are assigned to you yet. Please contact your administrator.'),
  ).toBeVisible();
  // Header by role: a plain user sees Home and Requests only.
  await expect(nav(page).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Requests', exact: true })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Requests Admin' })).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: 'User Admin' })).toHaveCount(0);

  // Guards: the account pages are refused to a logged-in user.
  for (const path of ['/auth/login', '/auth/register', '/forgot-password']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
  }
  await logout(page);

  // Authenticated routes send an anonymous visitor home, where the spec's text waits.
  await page.goto('/test-remote');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Please log in.')).toBeVisible();

  // Forgot password → the mailed link → a new password.
  const askedAt = new Date();
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: /send|reset/i }).click();
  await expect(
    page.getByText(
      'If an account exists for that e-mail address, a password reset link has been sent to it.',
    ),
  ).toBeVisible();
  const mail = await readLatestMail(email.toLowerCase(), { since: new Date(askedAt.getTime() - 1000) });
  expect(mail.link).toMatch(/\/reset\/[A-Za-z0-9_-]+$/);
  await page.goto(mail.link);
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Your password has been updated. You can now log in.')).toBeVisible();

  // The link works once.
  await page.goto(mail.link);
  await page.getByLabel('New Password').fill('Another-Pass-56');
  await page.getByLabel('Confirm Password').fill('Another-Pass-56');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(
    page.getByText('Could not update password as token is invalid or may have expired'),
  ).toBeVisible();

  // The old password is refused (the error shows for 2 s), the new one works.
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const failure = page.getByRole('alert').filter({ hasText: 'Incorrect e-mail or password.' });
  await expect(failure).toBeVisible();
  await expect(failure).toBeHidden({ timeout: 4_000 });
  await login(page, email, newPassword);
  await expect(page.getByTestId('current-user-name')).toHaveText('Lerato Mokoena');
});

// The reset test below gives qc@portal.test a new password; the specs after this one sign in as qc with the
// demo password, which every demo account shares: qc gets user@portal.test's hash back.
test.afterAll(async () => {
  await queryRun(
    `UPDATE identity.users SET password_hash = (SELECT password_hash FROM identity.users WHERE email = 'user@portal.test'),
            tokens_valid_after = NULL
      WHERE email = 'qc@portal.test'`,
  );
});

test('the reset callback page: no key returns home, a mailed key sets a new password and goes to the login page after 4 s', async ({
  page,
  request,
}) => {
  const { email } = demoAccount('qc@portal.test');
  await page.goto('/password-reset');
  await expect(page).toHaveURL(/\/$/);

  const askedAt = new Date(Date.now() - 1000);
  expect((await request.post('/api/v1.0/passwordreset', { data: { email } })).ok()).toBe(true);
  const mail = await readLatestMail(email, { since: askedAt });
  expect(new URL(mail.link).pathname).toBe('/password-reset');
  await page.goto(mail.link);
  await page.getByLabel('New Password').fill('Karee-Tree-Reset-9');
  await page.getByLabel('Confirm Password').fill('Karee-Tree-Reset-9');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Your password has been updated. You can now log in.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 7_000 });
  await login(page, email, 'Karee-Tree-Reset-9');
});

test('the header menu and home tiles follow the role', async ({ page }) => {
  const admin = demoAccount('admin@portal.test');
  await login(page, admin.email, admin.password);
  for (const label of ['Home', 'Requests', 'Requests Admin', 'User Admin'])
    await expect(nav(page).getByRole('link', { name: label, exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Services' }).getByRole('listitem')).toHaveCount(4);
  await logout(page);

  const operator = demoAccount('operator@portal.test');
  await login(page, operator.email, operator.password);
  await expect(nav(page).getByRole('link', { name: 'Requests Admin' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'User Admin' })).toHaveCount(0);
  await logout(page);

  const plain = demoAccount('user@portal.test');
  await login(page, plain.email, plain.password);
  await expect(nav(page).getByRole('link', { name: 'Requests Admin' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Services' })).toContainText('SAVi');
});

test('an inactive account cannot log in', async ({ page }) => {
  const inactive = demoAccount('inactive@portal.test');
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(inactive.email);
  await page.getByLabel('Password').fill(inactive.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('This account is inactive. Please contact your administrator.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('a 401 from any call sends the user to the login page', async ({ page, playwright, baseURL }) => {
  const user = demoAccount('rates@portal.test');
  await login(page, user.email, user.password);
  await page.goto('/404');
  // Wait until this page knows its user: revoking while its own users/me is in flight would simply
  // make it anonymous, with no call left to answer 401.
  await expect(page.getByTestId('current-user-name')).toBeVisible();
  // The same user logs out elsewhere: every session of theirs is revoked, this page's included.
  const elsewhere = await playwright.request.newContext({ baseURL });
  expect(
    (await elsewhere.post('/api/v1.0/login', { data: { email: user.email, password: user.password } })).ok(),
  ).toBe(true);
  expect((await elsewhere.get('/api/v1.0/logout')).ok()).toBe(true);
  await elsewhere.dispose();
  // The next call made for this page (the home tiles) answers 401, and the portal goes to the login page.
  await nav(page).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
});
