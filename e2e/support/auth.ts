import type { Browser, Page } from '@playwright/test';
import { harness } from './env';

/** The seeded demo accounts (libs/db seed), all with the same password. */
export const demoAccounts = () => harness().demoAccounts;

/** A demo account by e-mail, e.g. demoAccount('admin@portal.test'), with its password. */
export function demoAccount(email: string): { email: string; role: string; password: string } {
  const account = harness().demoAccounts.find((a) => a.email === email);
  if (!account)
    throw new Error(
      `${email} is not a demo account (${harness()
        .demoAccounts.map((a) => a.email)
        .join(', ')}).`,
    );
  return { ...account, password: harness().demoPassword };
}

/** Logs in through the shell's login page, and waits until the page has moved on from /auth. */
export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/login' && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Log in' }).click();
  const response = await answer;
  if (!response.ok())
    throw new Error(`Login as ${email} failed: ${response.status()} ${await response.text()}`);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
}

/** A signed-in page of its own (a browser context each: separate sessions, as two people). */
export async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = demoAccount(email);
  await login(page, account.email, account.password);
  return page;
}
