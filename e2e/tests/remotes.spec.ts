import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../scripts/lib/processes.mjs';
import { demoAccount, login } from '../support/auth';

// These tests move the test remote's build folder about: one at a time, in this order.
test.describe.configure({ mode: 'serial' });

const REMOTE_DIST = join(ROOT, 'e2e/test-remote/dist');
const PARKED_DIST = `${REMOTE_DIST}.parked`;
const shellIndexHash = () =>
  createHash('sha256')
    .update(readFileSync(join(ROOT, 'shell/dist/index.html')))
    .digest('hex');

test.afterAll(() => {
  // Whatever happened, leave the remote in place for the next run.
  if (existsSync(PARKED_DIST)) {
    rmSync(REMOTE_DIST, { recursive: true, force: true });
    renameSync(PARKED_DIST, REMOTE_DIST);
  }
});

test.beforeEach(async ({ page }) => {
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
});

test('a remote registered from /remotes.json loads on first visit and shares the shell’s store', async ({
  page,
}) => {
  const remoteEntries: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/remotes/testRemote/')) remoteEntries.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Services' })).toBeVisible();
  // Nothing of the remote is fetched until its route is visited.
  expect(remoteEntries).toHaveLength(0);
  await page.goto('/test-remote');
  await expect(page.getByTestId('test-remote-stamp')).toContainText('Test remote build');
  // The user comes from the shell's store: web-kit, react-redux and React are shared singletons.
  await expect(page.getByTestId('test-remote-user')).toHaveText(/Signed in as /);
  expect(remoteEntries.some((url) => url.endsWith('mf-manifest.json'))).toBe(true);
});

test('a remote that is down shows a contained error with a retry; the rest of the portal keeps working', async ({
  page,
}) => {
  renameSync(REMOTE_DIST, PARKED_DIST);
  try {
    await page.goto('/test-remote');
    const failure = page.getByText('This part of the portal could not be loaded.');
    await expect(failure).toBeVisible({ timeout: 20_000 });
    // The frame still works: the header navigates to the home page and its tiles.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('list', { name: 'Services' })).toBeVisible();
    await page.goBack();
    await expect(failure).toBeVisible({ timeout: 20_000 });
  } finally {
    renameSync(PARKED_DIST, REMOTE_DIST);
  }
  // Back up: Retry loads it without a page reload.
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('test-remote-stamp')).toBeVisible({ timeout: 20_000 });
});

test('a remote rebuilt alone is picked up without rebuilding the shell', async ({ page }) => {
  test.setTimeout(180_000);
  const shellBefore = shellIndexHash();
  const stamp = `rebuilt-${Date.now()}`;
  await promisify(execFile)('npx', ['webpack', '-c', 'e2e/test-remote/webpack.config.cjs'], {
    cwd: ROOT,
    env: { ...process.env, TEST_REMOTE_STAMP: stamp, NODE_ENV: 'production' },
    timeout: 150_000,
  });
  await page.goto('/test-remote');
  await expect(page.getByTestId('test-remote-stamp')).toHaveText(`Test remote build ${stamp}`);
  expect(shellIndexHash()).toBe(shellBefore);
});
