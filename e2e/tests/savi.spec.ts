import { expect, test, type Page } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { queryRun } from '../support/env';

// The SAVi request tool through the portal: the run's generated geodata (Stellenbosch, Pretoria), the
// locator, identity (references) and the requests service. Addresses are picked from the data with SQL.

interface KnownAddress {
  id: string;
  house_number: string;
  street_name: string;
  town: string;
  parcel_id: string;
  lat: number;
  lng: number;
}

/** An address on a parcel inside high-resolution imagery coverage (offset picks a different one). */
async function coveredAddress(offset = 0): Promise<KnownAddress> {
  const [row] = await queryRun<KnownAddress>(
    `SELECT a.id::text, a.house_number, a.street_name, a.town, a.parcel_id::text,
            ST_Y(a.point) AS lat, ST_X(a.point) AS lng
     FROM geo.addresses a
     WHERE EXISTS (SELECT 1 FROM geo.imagery_coverage c
                   WHERE c.kind = 'high_resolution' AND ST_Contains(c.geom, a.point))
       AND a.parcel_id IS NOT NULL AND a.unit IS NULL AND a.house_number <> ''
     ORDER BY a.id OFFSET $1 LIMIT 1`,
    [offset],
  );
  if (!row) throw new Error('The generated geodata has no address inside high-resolution coverage.');
  return row;
}

interface StoredRequest {
  request_type: string;
  request_sub_type: string | null;
  status: string;
  user_email: string;
  cant_locate: boolean;
  reference: Record<string, string>;
  lat: number | null;
  lng: number | null;
  parcel_id: string | null;
  used_idan: boolean;
  searched_for: string | null;
  mode: string | null;
}

const storedRequest = async (gripReference: string) =>
  (
    await queryRun<StoredRequest>(
      `SELECT request_type, request_sub_type, status, user_email, cant_locate, reference, lat, lng,
              parcel_id, used_idan, searched_for, mode
       FROM requests.requests WHERE grip_reference = $1`,
      [gripReference],
    )
  )[0];

async function openTool(page: Page, email: string) {
  const user = demoAccount(email);
  await login(page, user.email, user.password);
  await page.goto('/savi');
  await expect(page.getByPlaceholder('Please select search option...')).toBeVisible();
}

async function search(page: Page, option: string, text: string) {
  await page.getByRole('button', { name: new RegExp(`^${option}`) }).click();
  const box = page.getByRole('textbox', { name: option });
  await box.fill(text);
  await box.press('Enter');
}

const popup = (page: Page) => page.getByTestId('marker-popup');

/** Fills the General Info step and goes on to the review. */
async function fillReferences(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('request-review')).toBeVisible();
}

async function submit(page: Page): Promise<string> {
  const created = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/request/' && r.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Submit' }).click();
  const answer = await created;
  expect(await answer.text()).toBe('created');
  expect(answer.request().headers()['idempotency-key']).toBeTruthy();
  await expect(page.getByText('Your request has been logged.')).toBeVisible();
  const reference = (await page.getByTestId('grip-reference').textContent())?.replace('GRiP reference: ', '');
  expect(reference).toMatch(/^GRP-/);
  return reference!;
}

