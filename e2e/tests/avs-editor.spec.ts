import { expect, test, type Page } from '@playwright/test';
import { demoAccount, login } from '../support/auth';
import { harness, loadGeo, queryRun } from '../support/env';

// The address editor at /avs/editor through the portal URL, over the run's generated geodata (global
// setup): an operator works the queues and fixes addresses, and users find the fixes at once.
// operator@portal.test is a SAVi operator; user@portal.test (KMI, with the avs service) logs requests and
// searches; qc@portal.test is a validator by config/avs-editor.json's prefixes.

test.beforeAll(async () => {
  // The generated estates' units are all checked already (quality 25 and up): one unit on each
  // multi-address parcel starts unconfirmed (20, CNF), as imported data has them, so there is one to accept.
  await queryRun(
    `UPDATE geo.addresses a SET quality = 20, review = NULL
     FROM (SELECT min(id) AS id FROM geo.addresses WHERE parcel_id IN
             (SELECT id FROM geo.parcels WHERE address_count > 1) GROUP BY parcel_id) first
     WHERE a.id = first.id`,
  );
});

async function openEditor(page: Page, email = 'operator@portal.test') {
  const account = demoAccount(email);
  await login(page, account.email, account.password);
  await page.goto('/avs/editor/');
  await expect(page.getByRole('heading', { name: 'AVS Address Editor' })).toBeVisible();
}

const field = (page: Page, label: string) => page.locator(`[data-field="${label}"]`);

test('an operator takes the next multi-address parcel, accepts an address with a quality, adds a number that users then find', async ({
  page,
  browser,
}) => {
  await openEditor(page);
  await page.getByRole('button', { name: 'Next multi-address parcel' }).click();
  await expect(page.getByTestId('work-item')).toContainText(
    /Multi-address parcel Erf \d+ · Held for you until/,
  );
  await expect(field(page, 'Parcel')).toHaveText(/^Erf \d+/);
  await expect(field(page, 'Street code')).toHaveText(/^\d{4}$|^–$/);
  const [held] = await queryRun<{ id: string; parcel_number: string }>(
    `SELECT id::text AS id, parcel_number FROM geo.parcels WHERE held_by_email = 'operator@portal.test'`,
  );
  await expect(field(page, 'Parcel')).toHaveText(`Erf ${held.parcel_number}`);

  // Accept the unconfirmed address with quality DDS.
  const addresses = page.getByRole('list', { name: 'Addresses' });
  const unconfirmed = addresses.getByRole('button').filter({ hasText: 'CNF (20)' }).first();
  await unconfirmed.click();
  const popup = page.getByRole('dialog', { name: /^Address / });
  await expect(popup.getByRole('button', { name: 'Accept' })).toBeEnabled();
  await popup.getByRole('combobox', { name: 'Quality' }).click();
  await page.getByRole('option', { name: 'DDS (40)' }).click();
  await popup.getByRole('button', { name: 'Accept' }).click();
  await expect(popup.getByRole('status')).toHaveText('Saved.');
  await expect(addresses.getByRole('button').filter({ hasText: 'DDS (40) · accepted' })).toHaveCount(1);
  // Now it is 40: Accept is disabled (spec 03 §5).
  await expect(popup.getByRole('button', { name: 'Accept' })).toBeDisabled();
  const [accepted] = await queryRun<{ quality: number; review: string; user_email: string }>(
    `SELECT a.quality, a.review, e.user_email FROM geo.addresses a
     JOIN avs_editor.edits e ON e.entity = 'address' AND e.entity_id = a.id::text AND e.action = 'accept'
     WHERE a.parcel_id = $1`,
    [held.id],
  );
  expect(accepted).toEqual({ quality: 40, review: 'accepted', user_email: 'operator@portal.test' });

  // Add a street number at the marker, on the closest road.
  const [{ number }] = await queryRun<{ number: number }>(
    `SELECT n AS number FROM generate_series(9001, 9999) n
     WHERE NOT EXISTS (SELECT 1 FROM geo.addresses WHERE number_value = n) LIMIT 1`,
  );
  await page.getByRole('button', { name: 'Marker popup' }).click();
  const marker = page.getByRole('dialog', { name: 'Marker popup' });
  await marker.getByRole('button', { name: 'Add address' }).click();
  await marker.getByRole('textbox', { name: 'Street number' }).fill(String(number));
  await marker.getByRole('button', { name: 'Save' }).click();
  await expect(marker.getByRole('status')).toHaveText(new RegExp(`^Added ${number} `));
  const [added] = await queryRun<{
    house_number: string;
    street_name: string;
    town: string;
    suburb: string;
    postal_code: string | null;
  }>(
    `SELECT house_number, street_name, town, suburb, postal_code FROM geo.addresses
     WHERE source = 'avs-editor' AND house_number = $1`,
    [String(number)],
  );
  await expect(
    addresses.getByRole('button').filter({ hasText: `${number} ${added.street_name}` }),
  ).toHaveCount(1);

  // A user finds it at once with the locator's search.
  const userContext = await browser.newContext({ baseURL: harness().baseURL });
  const userPage = await userContext.newPage();
  const user = demoAccount('user@portal.test');
  await login(userPage, user.email, user.password);
  await userPage.goto('/locate');
  await userPage.getByText('Search by Street Address').click();
  const box = userPage.getByRole('textbox', { name: 'Search by Street Address' });
  await box.fill(`${number} ${added.street_name}, ${added.town}`);
  await box.press('Enter');
  const standardised = loadGeo().formatAddress({
    houseNumber: added.house_number,
    street: added.street_name,
    suburb: added.suburb,
    town: added.town,
    postalCode: added.postal_code,
  });
  await userPage.getByText(standardised, { exact: true }).first().click();
  await expect(userPage.getByTestId('locate-parcel')).toHaveText(`Parcel: Erf ${held.parcel_number}`);
  await userContext.close();

  // Done with the parcel: it leaves the queue and the hold goes.
  await page.getByRole('button', { name: 'Parcel done' }).click();
  await expect
    .poll(async () => {
      const [row] = await queryRun<{ reviewed: boolean; held: boolean }>(
        'SELECT reviewed_at IS NOT NULL AS reviewed, held_by IS NOT NULL AS held FROM geo.parcels WHERE id = $1',
        [held.id],
      );
      return row;
    })
    .toEqual({ reviewed: true, held: false });
});

