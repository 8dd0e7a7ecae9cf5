import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import type * as PdfJobs from '@portal/pdf-jobs';
import { ROOT } from '../../scripts/lib/processes.mjs';
import { signedIn } from '../support/auth';
import { openConsoleAt } from '../support/console';
import { createSaviRequest } from '../support/requests';

// The SAVi report builder through the portal URL (issue 13): the request queue console at /requests/admin
// (mf-requests-admin: QS check → Start report), the report builder remote at /reportbuilder/* (mf-reportbuilder:
// property, section, building and improvement overviews, the image capture screen, view-report), its
// service (services/reportbuilder: sections, totals, images) and PDF worker (reportbuilder-worker, queue
// 'reportbuilder-pdf'), and services/requests' submit (→ QC check).

test.describe.configure({ mode: 'serial' });

/** libs/pdf-jobs as built: pdfText reads a PDF back with pdf.js in a child Node process. */
const loadPdfJobs = () =>
  createRequire(import.meta.url)(join(ROOT, 'libs/pdf-jobs/dist/index.js')) as typeof PdfJobs;

/**
 * The report the test builds, and its totals worked by hand for KMI, the group of user@portal.test
 * (libs/db seed: double volume 15 %, professional fee 12.5 % included, VAT included; the report's VAT
 * rate 15 %, REPORTBUILDER_VAT_PERCENTAGE's default). The rates are typed, so the seeded rate table
 * does not decide them.
 *
 *   Main house (Residential), building House, R 12 000 / m²:
 *     floor 1 180 m², floor 2 120 m² double volume → 180 + 120 × 1.15 = 318 m²
 *     318 × 12 000                                         = 3 816 000.00
 *   Boundary (Perimeter → Boundary Improvements), improvement Boundary wall, 90 m × R 850 = 76 500.00
 *   subtotal                     3 816 000.00 + 76 500.00 = 3 892 500.00
 *   professional fee             12.5 % of 3 892 500.00   =   486 562.50
 *   VAT                          15 % of 4 379 062.50     =   656 859.375 → 656 859.38 (half away from 0)
 *   grand total                  4 379 062.50 + 656 859.38 = 5 035 921.88
 */
const EXPECTED = {
  building: '3,816,000.00',
  improvement: '76,500.00',
  subtotal: '3,892,500.00',
  fee: '486,562.50',
  vat: '656,859.38',
  total: '5,035,921.88',
} as const;

/** A SAVI request of user@portal.test (Policy Number reference) at a located address; its GRiP and id. */
// Addresses of their own (request-queue.spec uses 40 onwards), so no other test's request is beside it.
const createRequest = (page: Page) =>
  createSaviRequest(page, { nth: 120, policyNumber: 'KM246810', keyPrefix: 'reportbuilder-e2e' });

/** The request as GET /api/v1.0/request/{id}/any answers it, with the page's session. */
async function requestRecord(page: Page, id: string): Promise<{ status: string; RVETotal: number | null }> {
  const answer = await page.request.get(`/api/v1.0/request/${id}/any`);
  expect(answer.status(), await answer.text()).toBe(200);
  return answer.json();
}

const sectionsSaved = (page: Page) =>
  page.waitForResponse(
    (r) => new URL(r.url()).pathname.replace(/\/$/, '') === '/api/v1.0/reportbuilder/section',
  );