test('address search → parcel → picture view → Replacement Value Estimate → request stored', async ({
  page,
}) => {
  const address = await coveredAddress();
  await openTool(page, 'user@portal.test');
  await search(
    page,
    'Search by Street Address',
    `${address.house_number} ${address.street_name}, ${address.town}`,
  );

  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('button').first()).toContainText(address.street_name);
  await results.getByRole('button').first().click();

  // The popup: the address and the parcel's addresses, from the reverse geocode at the point.
  await expect(popup(page)).toContainText(address.street_name);
  await expect(popup(page)).toContainText('Marker is draggable');
  await expect(popup(page).getByRole('list', { name: 'Addresses on this parcel' })).toContainText(
    `${address.house_number} ${address.street_name}`,
  );
  await expect(popup(page).getByRole('button', { name: 'Get ID' })).toHaveCount(0);
  // The parcel outline is on the map (the map says which parcel it has drawn).
  await expect(page.getByTestId('locator-map')).toHaveAttribute('data-parcel-drawn', address.parcel_id);

  // Picture view: covered, so the oblique viewer; the marker is not draggable meanwhile.
  await page.getByRole('switch', { name: 'Picture view' }).check();
  const viewer = page.getByTestId('imagery-viewer');
  await expect(viewer.getByRole('img', { name: 'North' })).toBeVisible();
  await expect(popup(page)).not.toContainText('Marker is draggable');
  await viewer.getByRole('tab', { name: 'East' }).click();
  await expect(viewer.getByRole('img', { name: 'East' })).toBeVisible();
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await expect(viewer.getByText('120%')).toBeVisible();

  const rve = page.getByRole('button', { name: 'Replacement Value Estimate' });
  await expect(rve).toHaveAttribute('aria-disabled', 'false');
  await rve.click();
  await expect(page.getByText('General Info')).toBeVisible();
  const policy = page.getByLabel('Policy Number');
  await expect(policy).toHaveAttribute('placeholder', 'Please provide Policy Number');
  await expect(page.getByLabel('Broker Name (optional)')).toBeVisible();
  await expect(page.getByLabel(/Underwriting Batch/)).toHaveCount(0);

  // Required, then a regex failure: Next stays on General Info.
  await page.getByRole('button', { name: 'Next' }).click();
  const rule = 'Policy number must be two letters followed by six digits, e.g. KM123456';
  await expect(page.getByText(rule)).toBeVisible();
  await policy.fill('KM12');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(rule)).toBeVisible();
  await expect(page.getByTestId('request-review')).toHaveCount(0);

  await fillReferences(page, { 'Policy Number': 'KM123456', 'Broker Name (optional)': 'Acme Brokers' });
  const review = page.getByTestId('request-review');
  await expect(review).toContainText('Replacement Value Estimate');
  await expect(review).toContainText('KM123456');
  const reference = await submit(page);

  const stored = await storedRequest(reference);
  expect(stored).toMatchObject({
    request_type: 'SAVI',
    request_sub_type: 'Replacement Value Estimate',
    status: 'New',
    user_email: 'user@portal.test',
    cant_locate: false,
    reference: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' },
    parcel_id: address.parcel_id,
    used_idan: true,
    mode: 'address',
  });
  expect(stored.lat).toBeCloseTo(address.lat, 5);
  expect(stored.lng).toBeCloseTo(address.lng, 5);

  await page.getByRole('button', { name: 'New Request' }).click();
  await expect(page.getByPlaceholder('Please select search option...')).toBeVisible();
});

test('GPS search, then a marker placed by a map click', async ({ page }) => {
  const address = await coveredAddress(1);
  await openTool(page, 'user@portal.test');

  await search(page, 'Search by Geo-co-ordinates', 'not a place');
  await expect(page.getByRole('alert')).toHaveText('Unable to parse the GPS co-ordinate provided');
  await page.getByRole('button', { name: 'OK' }).click();

  const box = page.getByRole('textbox', { name: 'Search by Geo-co-ordinates' });
  await box.fill(`${address.lat}, ${address.lng}`);
  await box.press('Enter');
  await expect(popup(page)).toContainText(address.street_name);

  // Escape back to the options (the map stays where it is, zoomed to the point), then click the map.
  await box.press('Escape');
  await page.getByRole('button', { name: /^Search by Map Click/ }).click();
  const reverse = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/avs/reverse');
  const map = page.getByTestId('locator-map');
  const bounds = (await map.boundingBox())!;
  await map.click({ position: { x: bounds.width / 2, y: bounds.height / 2 } });
  const answer = await (await reverse).json();
  expect(answer.success).toBe(true);
  await expect(popup(page)).not.toContainText('Retrieving Information . . .');
  await expect(popup(page)).toContainText('Marker is draggable');
  await expect(popup(page)).toContainText(answer.result.address?.formatted_address ?? 'No address retrieved');
});