test("an operator resolves a can't-locate request logged in /avs, and the requester sees it finalised", async ({
  page,
  browser,
}) => {
  // The address the user could not find, as it is in the geodata.
  const [known] = await queryRun<{
    id: string;
    house_number: string;
    street_name: string;
    suburb: string;
    town: string;
    postal_code: string | null;
  }>(
    `SELECT a.id::text AS id, a.house_number, a.street_name, a.suburb, a.town, a.postal_code
     FROM geo.addresses a
     WHERE a.unit IS NULL AND a.estate IS NULL AND a.house_number <> '' AND a.parcel_id IS NOT NULL
       AND (SELECT count(*) FROM geo.addresses b
            WHERE b.street_name = a.street_name AND b.house_number = a.house_number AND b.town = a.town) = 1
     ORDER BY md5(a.source_id) LIMIT 1`,
  );
  const typed = `${known.house_number} ${known.street_name}, ${known.town}`;

  // The user logs the request in /avs ("Can't locate").
  const userContext = await browser.newContext({ baseURL: harness().baseURL });
  const userPage = await userContext.newPage();
  const user = demoAccount('user@portal.test');
  await login(userPage, user.email, user.password);
  await userPage.goto('/avs');
  await userPage.getByRole('tab', { name: "Can't locate" }).click();
  await userPage.getByRole('textbox', { name: /^Address as you have it/ }).fill(typed);
  await userPage.getByRole('textbox', { name: /^Comments/ }).fill('The gate is on the side street');
  await userPage.getByRole('textbox', { name: /^Policy Number/ }).fill('KM654321');
  await userPage.getByRole('button', { name: 'Log request' }).click();
  const grip = (await userPage.getByTestId('grip-reference').textContent())!;
  expect(grip).toMatch(/^GRP-/);

  // The operator takes can't-locate requests until this one comes (other tests log theirs too).
  await openEditor(page);
  const work = page.getByTestId('work-item');
  for (let tries = 0; tries < 10; tries++) {
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/v1.0/addresseditor/cant_locate',
    );
    await page.getByRole('button', { name: "Next can't-locate request" }).click();
    const taken = await (await answered).json();
    if (!taken.request || taken.request.gripReference === grip) break;
  }
  await expect(work).toContainText(`Can't-locate request ${grip}`);
  await expect(work).toContainText('The gate is on the side street');
  // The search box holds what the user typed: search, pick the address, resolve with it.
  await expect(page.getByRole('textbox', { name: 'Find an address' })).toHaveValue(typed);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const standardised = loadGeo().formatAddress({
    houseNumber: known.house_number,
    street: known.street_name,
    suburb: known.suburb,
    town: known.town,
    postalCode: known.postal_code,
  });
  await page.getByRole('list', { name: 'Search results' }).getByText(standardised, { exact: true }).click();
  await page
    .getByRole('list', { name: 'Addresses' })
    .getByRole('button')
    .filter({ hasText: standardised })
    .click();
  await page
    .getByRole('dialog', { name: /^Address / })
    .getByRole('button', { name: 'Resolve request with this address' })
    .click();
  await expect(page.getByTestId('editor-notice')).toHaveText(`${grip} resolved: ${standardised}.`);
  await expect(work).toHaveCount(0);

  // The requester's request is finalised at that address.
  const answer = await userPage.request.get(`/api/v1.0/request/${grip}/any`);
  expect(answer.status()).toBe(200);
  const record = await answer.json();
  expect(record.status).toBe('Finalised');
  expect(record.selected).toMatchObject({ no: known.house_number, name: known.street_name });
  await userContext.close();
});

test("'Validate Parcel' and its queue are offered to validators only", async ({ page }) => {
  await openEditor(page, 'qc@portal.test');
  await expect(page.getByRole('button', { name: 'Next parcel to validate' })).toBeVisible();
  await page.getByRole('button', { name: 'Next parcel to validate' }).click();
  await expect(page.getByTestId('work-item')).toContainText('Parcel to validate');
  await expect(
    page.getByRole('dialog', { name: 'Marker popup' }).getByRole('button', { name: 'Investigate' }),
  ).toBeDisabled();
  await expect(
    page.getByRole('dialog', { name: 'Marker popup' }).getByRole('button', { name: 'Validate Parcel' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Give back' }).click();

  const other = await page.context().browser()!.newContext({ baseURL: harness().baseURL });
  const operatorPage = await other.newPage();
  await openEditor(operatorPage);
  await expect(operatorPage.getByRole('button', { name: 'Next multi-address parcel' })).toBeVisible();
  await expect(operatorPage.getByRole('button', { name: 'Next parcel to validate' })).toHaveCount(0);
  await other.close();
});

test('a plain user is sent home from the editor, and its calls refuse them', async ({ page }) => {
  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
  await page.goto('/avs/editor/');
  await expect(page).toHaveURL(/\/$/);
  const answer = await page.request.get('/api/v1.0/addresseditor/multi_parcel');
  expect(answer.status()).toBe(403);
});
