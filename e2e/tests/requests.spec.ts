import { expect, test } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { queryRun } from '../support/env';
import { locatedAddress, saviRequestForm } from '../support/requests';

// Request creation through the portal URL: the gateway routes /api/v1.0/request… to services/requests,
// which the global setup starts from the process table. The request is made from a real parcel of the run's
// generated geodata, as the request tool would, and then read back from the database.

test('logs a request from a located parcel once, reads it back and shows it on the map', async ({ page }) => {
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);

  const address = await locatedAddress(0);
  const form = await saviRequestForm(page.request, address, 'KM123456');
  expect(form.parcel).not.toBeNull();
  const key = `e2e-${Date.now()}`;
  const created = await page.request.put('/api/v1.0/request/', {
    data: form,
    headers: { 'Idempotency-Key': key },
  });
  expect(created.status(), await created.text()).toBe(201);
  expect(await created.text()).toBe('created');
  const location = created.headers()['location'];
  const grip = created.headers()['x-grip-reference'];
  expect(grip).toMatch(/^GRP-\d{4}-\d{6}$/);

  // A retried submission is written once.
  const retried = await page.request.put('/api/v1.0/request/', {
    data: form,
    headers: { 'Idempotency-Key': key },
  });
  expect(await retried.text()).toBe('created');
  expect(retried.headers()['x-grip-reference']).toBe(grip);
  const rows = await queryRun<{
    request_type: string;
    status: string;
    user_email: string;
    parcel_id: string;
  }>('SELECT request_type, status, user_email, parcel_id FROM requests.requests WHERE grip_reference = $1', [
    grip,
  ]);
  expect(rows).toEqual([
    { request_type: 'SAVI', status: 'New', user_email: user.email, parcel_id: form.parcel.id },
  ]);

  const refused = await page.request.put('/api/v1.0/request/', { data: { ...form, reference: {} } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).messages).toEqual([
    'Policy number must be two letters followed by six digits, e.g. KM123456',
  ]);

  const record = await page.request.get(location);
  expect(record.status()).toBe(200);
  expect(await record.json()).toMatchObject({
    gripReference: grip,
    status: 'New',
    parcel: { id: form.parcel.id },
  });

  const d = 0.01;
  const map = await page.request.get(
    `/api/v1.0/request/map?west=${address.lng - d}&south=${address.lat - d}&east=${address.lng + d}&north=${address.lat + d}`,
  );
  expect((await map.json()).points.map((point: { gripReference: string }) => point.gripReference)).toContain(
    grip,
  );
});

test('refuses request calls without a session', async ({ request }) => {
  expect((await request.put('/api/v1.0/request/', { data: {} })).status()).toBe(401);
  expect((await request.get('/api/v1.0/request/map')).status()).toBe(401);
});