/** Clicks the screen's Save, checks the sections call succeeded and waits for the screen's own signals. */
async function saveSections(page: Page, said: string) {
  const answer = sectionsSaved(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const response = await answer;
  expect(response.status(), await response.text()).toBe(200);
  await expect(page.getByRole('status').filter({ hasText: said })).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
}

/** A 1600 × 800 PNG: a sky and a lawn with a house-coloured block, enough to see a crop by eye. */
async function testPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="800">
    <rect width="1600" height="500" fill="#7fb3e0"/><rect y="500" width="1600" height="300" fill="#5a9a3c"/>
    <rect x="600" y="300" width="400" height="260" fill="#c8b08a"/><polygon points="560,300 800,160 1040,300" fill="#8b3a2b"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

test('an operator builds a report from the queue and submits it; the server makes its PDF, which holds the total', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const user = await signedIn(browser, 'user@portal.test');
  const { grip, id } = await createRequest(user);
  const operator = await signedIn(browser, 'operator@portal.test');

  // ---- QS check (the console's checklist) → Ready for QS -----------------------------------------------
  let row = await openConsoleAt(operator, grip);
  await row.getByRole('button', { name: 'QS check' }).click();
  await expect(operator.getByRole('heading', { name: 'QS checklist' })).toBeVisible();
  const qsChecks = operator.getByRole('group', { name: 'QS checks' }).getByRole('checkbox');
  await expect(qsChecks).toHaveCount(3); // drawn once the request is read
  for (const check of await qsChecks.all()) await check.check();
  await operator.getByRole('button', { name: 'Save' }).click();
  await expect(operator).toHaveURL(/\/requests\/admin$/);
  expect((await requestRecord(operator, id)).status).toBe('Ready for QS');

  // ---- Start report → In progress; the report builder opens in a new tab ------------------------------
  row = await openConsoleAt(operator, grip);
  const opened = operator.context().waitForEvent('page');
  await row.getByRole('button', { name: 'Start report' }).click();
  const rb = await opened;
  await rb.waitForURL(/\/reportbuilder\/property-overview\?requestID=/);
  expect(new URL(rb.url()).searchParams.get('requestID')).toBe(id);
  await expect(row.getByRole('button', { name: 'Continue report' })).toBeVisible();
  expect((await requestRecord(operator, id)).status).toBe('In progress');

  // ---- Property overview: two sections --------------------------------------------------------------
  await expect(rb.getByRole('heading', { name: 'Property overview' })).toBeVisible();
  await expect(rb.getByText(grip)).toBeVisible();
  const sectionsTable = rb.getByRole('table', { name: 'Sections' });
  const addSection = async (name: string, type: string) => {
    await rb.getByRole('button', { name: 'Add section' }).click();
    const popup = rb.getByRole('dialog', { name: 'Add section' });
    await popup.getByLabel('Section name').fill(name);
    await popup.getByLabel('Section type').selectOption(type);
    await popup.getByRole('button', { name: 'Add' }).click();
    await expect(popup).toHaveCount(0);
  };
  await addSection('Main house', 'Residential');
  await addSection('Boundary', 'Perimeter');
  const mainRow = sectionsTable.getByRole('row').filter({ hasText: 'Main house' });
  const boundaryRow = sectionsTable.getByRole('row').filter({ hasText: 'Boundary' });
  await expect(mainRow).toContainText('Residential');
  await expect(boundaryRow).toContainText('Boundary Improvements');
  await saveSections(rb, 'Changes saved.');

  // ---- Section Main house: a building ---------------------------------------------------------------
  await mainRow.getByRole('link', { name: 'Main house' }).click();
  await expect(rb.getByRole('heading', { name: 'Section overview: Main house' })).toBeVisible();
  await rb.getByRole('button', { name: 'Add building' }).click();
  const buildingDialog = rb.getByRole('dialog', { name: 'Add building' });
  await buildingDialog.getByLabel('Building name').fill('House');
  await buildingDialog.getByRole('button', { name: 'Add' }).click();
  await expect(buildingDialog).toHaveCount(0);
  await saveSections(rb, 'Changes saved.');
  await rb.getByRole('table', { name: 'Buildings' }).getByRole('link', { name: 'House' }).click();

  // ---- Building House: rates cascade, a typed rate, two floors (the second double volume) -------------
  await expect(rb.getByRole('heading', { name: 'Building overview: House' })).toBeVisible();
  await rb.getByLabel('Category', { exact: true }).selectOption('Buildings');
  await rb.getByLabel('Type', { exact: true }).selectOption('Dwelling');
  await rb.getByLabel('Class', { exact: true }).selectOption('Double storey-i');
  // The class offers its rate (the seeded table's 'inbetween'); the operator types another.
  await expect(rb.locator('#rate-options option')).toHaveAttribute('value', '15000');
  await rb.getByLabel('Rate', { exact: true }).fill('12000');
  await rb.getByLabel('Construction type').selectOption('Brick and Plaster');
  await rb.getByLabel('Number of floors').fill('2');
  await rb.getByLabel('Floor 1 size (m²)').fill('180');
  await rb.getByLabel('Floor 1 location').fill('Ground');
  await rb.getByLabel('Floor 2 size (m²)').fill('120');
  await rb.getByLabel('Floor 2 location').fill('First');
  await rb.getByLabel('Floor 2 double volume').check();
  await expect(rb.getByTestId('building-total')).toHaveText(`318 m² · R ${EXPECTED.building}`);
  await saveSections(rb, 'Changes to the building saved.');
  await rb.getByRole('link', { name: 'Section Main house' }).click();
  await expect(rb.getByTestId('section-subtotal')).toHaveText(`Section subtotal: ${EXPECTED.building}`);
  const houseRow = rb.getByRole('table', { name: 'Buildings' }).getByRole('row').filter({ hasText: 'House' });
  await expect(houseRow).toContainText('318');
  await expect(houseRow).toContainText(EXPECTED.building);

  // ---- Section Boundary (Perimeter): an improvement ---------------------------------------------------
  await rb.getByRole('link', { name: 'Property overview' }).click();
  await boundaryRow.getByRole('link', { name: 'Boundary' }).click();
  await expect(rb.getByRole('heading', { name: 'Section overview: Boundary' })).toBeVisible();
  await expect(rb.getByText('Boundary Improvements')).toBeVisible();
  await rb.getByRole('button', { name: 'Add improvement' }).click();
  const improvementDialog = rb.getByRole('dialog', { name: 'Add improvement' });
  await improvementDialog.getByLabel('Improvement name').fill('Boundary wall');
  await improvementDialog.getByRole('button', { name: 'Add' }).click();
  await expect(improvementDialog).toHaveCount(0);
  await saveSections(rb, 'Changes saved.');
  await rb.getByRole('table', { name: 'Improvements' }).getByRole('link', { name: 'Boundary wall' }).click();
  await expect(rb.getByRole('heading', { name: 'Improvement overview: Boundary wall' })).toBeVisible();
  await rb.getByLabel('Category', { exact: true }).selectOption('Improvements');
  await rb.getByLabel('Type', { exact: true }).selectOption('Boundary wall');
  await rb.getByLabel('Class', { exact: true }).selectOption('Precast concrete-i');
  await expect(rb.getByLabel('Unit', { exact: true })).toHaveValue('m');
  await rb.getByLabel('Rate', { exact: true }).fill('850');
  await rb.getByLabel('Number of units').fill('90');
  await expect(rb.getByTestId('improvement-value')).toHaveText(`Value: R ${EXPECTED.improvement}`);
  await saveSections(rb, 'Changes to the improvement saved.');
  await rb.getByRole('link', { name: 'Section Boundary' }).click();
  await expect(rb.getByTestId('section-subtotal')).toHaveText(`Section subtotal: ${EXPECTED.improvement}`);

  // ---- The property image: paste a 1600 × 800 PNG (as from the clipboard) and crop it ------------------
  await rb.getByRole('link', { name: 'Property overview' }).click();
  await rb
    .getByRole('region', { name: 'Property image' })
    .getByRole('link', { name: 'Add an image' })
    .click();
  await expect(rb.getByRole('heading', { name: 'Property image' })).toBeVisible();
  const pasted = rb.waitForResponse(
    (r) => new URL(r.url()).pathname.replace(/\/$/, '') === '/api/v1.0/reportbuilder/image',
  );
  // A paste event carrying the PNG as a file, as Chromium fires it for Ctrl+V of a copied picture (the
  // headless browser has no system clipboard to put one on).
  await rb.evaluate(
    async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'clipboard.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true }));
    },
    (await testPng()).toString('base64'),
  );
  expect((await pasted).ok()).toBe(true);
  await expect(rb.getByText('Image 1600 × 800 px')).toBeVisible();
  const cropBox = rb.getByRole('region', { name: 'Crop box' });
  await expect(cropBox).toHaveAttribute('data-box', '0,0,1600,800');
  // Typed in image pixels: 1200 wide (600 high at ratio 2), then moved to the house.
  await rb.getByLabel('Width', { exact: true }).fill('1200');
  await rb.getByLabel('Width', { exact: true }).press('Enter');
  await expect(cropBox).toHaveAttribute('data-box', '0,0,1200,600');
  await rb.getByLabel('X', { exact: true }).fill('200');
  await rb.getByLabel('X', { exact: true }).press('Enter');
  await rb.getByLabel('Y', { exact: true }).fill('100');
  await rb.getByLabel('Y', { exact: true }).press('Enter');
  await expect(cropBox).toHaveAttribute('data-box', '200,100,1200,600');
  const cropped = rb.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/reportbuilder/image/crop'));
  await rb.getByRole('button', { name: 'Crop and save' }).click();
  expect((await cropped).ok()).toBe(true);
  await rb.waitForURL(/\/reportbuilder\/property-overview\?/);
  const propertyImage = rb.getByRole('region', { name: 'Property image' });
  await expect(propertyImage.getByRole('img', { name: 'Property image' })).toBeVisible();
  await expect(propertyImage.getByRole('link', { name: 'Change the image' })).toBeVisible();
  // The section markers sit over the image.
  await expect(propertyImage.getByRole('button', { name: 'Marker 1: Main house' })).toBeVisible();
  await expect(propertyImage.getByRole('button', { name: 'Marker 2: Boundary' })).toBeVisible();

  // ---- The totals, as worked by hand ----------------------------------------------------------------
  await expect(sectionsTable.getByRole('row').filter({ hasText: 'Main house' })).toContainText(
    EXPECTED.building,
  );
  await expect(sectionsTable.getByRole('row').filter({ hasText: 'Boundary' })).toContainText(
    EXPECTED.improvement,
  );
  await expect(rb.getByTestId('total-Subtotal')).toHaveText(EXPECTED.subtotal);
  await expect(rb.getByTestId('total-Professional fee')).toHaveText(EXPECTED.fee);
  await expect(rb.getByTestId('total-VAT')).toHaveText(EXPECTED.vat);
  await expect(rb.getByTestId('total-Total')).toHaveText(EXPECTED.total);
  const shownTotal = (await rb.getByTestId('total-Total').textContent())!.trim();
  // The service prices the saved report the same way.
  const totals = await rb.request.get(`/api/v1.0/reportbuilder/totals/${id}`);
  expect(totals.status(), await totals.text()).toBe(200);
  expect((await totals.json()).formatted).toMatchObject({ grandTotal: shownTotal });

  // ---- Submit (from a section overview) → QC check, back in the console ------------------------------
  // Nobody asks for the PDF (issue 22): the submission queues it, and sets the RVE from the report's totals.
  const asked: string[] = [];
  rb.on('request', (r) => {
    if (/\/api\/v1\.0\/reportbuilder\/report\/.*\/full/.test(r.url())) asked.push(r.url());
  });
  await sectionsTable.getByRole('link', { name: 'Main house' }).click();
  await expect(rb.getByRole('heading', { name: 'Section overview: Main house' })).toBeVisible();
  await rb.getByRole('button', { name: 'Submit report' }).click();
  await rb.waitForURL(/\/requests\/admin$/);
  const submitted = await requestRecord(operator, id);
  expect(submitted.status).toBe('QC check');
  expect(submitted.RVETotal).toBe(5_035_921.88);
  row = await openConsoleAt(operator, grip);
  await expect(row.getByRole('button', { name: 'QC check' })).toBeVisible();

  // ---- view-report follows the PDF the server is making and shows it ----------------------------------
  await rb.goto(`/reportbuilder/view-report?requestID=${id}`);
  await expect(rb.getByRole('heading', { name: `Report ${grip}` })).toBeVisible();
  const frame = rb.locator('iframe[title="Report PDF"]');
  await expect(frame).toBeVisible({ timeout: 90_000 });
  await expect(frame).toHaveAttribute('src', `/api/v1.0/reportbuilder/savi/${id}/download?inline=true`);
  await expect(rb.getByRole('link', { name: 'Download the PDF' })).toBeVisible();
  expect(asked).toEqual([]);

  // ---- The PDF, downloaded with the page's session, holds the grand total as the screen showed it ------
  const pdf = await rb.request.get(`/api/v1.0/reportbuilder/savi/${id}/download`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const bytes = await pdf.body();
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = (await loadPdfJobs().pdfText(bytes)).join(' ').replace(/\s+/g, ' ');
  expect(text).toContain(grip);
  expect(text).toContain(`R ${shownTotal}`);
  for (const figure of [
    EXPECTED.subtotal,
    EXPECTED.fee,
    EXPECTED.vat,
    EXPECTED.building,
    EXPECTED.improvement,
  ])
    expect(text).toContain(`R ${figure}`);
  expect(text).toContain('Main house');
  expect(text).toContain('Boundary Improvements');
  expect(text).toContain('Boundary wall');
  // Once the PDF is stored, the request carries its RVE total.
  // (set just after the PDF is marked ready, by the worker's afterDone)
  await expect.poll(async () => (await requestRecord(operator, id)).RVETotal).toBe(5_035_921.88);
});
