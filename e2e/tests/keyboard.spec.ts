import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoAccount } from '../support/auth';
import { queryRun } from '../support/env';
import { createSaviRequest, locatedAddress } from '../support/requests';

// The key paths with the keyboard only (issue 24, docs/accessibility.md "Keyboard"): no click, no fill —
// Tab to a control (each one reached must show where the focus is), Enter, Space, arrows and typing.

// A control that is not there fails in seconds, not at the test's end.
test.use({ actionTimeout: 15_000 });

/** Tab presses, each way, before giving up. */
const MAX_TABS = 100;

/**
 * Presses Tab (then Shift+Tab) until `target` has the focus (fails when it is never reached), and checks the focus is
 * visible there: the browser's :focus-visible, drawn as an outline, a shadow, or MUI's focus classes.
 */
async function tabTo(page: Page, target: Locator): Promise<void> {
  const focused = () => target.evaluate((element) => element === document.activeElement).catch(() => false);
  // Forwards first; a control behind the focus is reached backwards (headless Chromium does not wrap the
  // Tab order round from the page's last control).
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let presses = 0; presses < MAX_TABS; presses++) {
      if (await focused()) {
        await expectVisibleFocus(target);
        return;
      }
      await page.keyboard.press(key);
    }
  }
  throw new Error(`${target} was not reached with ${MAX_TABS} presses of Tab or of Shift+Tab.`);
}

async function expectVisibleFocus(target: Locator): Promise<void> {
  const shown = await target.evaluate((element) => {
    if (!element.matches(':focus-visible')) return false;
    const style = getComputedStyle(element);
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadowed = style.boxShadow !== 'none';
    const muiFocus = Boolean(element.closest('.Mui-focusVisible, .Mui-focused'));
    return outlined || shadowed || muiFocus;
  });
  expect(shown, `${target} shows where the focus is`).toBe(true);
}

async function logInWithKeyboard(page: Page, email: string): Promise<void> {
  const account = demoAccount(email);
  await page.goto('/auth/login');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(account.email);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
}

/** An address on a parcel, with a house number and no unit (each test its own, by offset). */
async function addressOnAParcel(offset: number) {
  const [address] = await queryRun<{ house_number: string; street_name: string; town: string }>(
    `SELECT house_number, street_name, town FROM geo.addresses
      WHERE parcel_id IS NOT NULL AND unit IS NULL AND house_number <> '' ORDER BY id OFFSET $1 LIMIT 1`,
    [offset],
  );
  return address;
}

const reverseLookup = (page: Page) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === '/api/avs/reverse');

test('log in, find an address and log a SAVi request with the keyboard only', async ({ page }) => {
  const address = await addressOnAParcel(170);
  await logInWithKeyboard(page, 'user@portal.test');
  await page.goto('/savi');

  await tabTo(page, page.getByRole('button', { name: /^Search by Street Address/ }));
  await page.keyboard.press('Enter');
  const box = page.getByRole('textbox', { name: 'Search by Street Address' });
  await expect(box).toBeFocused();
  await page.keyboard.type(`${address.house_number} ${address.street_name}, ${address.town}`);
  await page.keyboard.press('Enter');
  const firstResult = page.getByRole('list', { name: 'Search results' }).getByRole('button').first();
  await expect(firstResult).toContainText(address.street_name);
  await tabTo(page, firstResult);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('marker-popup')).toContainText(address.street_name);

  // The request types are one tab stop (arrows move inside, WAI-ARIA toolbar): once the imagery is known the
  // stop is the first available type, and arrows reach the others.
  const rve = page.getByRole('button', { name: 'Replacement Value Estimate' });
  await expect(rve).toHaveAttribute('aria-disabled', 'false');
  await tabTo(page, rve);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: 'Building Size Calculation' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rve).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rve).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, page.getByLabel('Policy Number'));
  await page.keyboard.type('KM975310');
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('request-review')).toContainText('KM975310');
  const created = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/request/' && r.request().method() === 'PUT',
  );
  await tabTo(page, page.getByRole('button', { name: 'Submit' }));
  await page.keyboard.press('Enter');
  expect((await created).status()).toBe(201);
  await expect(page.getByText('Your request has been logged.')).toBeVisible();
});

