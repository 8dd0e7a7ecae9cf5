import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { signedIn } from '../support/auth';
import { openConsoleAt } from '../support/console';
import { queryRun } from '../support/env';
import { createSaviRequest } from '../support/requests';

// The request queue through the portal URL (issue 11): a user's request goes through /requests and the
// console at /requests/admin (mf-requests-admin loaded by the shell at run time), its calls served by
// services/requests, its exports and zips by the requests-worker process, its live updates by socket.io
// through the gateway. Requests are made with the request tool's own call (PUT /api/v1.0/request/) from
// a located parcel of the run's geodata, as /savi makes them.

test.describe.configure({ mode: 'serial' });

let counter = 0;
/** A SAVI request of the demo user at the n-th located address; answers its GRiP reference and id. */
const createRequest = (page: Page) =>
  createSaviRequest(page, { nth: 40 + counter++, policyNumber: 'KM123456', keyPrefix: 'queue-e2e' });

const statusOf = async (id: string) =>
  (await queryRun<{ status: string }>('SELECT status FROM requests.requests WHERE id = $1', [id]))[0].status;

test('a new request shows in the user’s list and in the console; a plain user is kept out of the console', async ({
  browser,
}) => {
  const user = await signedIn(browser, 'user@portal.test');
  const { grip } = await createRequest(user);
  // Spec 03 sorts the user's list by created ascending, and the suite's other specs give this user more
  // requests than a page holds: the list is opened on this request as a notification's link opens it.
  await user.goto(`/requests?grip_reference=${encodeURIComponent(grip)}`);
  const mine = user.getByRole('row').filter({ hasText: grip });
  await expect(mine).toContainText('New (no RVE)');
  await user.goto('/requests/admin');
  await expect(user).toHaveURL(/\/$/);

  const operator = await signedIn(browser, 'operator@portal.test');
  const row = await openConsoleAt(operator, grip);
  await expect(row).toContainText('Johan Botha');
  await expect(row.getByRole('button', { name: 'QS check' })).toBeVisible();
});