test("a marker drawn with the map's draw tool", async ({ page }) => {
  const address = await coveredAddress(3);
  await openTool(page, 'user@portal.test');
  // A GPS search brings the map to the data; Escape goes back to the options and leaves the map there.
  await search(page, 'Search by Geo-co-ordinates', `${address.lat}, ${address.lng}`);
  await expect(popup(page)).toContainText(address.street_name);
  await page.getByRole('textbox', { name: 'Search by Geo-co-ordinates' }).press('Escape');
  await expect(popup(page)).toHaveCount(0);

  await page.getByRole('button', { name: /^Search by Map Click/ }).click();
  const draw = page.getByRole('button', { name: 'Draw a marker' });
  await draw.click();
  await expect(draw).toHaveAttribute('aria-pressed', 'true');
  const reverse = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/avs/reverse');
  const map = page.getByTestId('locator-map');
  const bounds = (await map.boundingBox())!;
  await map.click({ position: { x: bounds.width / 2, y: bounds.height / 2 } });
  await expect(popup(page)).toBeVisible();
  await expect(popup(page)).toContainText(/Retrieving Information \. \. \.|Marker is draggable/);
  const answer = await (await reverse).json();
  await expect(popup(page)).toContainText(answer.result.address?.formatted_address ?? 'No address retrieved');
  // One point per use: the tool is off again.
  await expect(draw).toHaveAttribute('aria-pressed', 'false');
});

test('the Satellite base layer: the portal’s own imagery tiles with street labels over them', async ({
  page,
}) => {
  const address = await coveredAddress(2);
  await openTool(page, 'user@portal.test');
  await search(page, 'Search by Geo-co-ordinates', `${address.lat}, ${address.lng}`);
  await expect(popup(page)).toContainText(address.street_name);
  const map = page.getByTestId('locator-map');
  await expect(map.locator('[data-street-map]')).toHaveCount(1);

  const satelliteTile = page.waitForResponse(
    (r) => new URL(r.url()).pathname.startsWith('/api/v1.0/tiles/satellite/') && r.status() === 200,
  );
  await page.getByRole('button', { name: 'Satellite' }).click();
  const tile = await satelliteTile;
  expect(tile.headers()['content-type']).toBe('image/jpeg');
  await expect(map.locator('[data-imagery-labels]')).toHaveCount(1);
  await expect(map.locator('[data-street-map]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Street' }).click();
  await expect(map.locator('[data-street-map]')).toHaveCount(1);
  await expect(map.locator('[data-imagery-labels]')).toHaveCount(0);
});

test("Can't Locate after an empty search is logged without an address", async ({ page }) => {
  await openTool(page, 'user@portal.test');
  await search(page, 'Search by Street Address', 'Qxzv Wjkq Plmb');
  await expect(page.getByText('No results found.')).toBeVisible();
  await page.getByRole('button', { name: "Can't Locate" }).click();
  await fillReferences(page, { 'Policy Number': 'KM654321' });
  await expect(page.getByTestId('request-review')).not.toContainText('Selected address');
  const reference = await submit(page);
  expect(await storedRequest(reference)).toMatchObject({
    request_type: 'SAVI',
    request_sub_type: "Can't Locate",
    cant_locate: true,
    reference: { POLICY_NUMBER: 'KM654321' },
    searched_for: 'Qxzv Wjkq Plmb',
  });
});

test("a claims user's form asks for the group's claimsReferences", async ({ page }) => {
  await openTool(page, 'claims@portal.test');
  await search(page, 'Search by Street Address', 'Qxzv Wjkq Plmb');
  await page.getByRole('button', { name: "Can't Locate" }).click();
  await expect(page.getByLabel('Claim Number')).toHaveAttribute('placeholder', 'Please provide Claim Number');
  await expect(page.getByLabel('Assessor Name (optional)')).toBeVisible();
  await expect(page.getByLabel(/Policy Number/)).toHaveCount(0);
  await page.getByLabel('Claim Number').fill('CLM12');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Claim number must look like CLM123456')).toBeVisible();
});

test('a user without the savi service is sent home', async ({ page }) => {
  // A newly registered user belongs to no group and has no services.
  const email = `no-savi-${Date.now()}@example.co.za`;
  await page.goto('/auth/register');
  await page.getByLabel('Name').fill('Nosipho Zulu');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Sunbird-Karoo-42');
  await page.getByLabel('Confirm Password').fill('Sunbird-Karoo-42');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  await page.goto('/savi');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByPlaceholder('Please select search option...')).toHaveCount(0);
});

test("the popup offers 'Get ID' to a user with includeIds", async ({ page }) => {
  const address = await coveredAddress(2);
  await openTool(page, 'admin@portal.test');
  await search(page, 'Search by Geo-co-ordinates', `${address.lat}, ${address.lng}`);
  await expect(popup(page)).toContainText(address.street_name);
  await expect(popup(page).getByRole('button', { name: 'Get ID' })).toBeVisible();
  await expect(popup(page).getByRole('button', { name: 'Copy GPS' })).toBeVisible();
});
