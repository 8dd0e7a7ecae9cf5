import { expect, test } from '@playwright/test';

test('the portal URL serves the shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Property Portal');
});

test('/remotes.json lists the remotes, without their folders, uncached', async ({ request }) => {
  const answer = await request.get('/remotes.json');
  expect(answer.status()).toBe(200);
  expect(answer.headers()['cache-control']).toBe('no-cache');
  expect(await answer.json()).toEqual({
    remotes: [
      { name: 'testRemote', entry: '/remotes/testRemote/mf-manifest.json', routes: ['/test-remote'] },
      {
        name: 'servicesAdmin',
        entry: '/remotes/servicesAdmin/mf-manifest.json',
        routes: ['/services/admin'],
        // A group's admin opens their group's API keys, webhooks and usage (issue 22).
        roles: ['admin', 'ratesEditor', 'groupAdmin'],
      },
      {
        name: 'locator',
        entry: '/remotes/locator/mf-manifest.json',
        routes: ['/savi', '/avs', '/locate', '/spatialkey'],
        roles: ['authenticated'],
      },
      {
        name: 'requestsAdmin',
        entry: '/remotes/requestsAdmin/mf-manifest.json',
        routes: ['/requests'],
        roles: ['authenticated'],
      },
      {
        name: 'iris',
        entry: '/remotes/iris/mf-manifest.json',
        routes: ['/iris'],
        roles: ['authenticated'],
      },
      {
        name: 'reportBuilder',
        entry: '/remotes/reportBuilder/mf-manifest.json',
        routes: ['/reportbuilder'],
        roles: ['admin', 'saviOperator', 'saviQC'],
      },
      {
        name: 'avsEditor',
        entry: '/remotes/avsEditor/mf-manifest.json',
        routes: ['/avs/editor'],
        roles: ['admin', 'saviOperator'],
      },
    ],
  });
});

test("/api/v1.0/loggedin answers '0' when logged out", async ({ request }) => {
  const answer = await request.get('/api/v1.0/loggedin');
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toBe('0');
});

test('an unknown API path is a JSON 404 in the one error shape', async ({ request }) => {
  const answer = await request.get('/api/v1.0/no-such-thing');
  expect(answer.status()).toBe(404);
  expect(answer.headers()['content-type']).toContain('application/json');
  expect(await answer.json()).toMatchObject({
    statusCode: 404,
    error: 'Not Found',
    message: 'No route for GET /api/v1.0/no-such-thing',
  });
});