test("the map from the keyboard: the marker placed at the map's centre, then moved with the arrow buttons", async ({
  page,
}) => {
  const point = await locatedAddress(171);
  await logInWithKeyboard(page, 'user@portal.test');
  await page.goto('/savi');

  // Centre the map on a known point with a GPS search, then go back to the options (the map stays there).
  await tabTo(page, page.getByRole('button', { name: /^Search by Geo-co-ordinates/ }));
  await page.keyboard.press('Enter');
  await page.keyboard.type(`${point.lat}, ${point.lng}`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('marker-popup')).toBeVisible();
  // The map has fitted the point's parcel (drawn once there) and its tiles have loaded.
  await expect(page.getByTestId('locator-map')).toHaveAttribute('data-parcel-drawn', /.+/);
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.keyboard.press('Escape');

  await tabTo(page, page.getByRole('button', { name: /^Search by Map Click/ }));
  await page.keyboard.press('Enter');
  let reverse = reverseLookup(page);
  await tabTo(page, page.getByRole('button', { name: "Place the marker at the map's centre" }));
  await page.keyboard.press('Enter');
  const placed = (await reverse).request().postDataJSON() as { lat: number; lng: number };
  // The search fits the map to the point's parcel: its centre is within a few metres of the point.
  expect(placed.lat).toBeCloseTo(point.lat, 3);
  expect(placed.lng).toBeCloseTo(point.lng, 3);
  await expect(page.getByTestId('marker-popup')).toBeVisible();

  reverse = reverseLookup(page);
  await tabTo(page, page.getByRole('button', { name: 'Move the marker north' }));
  await page.keyboard.press('Enter');
  const moved = (await reverse).request().postDataJSON() as { lat: number; lng: number };
  expect(moved.lat).toBeGreaterThan(placed.lat);
  expect(moved.lng).toBeCloseTo(placed.lng, 6);
});

/**
 * A request of the demo user (the n-th located address), then the admin's console filtered to it from the
 * keyboard (Tab to the GRiP reference filter, typed): its GRiP reference, id and row.
 */
async function consoleRowFromKeyboard(
  page: Page,
  request: { nth: number; policyNumber: string; keyPrefix: string },
) {
  await logInWithKeyboard(page, 'user@portal.test');
  const { grip, id } = await createSaviRequest(page, request);
  await page.context().clearCookies();
  await logInWithKeyboard(page, 'admin@portal.test');
  await page.goto('/requests/admin');
  await tabTo(page, page.getByRole('textbox', { name: 'GRiP reference', exact: true }));
  await page.keyboard.type(grip);
  const row = page.getByRole('row').filter({ hasText: grip });
  await expect(row).toHaveCount(1);
  return { grip, id, row };
}

/** ArrowLeft through the grid's cells until `cell` holds the focus. */
async function arrowLeftTo(page: Page, cell: Locator) {
  for (let presses = 0; presses < 40; presses++) {
    if (await cell.evaluate((element) => element.contains(document.activeElement))) break;
    await page.keyboard.press('ArrowLeft');
  }
  await expect(cell).toBeFocused();
}

