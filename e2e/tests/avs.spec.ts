import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { harness, loadGeo, queryRun } from '../support/env';

// Address validation and can't-locate at /avs, through the portal URL, over the run's generated geodata
// (global setup). user@portal.test is in the KMI group, which has the avs service; a newly registered
// user has no group and no services.

interface KnownAddress {
  id: string;
  house_number: string;
  street_name: string;
  suburb: string;
  town: string;
  postal_code: string | null;
  parcel_number: string;
  portion: number;
}

/** Street addresses on a parcel whose number and street are unique in their town. */
async function knownAddresses(count: number): Promise<KnownAddress[]> {
  const rows = await queryRun<KnownAddress>(
    `SELECT a.id::text, a.house_number, a.street_name, a.suburb, a.town, a.postal_code,
            p.parcel_number, p.portion
     FROM geo.addresses a JOIN geo.parcels p ON p.id = a.parcel_id
     WHERE a.unit IS NULL AND a.estate IS NULL AND a.house_number <> ''
       AND (SELECT count(*) FROM geo.addresses b
            WHERE b.street_name = a.street_name AND b.house_number = a.house_number AND b.town = a.town) = 1
     ORDER BY md5(a.source_id) LIMIT $1`,
    [count],
  );
  if (rows.length < count) throw new Error('The generated geodata has too few unique street addresses.');
  return rows;
}

const standardised = (a: KnownAddress) =>
  loadGeo().formatAddress({
    houseNumber: a.house_number,
    street: a.street_name,
    suburb: a.suburb,
    town: a.town,
    postalCode: a.postal_code,
  });

const erf = (a: KnownAddress) =>
  a.portion > 0 ? `Erf ${a.parcel_number}/${a.portion}` : `Erf ${a.parcel_number}`;

async function openAvs(page: Page) {
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
  await page.goto('/avs');
  await expect(page.getByRole('heading', { name: 'Address validation' })).toBeVisible();
}

test('validates a typed address: standardised, with its parcel, confidence and point on the map', async ({
  page,
}) => {
  const [address] = await knownAddresses(1);
  await openAvs(page);
  // Typed as a user would: lower case, the street type abbreviated, no postal code.
  const typed =
    `${address.house_number} ${address.street_name.replace(/ Street$/, ' St')} ${address.town}`.toLowerCase();
  await page.getByRole('textbox', { name: /^Address/ }).fill(typed);
  await page.getByRole('button', { name: 'Validate', exact: true }).click();

  const result = page.getByTestId('validation-result');
  await expect(result.getByTestId('standardised-address')).toHaveText(standardised(address));
  await expect(result.getByTestId('validated-parcel')).toHaveText(erf(address));
  await expect(result.getByText('Valid', { exact: true })).toBeVisible();
  await expect(result.getByText(/^\d+ %$/)).toBeVisible();
  await expect(page.getByTestId('validation-map').locator('canvas').first()).toBeVisible();
});

