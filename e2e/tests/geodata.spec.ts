import { expect, test } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { harness, queryRun } from '../support/env';

// The run's database holds generated geodata around Stellenbosch and Pretoria (global setup). Each test
// picks its address there, so the expectations come from the data, not from constants.

interface KnownAddress {
  id: string;
  house_number: string;
  street_name: string;
  town: string;
  parcel_id: string;
  lat: number;
  lng: number;
}

/** An address on a parcel, inside high-resolution imagery coverage. */
async function coveredAddress(): Promise<KnownAddress> {
  const [row] = await queryRun<KnownAddress>(`
    SELECT a.id::text, a.house_number, a.street_name, a.town, a.parcel_id::text,
           ST_Y(a.point) AS lat, ST_X(a.point) AS lng
    FROM geo.addresses a
    WHERE EXISTS (SELECT 1 FROM geo.imagery_coverage c
                  WHERE c.kind = 'high_resolution' AND ST_Contains(c.geom, a.point))
      AND a.parcel_id IS NOT NULL AND a.unit IS NULL AND a.house_number <> ''
    ORDER BY a.id LIMIT 1`);
  if (!row) throw new Error('The generated geodata has no address inside high-resolution coverage.');
  return row;
}

/** The XYZ tile holding a point at a zoom. */
function tileOf(lat: number, lng: number, z: number) {
  const n = 2 ** z;
  const x = Math.floor(((lng + 180) / 360) * n);
  const rad = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return { z, x, y };
}

test.beforeEach(async ({ page }) => {
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
});

test('finds a typed address, its parcel and imagery through the portal URL', async ({ page }) => {
  const address = await coveredAddress();

  // Typed as a user would, abbreviated, with the ' South Africa' the locator appends.
  const typed = `${address.house_number} ${address.street_name.replace(/ Street$/, ' St')}, ${address.town} South Africa`;
  const search = await page.request.post('/api/avs/search', {
    data: { query: typed, searchOptions: { address: true } },
  });
  expect(search.status(), await search.text()).toBe(200);
  const found = await search.json();
  expect(found.success).toBe(true);
  expect(found.result[0]).toMatchObject({ id: address.id, type: 'address' });
  expect(found.result[0].formatted_address).toContain(address.street_name);

  const reverse = await page.request.post('/api/avs/reverse', {
    data: { lat: address.lat, lng: address.lng, searchOption: 'address' },
  });
  expect(reverse.status(), await reverse.text()).toBe(200);
  const { result } = await reverse.json();
  expect(result.parcel.id).toBe(address.parcel_id);
  expect(result.parcel.addresses.map((a: { id: string }) => a.id)).toContain(address.id);

  const coverage = await page.request.get(`/api/idanCoverage?lat=${address.lat}&lng=${address.lng}`);
  // The spec's answer, and (issue 21) the capture date of the newest survey at the point.
  const covered = await coverage.json();
  expect(covered).toMatchObject({ success: true, covered: true, ortho: true });
  expect(covered.capturedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  const imageUrl = await page.request.get(
    `/api/idanImageUrl?lat=${address.lat}&lng=${address.lng}&orientation=n`,
  );
  const image = await imageUrl.json();
  expect(image.success).toBe(true);
  const picture = await page.request.get(image.url);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/jpeg');
  expect((await picture.body()).length).toBeGreaterThan(10_000);

  const { z, x, y } = tileOf(address.lat, address.lng, 15);
  const tile = await page.request.get(`/api/v1.0/tiles/parcels/${z}/${x}/${y}.mvt`);
  expect(tile.status()).toBe(200);
  expect(tile.headers()['content-type']).toBe('application/vnd.mapbox-vector-tile');
});

test('the map draws the portal’s own streets and parcels, with no outside tile server', async ({ page }) => {
  const address = await coveredAddress();
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['localhost', '127.0.0.1'].includes(url.hostname)) outside.push(request.url());
  });
  const parcelTile = page.waitForResponse(
    (r) => r.url().includes('/api/v1.0/tiles/parcels/') && r.status() === 200,
  );
  const roadTile = page.waitForResponse(
    (r) => r.url().includes('/api/v1.0/tiles/roads/') && r.status() === 200,
  );
  await page.goto(`/test-remote/map?lat=${address.lat}&lng=${address.lng}&zoom=17`);
  await expect(page.getByTestId('test-map').locator('canvas').first()).toBeVisible();
  await Promise.all([parcelTile, roadTile]);
  expect(outside).toEqual([]);
});

test('refuses searches without a session and bad input with a clear message', async ({
  page,
  playwright,
}) => {
  const anonymous = await playwright.request.newContext({ baseURL: harness().baseURL });
  const refused = await anonymous.post('/api/avs/search', { data: { query: 'Church Street' } });
  expect(refused.status()).toBe(401);
  await anonymous.dispose();

  const empty = await page.request.post('/api/avs/search', { data: { query: '   ' } });
  expect(empty.status()).toBe(400);
  expect((await empty.json()).message).toBeTruthy();
  const abroad = await page.request.post('/api/avs/reverse', { data: { lat: 51.5, lng: -0.12 } });
  expect(abroad.status()).toBe(400);
});