test('open a request in the console from the keyboard; its dialog traps the focus and gives it back', async ({
  page,
}) => {
  const { grip, row } = await consoleRowFromKeyboard(page, {
    nth: 172,
    policyNumber: 'KM864209',
    keyPrefix: 'keyboard-e2e',
  });

  // The row's details: a dialog that traps the focus and gives it back to its button on Escape.
  const details = row.getByRole('button', { name: 'Details' });
  await tabTo(page, details);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Request ${grip}` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(details).toBeFocused();

  // From the Details button given the focus back, the grid's arrows still work: to the status cell, whose
  // list Enter opens and Escape closes.
  const statusCell = row.locator('[data-field="status"]');
  await arrowLeftTo(page, statusCell);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox').getByRole('option', { name: 'New', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(statusCell).toBeFocused();
});

// The grid's cell editing from the keyboard (MUI X, WAI-ARIA grid): Enter on the focused status cell opens
// its list, arrows choose, Enter saves (announced), Escape cancels; the focus stays in the grid, visible.
test("change a request's status in the console grid with the keyboard", async ({ page }) => {
  // Two round trips through the grid's editor on a busy machine.
  test.setTimeout(180_000);
  const { id, row } = await consoleRowFromKeyboard(page, {
    nth: 173,
    policyNumber: 'KM864210',
    keyPrefix: 'keyboard-e2e-status',
  });
  await tabTo(page, row.getByRole('button', { name: 'Details' }));

  // Arrows from the Details button's cell to the status cell.
  const statusCell = row.locator('[data-field="status"]');
  await arrowLeftTo(page, statusCell);
  await expectVisibleFocus(statusCell);

  /** Enter on the status cell: its list opens, the focus on the current status. */
  const openList = async (current: string) => {
    await page.keyboard.press('Enter');
    const list = page.getByRole('listbox');
    await expect(list).toBeVisible();
    await expect(list.getByRole('option', { name: current, exact: true })).toBeFocused();
    return list;
  };
  /** ArrowDown until `option` has the focus. */
  const arrowTo = async (option: Locator) => {
    for (let presses = 0; presses < 12; presses++) {
      if (await option.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press('ArrowDown');
    }
    await expect(option).toBeFocused();
  };
  const storedStatus = async () =>
    (await queryRun<{ status: string }>('SELECT status FROM requests.requests WHERE id = $1', [id]))[0]
      .status;

  // Enter, arrows to "Ready for QS", Enter: saved (and said so, politely), the focus back on the cell.
  let list = await openList('New');
  await arrowTo(list.getByRole('option', { name: 'Ready for QS', exact: true }));
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1.0/request/update_status');
  await page.keyboard.press('Enter');
  expect((await saved).status()).toBe(200);
  await expect(list).toHaveCount(0);
  await expect(statusCell).toHaveText('Ready for QS');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect.poll(storedStatus).toBe('Ready for QS');
  await expect(statusCell).toBeFocused();
  await expectVisibleFocus(statusCell);

  // Enter, arrows to another status, Escape: nothing changes, nothing is sent.
  let sent = false;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1.0/request/update_status') sent = true;
  });
  list = await openList('Ready for QS');
  await arrowTo(list.getByRole('option', { name: 'In progress', exact: true }));
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(statusCell).toHaveText('Ready for QS');
  await expect(statusCell).toBeFocused();
  await expectVisibleFocus(statusCell);
  expect(sent).toBe(false);
  expect(await storedStatus()).toBe('Ready for QS');
});

/** A 1600 × 800 PNG (a sky over a lawn), drawn by the browser's own canvas: a picture to paste and crop. */
async function pastePngAtFocus(page: Page): Promise<void> {
  // Ctrl+V of a copied picture: headless Chromium has no system clipboard to hold one, so the paste event
  // Chromium would fire is dispatched at the focused paste area (it bubbles to the page's listener).
  await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 1600;
    canvas.height = 800;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#7fb3e0';
    context.fillRect(0, 0, 1600, 500);
    context.fillStyle = '#5a9a3c';
    context.fillRect(0, 500, 1600, 300);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], 'clipboard.png', { type: 'image/png' }));
    document.activeElement!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true }),
    );
  });
}

test('the image crop from the keyboard: arrows move the box, minus shrinks it (Shift for five times), Enter saves', async ({
  page,
}) => {
  await logInWithKeyboard(page, 'user@portal.test');
  const { id } = await createSaviRequest(page, {
    nth: 174,
    policyNumber: 'KM864211',
    keyPrefix: 'keyboard-e2e-crop',
  });
  // The report is edited while the request is in progress: the console's path there (QS check, Start
  // report) is reportbuilder.spec's, so the status is set directly.
  await queryRun(`UPDATE requests.requests SET status = 'In progress' WHERE id = $1`, [id]);
  await page.context().clearCookies();
  await logInWithKeyboard(page, 'operator@portal.test');
  await page.goto(`/reportbuilder/property-overview?requestID=${id}`);

  await tabTo(
    page,
    page.getByRole('region', { name: 'Property image' }).getByRole('link', { name: 'Add an image' }),
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Property image' })).toBeVisible();
  await tabTo(page, page.getByLabel('Paste area'));
  const pasted = page.waitForResponse(
    (r) => new URL(r.url()).pathname.replace(/\/$/, '') === '/api/v1.0/reportbuilder/image',
  );
  await pastePngAtFocus(page);
  expect((await pasted).ok()).toBe(true);

  // The crop box takes the focus (a visible ring); 10 image pixels a key press, 50 with Shift.
  const cropBox = page.getByRole('region', { name: 'Crop box' });
  await expect(cropBox).toHaveAttribute('data-box', '0,0,1600,800');
  await tabTo(page, cropBox);
  await page.keyboard.press('Minus');
  await expect(cropBox).toHaveAttribute('data-box', '0,0,1590,795');
  await page.keyboard.press('Shift+Minus');
  await expect(cropBox).toHaveAttribute('data-box', '0,0,1540,770');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(cropBox).toHaveAttribute('data-box', '50,10,1540,770');

  const cropped = page.waitForResponse((r) =>
    new URL(r.url()).pathname.endsWith('/reportbuilder/image/crop'),
  );
  await tabTo(page, page.getByRole('button', { name: 'Crop and save' }));
  await page.keyboard.press('Enter');
  const answer = await cropped;
  expect(answer.ok()).toBe(true);
  expect(answer.request().postDataJSON()).toMatchObject({ x: 50, y: 10, width: 1540, height: 770 });
  await page.waitForURL(/\/reportbuilder\/property-overview\?/);
  await expect(
    page.getByRole('region', { name: 'Property image' }).getByRole('img', { name: 'Property image' }),
  ).toBeVisible();
});

test('live regions: a wrong password is an alert, the IRiS report ordered from the keyboard says its PDF progress in a status', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // An error: role alert (assertive), read out at once.
  await page.goto('/auth/login');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('user@portal.test');
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type('not-the-password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect e-mail or password.' })).toBeVisible();

  const address = await addressOnAParcel(175);
  await logInWithKeyboard(page, 'user@portal.test');
  await page.goto('/iris');
  await tabTo(page, page.getByRole('button', { name: /^Search by Street Address/ }));
  await page.keyboard.press('Enter');
  await page.keyboard.type(`${address.house_number} ${address.street_name}, ${address.town}`);
  await page.keyboard.press('Enter');
  const firstResult = page.getByRole('list', { name: 'Search results' }).getByRole('button').first();
  await expect(firstResult).toContainText(address.street_name);
  await tabTo(page, firstResult);
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Policy Number'));
  await page.keyboard.type('KM975311');
  const order = page.getByRole('button', { name: 'Order risk report' });
  await expect(order).toBeEnabled();
  await tabTo(page, order);
  await page.keyboard.press('Enter');

  // The PDF's progress: a status (polite), its text changing as the worker goes, to ready.
  const progress = page.getByRole('region', { name: 'PDF report' }).getByRole('status');
  await expect(progress).toBeVisible({ timeout: 60_000 });
  await expect(progress).toHaveText('The PDF is ready.', { timeout: 90_000 });
});