test('QS check → Start report → (report submitted) → QC approval → Dispatch → bulk Delivered', async ({
  browser,
}) => {
  const user = await signedIn(browser, 'user@portal.test');
  const { grip, id } = await createRequest(user);
  const operator = await signedIn(browser, 'operator@portal.test');
  let row = await openConsoleAt(operator, grip);

  await row.getByRole('button', { name: 'QS check' }).click();
  await expect(operator.getByRole('heading', { name: 'QS checklist' })).toBeVisible();
  const save = operator.getByRole('button', { name: 'Save' });
  const checks = operator.getByRole('group', { name: 'QS checks' }).getByRole('checkbox');
  await expect(checks).toHaveCount(3);
  for (const check of await checks.all()) {
    await expect(save).toBeDisabled();
    await check.check();
  }
  await save.click();
  await expect(operator).toHaveURL(/\/requests\/admin$/);
  expect(await statusOf(id)).toBe('Ready for QS');

  row = await openConsoleAt(operator, grip);
  const reportTab = operator.context().waitForEvent('page');
  await row.getByRole('button', { name: 'Start report' }).click();
  const builder = await reportTab;
  expect(builder.url()).toContain(`/reportbuilder/property-overview?requestID=${id}`);
  await builder.close();
  await expect(row.getByRole('button', { name: 'Continue report' })).toBeVisible();
  expect(await statusOf(id)).toBe('In progress');

  // The report builder (issue 13) submits the report with this call.
  const submitted = await operator.request.post('/api/v1.0/request/submit', {
    data: { _id: id, lat: -33.93, lng: 18.86 },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  // Read afresh (the live update of an open console is the test of its own below).
  row = await openConsoleAt(operator, grip);
  await expect(row.getByRole('button', { name: 'QC check' })).toBeVisible();

  // An operator without saviQC may open the checklist but not approve.
  await operator.goto(`/requests/admin/qc-checklist?requestID=${id}&lat=-33.93&lng=18.86`);
  await expect(operator.getByText('Only QC staff (saviQC) can approve.')).toBeVisible();

  const qc = await signedIn(browser, 'qc@portal.test');
  await qc.goto(`/requests/admin/qc-checklist?requestID=${id}&lat=-33.93&lng=18.86`);
  await expect(qc.getByText(grip)).toBeVisible();
  const approve = qc.getByRole('button', { name: 'Approve' });
  await qc.getByLabel('Number of buildings').fill('2');
  await qc.getByLabel('Unit price (R)').fill('1750');
  for (const check of await qc.getByRole('group', { name: 'QC checks' }).getByRole('checkbox').all()) {
    await expect(approve).toBeDisabled();
    await check.check();
  }
  await approve.click();
  await expect(qc).toHaveURL(/\/requests\/admin$/);
  expect(await statusOf(id)).toBe('Dispatch');

  row = await openConsoleAt(operator, grip);
  await expect(row.locator('[data-field="reportFee"]')).toHaveText('R 3 500.00');
  await row.getByRole('checkbox').check();
  await operator.getByRole('button', { name: 'All to Delivered' }).click();
  await expect(row.locator('[data-field="status"]')).toHaveText('Delivered');
  expect(await statusOf(id)).toBe('Delivered');

  // Every step is in the row's history.
  await row.getByRole('button', { name: 'Details' }).click();
  const history = operator.getByRole('list', { name: 'History' });
  for (const step of [
    'New → Ready for QS',
    'Ready for QS → In progress',
    'In progress → QC check',
    'QC check → Dispatch',
    'Dispatch → Delivered',
  ])
    await expect(history).toContainText(`status: ${step}`);
});

test('a query needs its comment; inline edits save at once; colours; a change shows live in another browser', async ({
  browser,
}) => {
  const user = await signedIn(browser, 'user@portal.test');
  const { grip, id } = await createRequest(user);
  const operator = await signedIn(browser, 'operator@portal.test');
  const qc = await signedIn(browser, 'qc@portal.test');
  const watched = await openConsoleAt(qc, grip);
  await expect(qc.getByTestId('realtime-status')).toHaveText('Live');
  const row = await openConsoleAt(operator, grip);

  // Inline edits: each cell saved by its own call; the other browser's grid follows without a reload.
  await row.locator('[data-field="unitPrice"]').dblclick();
  await operator.keyboard.type('1500');
  await operator.keyboard.press('Enter');
  await expect(row.locator('[data-field="unitPrice"]')).toHaveText('R 1 500.00');
  await expect(watched.locator('[data-field="unitPrice"]')).toHaveText('R 1 500.00');
  await row.locator('[data-field="numberOfBuildings"]').dblclick();
  await operator.keyboard.type('3');
  await operator.keyboard.press('Enter');
  await expect(row.locator('[data-field="reportFee"]')).toHaveText('R 4 500.00');
  await expect(watched.locator('[data-field="reportFee"]')).toHaveText('R 4 500.00');

  // Prioritising is shown to admins only (spec 02 §6); prioritised, the row is red in every console.
  await expect(operator.getByRole('button', { name: 'Prioritise all' })).toHaveCount(0);
  const admin = await signedIn(browser, 'admin@portal.test');
  const adminRow = await openConsoleAt(admin, grip);
  await adminRow.getByRole('checkbox').check();
  await admin.getByRole('button', { name: 'Prioritise all' }).click();
  await expect(adminRow).toHaveClass(/request-row-red/);
  await expect(row).toHaveClass(/request-row-red/);
  await expect(watched).toHaveClass(/request-row-red/);

  // A query from the QC checklist needs a comment; then the request is in Query.
  await qc.goto(`/requests/admin/qc-checklist?requestID=${id}`);
  await qc.getByRole('button', { name: 'Query' }).click();
  await expect(qc.getByText('A comment is required.')).toBeVisible();
  expect(await statusOf(id)).toBe('New');
  await qc.getByLabel('Query comment').fill('The parcel looks wrong: please check the address.');
  await qc.getByRole('button', { name: 'Query' }).click();
  await expect(qc).toHaveURL(/\/requests\/admin$/);
  expect(await statusOf(id)).toBe('Query');
  await expect(row.getByRole('button', { name: 'Revisit report' })).toBeVisible();
});

test('exports the selection to Excel and zips its reports, in the background with progress', async ({
  browser,
}) => {
  const user = await signedIn(browser, 'user@portal.test');
  const first = await createRequest(user);
  const second = await createRequest(user);
  const operator = await signedIn(browser, 'operator@portal.test');
  await operator.goto('/requests/admin');
  await operator.getByRole('textbox', { name: 'Client reference', exact: true }).fill('KM123456');
  for (const { grip } of [first, second])
    await operator.getByRole('row').filter({ hasText: grip }).getByRole('checkbox').check();

  await operator.getByRole('button', { name: 'Export selection to Excel' }).click();
  const xlsxJob = operator.getByTestId('job-xlsx');
  const download = operator.waitForEvent('download');
  await xlsxJob.getByRole('link', { name: 'Download' }).click();
  const file = await (await download).path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.getWorksheet('Requests')!;
  const grips = new Set<string>();
  sheet.eachRow((sheetRow, number) => {
    if (number > 1) grips.add(String(sheetRow.getCell(1).value));
  });
  expect(grips).toEqual(new Set([first.grip, second.grip]));

  await operator.getByRole('button', { name: 'Zip reports' }).click();
  const zipDownload = operator.waitForEvent('download');
  await operator.getByTestId('job-zip').getByRole('link', { name: 'Download' }).click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toMatch(/^reports-\d{4}-\d{2}-\d{2}\.zip$/);
});

test('the duplicate check shows the requests around a request, with their popups', async ({ browser }) => {
  const user = await signedIn(browser, 'user@portal.test');
  const centre = await createRequest(user);
  const neighbour = await createRequest(user);
  const operator = await signedIn(browser, 'operator@portal.test');
  await operator.goto(`/requests/admin/duplicate-check?requestID=${centre.id}`);
  await expect(operator.getByRole('heading', { name: 'Duplicate check' })).toBeVisible();
  await expect(operator.getByTestId('duplicate-map').locator('canvas').first()).toBeVisible();
  const list = operator.getByRole('list', { name: 'Requests nearby' });
  await list.getByText(new RegExp(neighbour.grip)).click();
  const popup = operator.getByRole('dialog', { name: `Request ${neighbour.grip}` });
  await expect(popup).toContainText('KM123456');
  await expect(popup).toContainText('Insufficient Data');
  await expect(popup).toContainText('Created');
});