test('validates a CSV file in a batch and downloads the results', async ({ page }) => {
  const addresses = await knownAddresses(2);
  await openAvs(page);
  await page.getByRole('tab', { name: 'Validate a CSV file' }).click();
  const csv = [
    'ref,address',
    `A1,"${standardised(addresses[0])}"`,
    'A2,Qwxzv Plonkity Vrrmbl',
    `A3,"${addresses[1].house_number} ${addresses[1].street_name}, ${addresses[1].town}"`,
  ].join('\r\n');
  await page.getByTestId('csv-file-input').setInputFiles({
    name: 'clients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(page.getByTestId('csv-rows-read')).toHaveText('3 rows read from clients.csv.');
  await page.getByRole('button', { name: 'Validate rows' }).click();
  await expect(page.getByTestId('batch-progress')).toHaveText('3 of 3 rows validated');
  await expect(page.getByTestId('batch-summary').locator('[data-count="valid"]')).toHaveText('2');
  await expect(page.getByTestId('batch-summary').locator('[data-count="not found"]')).toHaveText('1');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download results (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('clients-validated.csv');
  const lines = readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe(
    'ref,address,standardised address,suburb,town,postal code,lat,lng,parcel,confidence,verdict',
  );
  expect(lines).toHaveLength(4);
  expect(lines[1]).toContain(`,${erf(addresses[0])},`);
  expect(lines[1]).toMatch(/,valid$/);
  expect(lines[2]).toMatch(/^A2,Qwxzv Plonkity Vrrmbl,,,,,,,,0\.000,not found$/);
  expect(lines[3]).toContain(`"${standardised(addresses[1])}"`);
});

test("logs a can't-locate request, which is stored as an AVS request of subtype Can't Locate", async ({
  page,
}) => {
  await openAvs(page);
  await page.getByRole('tab', { name: "Can't locate" }).click();
  const typed = `Plot ${Date.now() % 100000}, Vaalbank road, near Bronkhorstspruit`;
  await page.getByRole('textbox', { name: /^Address as you have it/ }).fill(typed);
  await page.getByRole('textbox', { name: /^Comments/ }).fill('Smallholding behind the farm stall');
  // KMI's required reference, with its pattern.
  const policy = page.getByRole('textbox', { name: /^Policy Number/ });
  await policy.fill('12345');
  await page.getByRole('button', { name: 'Log request' }).click();
  await expect(
    page.getByText('Policy number must be two letters followed by six digits, e.g. KM123456'),
  ).toBeVisible();
  await policy.fill('KM123456');
  await page.getByRole('button', { name: 'Log request' }).click();

  const reference = page.getByTestId('grip-reference');
  await expect(reference).toHaveText(/^GRP-/);
  const [stored] = await queryRun<{
    request_type: string;
    request_sub_type: string;
    query: string;
    additional: string;
    user_email: string;
    reference: Record<string, string>;
    status: string;
  }>(
    `SELECT request_type, request_sub_type, query, additional, user_email, reference, status
     FROM requests.requests WHERE grip_reference = $1`,
    [await reference.textContent()],
  );
  expect(stored).toMatchObject({
    request_type: 'AVS',
    request_sub_type: "Can't Locate",
    query: typed,
    additional: 'Smallholding behind the farm stall',
    user_email: 'user@portal.test',
    reference: { POLICY_NUMBER: 'KM123456' },
    status: 'New',
  });
});

test('a user without the avs service is sent home', async ({ page, playwright }) => {
  const email = `no.avs.${Date.now()}@example.co.za`;
  const password = harness().demoPassword;
  const context = await playwright.request.newContext({ baseURL: harness().baseURL });
  const registered = await context.post('/api/v1.0/register', {
    data: { name: 'Nandi Zulu', email, password, confirmPassword: password },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await context.dispose();

  await login(page, email, password);
  await page.goto('/avs');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Address validation' })).toHaveCount(0);
});

test('the mapping service shows the user’s requests, filtered, and asks again for the map’s box', async ({
  page,
}) => {
  const [address] = await knownAddresses(1);
  const [point] = await queryRun<{ lat: number; lng: number }>(
    'SELECT ST_Y(point) AS lat, ST_X(point) AS lng FROM geo.addresses WHERE id = $1',
    [address.id],
  );
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
  const created = await page.request.put('/api/v1.0/request/', {
    headers: { 'Idempotency-Key': `spatialkey-e2e-${Date.now()}` },
    data: {
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      coordinates: { lat: Number(point.lat), lng: Number(point.lng) },
      Searched_For: standardised(address),
      selected: { formatted_address: standardised(address) },
      reference: { POLICY_NUMBER: 'KM654321' },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const gripReference = created.headers()['x-grip-reference'];

  const firstLook = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1.0/request/map');
  await page.goto('/spatialkey');
  await expect(page.getByRole('heading', { name: 'Mapping service' })).toBeVisible();
  const answer = await (await firstLook).json();
  expect(answer.points.map((p: { gripReference: string }) => p.gripReference)).toContain(gripReference);
  await expect(page.getByTestId('request-count')).toHaveText(/\d+ requests? in view/);

  // Filtered by type: the call says so.
  const filtered = page.waitForResponse(
    (r) =>
      new URL(r.url()).pathname === '/api/v1.0/request/map' &&
      new URL(r.url()).searchParams.get('type') === 'SAVI',
  );
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'SAVI' }).click();
  await page.keyboard.press('Escape');
  const savi = await (await filtered).json();
  expect(savi.points.every((p: { requestType: string }) => p.requestType === 'SAVI')).toBe(true);

  // The map moved: asked again for its box once it rests.
  const boxed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/request/map' && new URL(r.url()).searchParams.has('west'),
  );
  const map = page.getByTestId('spatialkey-map');
  await map.hover();
  await page.mouse.wheel(0, -400);
  const inBox = new URL((await boxed).url()).searchParams;
  expect(Number(inBox.get('west'))).toBeLessThan(Number(inBox.get('east')));
  expect(inBox.get('type')).toBe('SAVI');
});

test('locate finds an address and shows its parcel and the addresses on it', async ({ page }) => {
  const [address] = await knownAddresses(1);
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
  await page.goto('/locate');
  await expect(page.getByRole('heading', { name: 'Locate' })).toBeVisible();
  await page.getByText('Search by Street Address').click();
  const box = page.getByRole('textbox', { name: 'Search by Street Address' });
  await box.fill(`${address.house_number} ${address.street_name}, ${address.town}`);
  await box.press('Enter');
  await page.getByText(standardised(address), { exact: true }).first().click();
  await expect(page.getByTestId('locate-parcel')).toHaveText(`Parcel: ${erf(address)}`);
  await expect(
    page
      .getByTestId('locate-summary')
      .getByRole('list', { name: 'Addresses on this parcel' })
      .getByText(`${address.house_number} ${address.street_name}`, { exact: true }),
  ).toBeVisible();
});
