import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import type * as PdfJobs from '@portal/pdf-jobs';
import { ROOT } from '../../scripts/lib/processes.mjs';
import { demoAccount, login } from '../support/auth';
import { queryRun } from '../support/env';

// IRiS risk reports through the portal (issue 12): mf-iris at /iris (loaded by the shell at run time), the
// requests service (the IRIS request with the group's references), services/iris (the report from the
// run's geodata and the risk layers of ../shared/data), the iris-worker (the PDF in Chromium, queue
// 'iris-pdf'), the request list's download and the operators' queue dashboard at /admin/queues.

test.describe.configure({ mode: 'serial' });

/** libs/pdf-jobs as built: pdfText reads a PDF back with pdf.js in a child Node process. */
const loadPdfJobs = () =>
  createRequire(import.meta.url)(join(ROOT, 'libs/pdf-jobs/dist/index.js')) as typeof PdfJobs;

const POLICY_RULE = 'Policy number must be two letters followed by six digits, e.g. KM123456';

interface KnownAddress {
  house_number: string;
  street_name: string;
  town: string;
  lat: number;
  lng: number;
}

/** A street address of the generated Stellenbosch (offset picks another). */
async function stellenboschAddress(offset = 0): Promise<KnownAddress> {
  const [row] = await queryRun<KnownAddress>(
    `SELECT house_number, street_name, town, ST_Y(point) AS lat, ST_X(point) AS lng
       FROM geo.addresses
      WHERE town = 'Stellenbosch' AND unit IS NULL AND house_number <> '' AND parcel_id IS NOT NULL
      ORDER BY id OFFSET $1 LIMIT 1`,
    [offset],
  );
  if (!row) throw new Error('The generated geodata has no Stellenbosch address.');
  return row;
}

async function openIris(page: Page, email: string) {
  const user = demoAccount(email);
  await login(page, user.email, user.password);
  await page.goto('/iris');
  await expect(page.getByPlaceholder('Please select search option...')).toBeVisible();
}

/** Searches the address with the shared search panel (as /savi) and picks the first result. */
async function pickAddress(page: Page, address: KnownAddress) {
  await page.getByRole('button', { name: /^Search by Street Address/ }).click();
  const box = page.getByRole('textbox', { name: 'Search by Street Address' });
  await box.fill(`${address.house_number} ${address.street_name}, ${address.town}`);
  await box.press('Enter');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('button').first()).toContainText(address.street_name);
  await results.getByRole('button').first().click();
  await expect(page.getByRole('region', { name: 'Location' })).toBeVisible();
}

/** Fills the Policy Number (after checking the order waits for it) and orders; answers the request id. */
async function order(page: Page, policy = 'KM123456'): Promise<{ requestId: string; grip: string }> {
  const button = page.getByRole('button', { name: 'Order risk report' });
  const field = page.getByLabel('Policy Number');
  await expect(field).toHaveAttribute('placeholder', 'Please provide Policy Number');
  await expect(button).toBeDisabled();
  await field.fill('KM12');
  await expect(page.getByText(POLICY_RULE)).toBeVisible();
  await expect(button).toBeDisabled();
  await field.fill(policy);
  await expect(page.getByText(POLICY_RULE)).toHaveCount(0);
  await expect(button).toBeEnabled();

  const created = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/request/' && r.request().method() === 'PUT',
  );
  await button.click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  expect(answer.request().postDataJSON()).toMatchObject({
    requestType: 'IRIS',
    reference: { POLICY_NUMBER: policy },
  });
  const requestId = answer.headers()['location'].match(/\/request\/([^/]+)\/any/)![1];
  const grip = answer.headers()['x-grip-reference'];
  await expect(page.getByTestId('grip-reference')).toHaveText(grip);
  return { requestId, grip };
}

const pdfStatus = (page: Page) => page.getByTestId('pdf-status');
const pdfSection = (page: Page) => page.getByRole('region', { name: 'PDF report' });

/** Waits (the worker renders in Chromium) for the PDF, and downloads it. */
async function downloadPdf(page: Page): Promise<Download> {
  await expect(pdfStatus(page)).toHaveText('The PDF is ready.', { timeout: 90_000 });
  const downloading = page.waitForEvent('download');
  await pdfSection(page).getByRole('link', { name: 'Download PDF' }).click();
  return downloading;
}

async function downloadedText(download: Download): Promise<string> {
  const path = await download.path();
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return (await loadPdfJobs().pdfText(bytes)).join(' ');
}

/** What each risk section says when its layers are not loaded (services/iris compute). */
const NOT_LOADED = [
  ['Elevation', 'No elevation model is loaded.'],
  ['Crime', 'No crime data is loaded.'],
  ['Water bodies', 'No water-body data is loaded.'],
  ['Fire services', 'No fire-station data is loaded.'],
  ['Soil', 'No soil data is loaded.'],
] as const;

/** Whether the run's database has the risk layers (global-setup imports them when ../shared/data exists). */
async function riskLayersLoaded(): Promise<boolean> {
  const [row] = await queryRun<{ n: number }>('SELECT count(*)::int AS n FROM risk.import_runs');
  return (row?.n ?? 0) > 0;
}

/** Digits only: '1 234' (a grouped figure, on screen or in the PDF) is 1234. */
const digits = (text: string) => text.replace(/[^\d]/g, '');

let ordered: { requestId: string; grip: string; reportId: string } | undefined;

test('a KMI user orders a risk report for a Stellenbosch address, reads it and downloads its PDF', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openIris(page, 'user@portal.test');
  await pickAddress(page, await stellenboschAddress());
  const reportCreated = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/iris/' && r.request().method() === 'PUT',
  );
  const { requestId, grip } = await order(page);
  const { report } = await (await reportCreated).json();
  ordered = { requestId, grip, reportId: report._id };

  // The report: its header and every section, each naming its source.
  const article = page.getByRole('article', { name: 'IRiS risk report' });
  await expect(article.getByTestId('report-coordinates')).toHaveText(/^-33\.\d{6}, 18\.\d{6}$/);
  for (const section of ['Elevation', 'Crime', 'Water bodies', 'Fire services', 'Soil'])
    await expect(article.getByRole('region', { name: section })).toBeVisible();
  const crime = article.getByRole('region', { name: 'Crime' });
  // A machine without ../shared/data has no risk layers: every risk section then says so plainly (and no
  // section makes up an answer), and the PDF says the same.
  const riskLayers = await riskLayersLoaded();
  let burglaries = '';
  let soilVerdict = '';
  if (riskLayers) {
    await expect(crime.getByTestId('precinct')).toContainText('Stellenbosch');
    const residential = crime.getByTestId('crime-latest-burglaryResidential');
    burglaries = digits((await residential.getByTestId('crime-count').textContent()) ?? '');
    expect(burglaries).toMatch(/^\d+$/);
    soilVerdict = (await article.getByTestId('soil-verdict').textContent())?.trim() ?? '';
    expect(['Dangerous', 'Not dangerous']).toContain(soilVerdict);
  } else {
    for (const [section, text] of NOT_LOADED)
      await expect(article.getByRole('region', { name: section }).getByTestId('unavailable')).toHaveText(
        text,
      );
  }

  // The PDF's progress, then the download.
  await expect(pdfSection(page)).toBeVisible();
  await expect(pdfStatus(page)).toHaveText(
    /Preparing the report…|Starting the PDF…|Making the PDF…|The PDF is ready\./,
  );
  await page.screenshot({ path: '/tmp/iris-report.png', fullPage: true });
  const download = await downloadPdf(page);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  await download.saveAs('/tmp/iris-report.pdf');
  const text = await downloadedText(download);
  expect(text).toContain(grip);
  expect(text).toContain('Stellenbosch');
  if (riskLayers) {
    // The latest residential burglary count as the screen shows it (the PDF groups thousands its own way).
    const residentialLine = text.match(/Burglary at residential premises\s*([\d\s\u00a0]+)reported/);
    expect(residentialLine, text).not.toBeNull();
    expect(digits(residentialLine![1])).toBe(burglaries);
    // The soil class in the screen's words.
    expect(text).toContain(`Soil class ${soilVerdict}`);
  } else {
    for (const [, said] of NOT_LOADED) expect(text).toContain(said);
  }
  await page.screenshot({ path: '/tmp/iris-report.png', fullPage: true });
});

test('cancel and regenerate a report’s PDF', async ({ page }) => {
  test.setTimeout(180_000);
  await openIris(page, 'user@portal.test');
  await pickAddress(page, await stellenboschAddress(7));
  const reportCreated = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/iris/' && r.request().method() === 'PUT',
  );
  await order(page, 'KM654321');
  const { report } = await (await reportCreated).json();
  const reportId: string = report._id;
  await expect(pdfStatus(page)).toHaveText('The PDF is ready.', { timeout: 90_000 });

  // Regenerate, then cancel at once: the screen says cancelled; the server has either cancelled the new
  // version or (a quick worker) finished it already — never the old one still.
  const regenerated = page.waitForResponse((r) =>
    new URL(r.url()).pathname.endsWith(`/${reportId}/pdf/regenerate/`),
  );
  await pdfSection(page).getByRole('button', { name: 'Regenerate' }).click();
  const { version } = await (await regenerated).json();
  expect(version).toBeGreaterThanOrEqual(2);
  // The screen says cancelled at once and calls the server after: the server's state is read once its
  // cancel has answered.
  const cancelled = page.waitForResponse((r) =>
    new URL(r.url()).pathname.replace(/\/$/, '').endsWith(`/${reportId}/pdf/cancel`),
  );
  await pdfSection(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(pdfStatus(page)).toHaveText('PDF generation was cancelled.');
  await cancelled;
  await expect(pdfSection(page).getByRole('link', { name: 'Download PDF' })).toHaveCount(0);
  const afterCancel = await (await page.request.get(`/api/v1.0/iris/${reportId}/pdf/ready/`)).json();
  expect(['cancelled', 'done']).toContain(afterCancel.state);

  // Regenerate once more: a newer version, made to the end.
  const again = page.waitForResponse((r) =>
    new URL(r.url()).pathname.endsWith(`/${reportId}/pdf/regenerate/`),
  );
  await pdfSection(page).getByRole('button', { name: 'Regenerate' }).click();
  expect((await (await again).json()).version).toBeGreaterThan(version);
  await expect(pdfStatus(page)).toHaveText(/Making the PDF…|The PDF is ready\./);
  const text = await downloadedText(await downloadPdf(page));
  expect(text).toContain('Stellenbosch');
});

test('a user without the iris service is sent home', async ({ page }) => {
  // A newly registered user belongs to no group and has no services.
  const email = `no-iris-${Date.now()}@example.co.za`;
  await page.goto('/auth/register');
  await page.getByLabel('Name').fill('Bongani Mthembu');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Sunbird-Karoo-42');
  await page.getByLabel('Confirm Password').fill('Sunbird-Karoo-42');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  await page.goto('/iris');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('button', { name: 'Order risk report' })).toHaveCount(0);
  await expect(page.getByPlaceholder('Please select search option...')).toHaveCount(0);
});

test('the IRiS request is Finalised in /requests and its report downloads from there', async ({ page }) => {
  // Serial: this runs only after the first test ordered the report.
  expect(ordered, 'the report ordered by the first test').toBeDefined();
  const { grip, requestId, reportId } = ordered!;
  const [stored] = await queryRun<{ status: string; report_pdf_url: string | null }>(
    'SELECT status, report_pdf_url FROM requests.requests WHERE id = $1',
    [requestId],
  );
  expect(stored.status).toBe('Finalised');
  expect(stored.report_pdf_url).toMatch(/^pdfReports\//);

  const user = demoAccount('user@portal.test');
  await login(page, user.email, user.password);
  // The list is sorted created-ascending (spec 03) and the suite gives this user more than a page.
  await page.goto(`/requests?grip_reference=${encodeURIComponent(grip)}`);
  const row = page.getByRole('row').filter({ hasText: grip });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Finalised');
  // The list opens the link in a new window (noopener), which closes as the download starts: Chromium
  // reports the download on the opening page.
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download report' }).click();
  const download = await downloading;
  expect(download.url()).toContain(`/api/v1.0/iris/${reportId}/pdf/download/`);
  expect(await downloadedText(download)).toContain(grip);
});

test('the queue dashboard lists iris-pdf for an admin; an operator gets 403', async ({ browser }) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const adminAccount = demoAccount('admin@portal.test');
  await login(admin, adminAccount.email, adminAccount.password);
  const answer = await admin.goto('/admin/queues');
  expect(answer?.status()).toBe(200);
  await expect(admin.getByText('iris-pdf').first()).toBeVisible();
  await adminContext.close();

  const operatorContext = await browser.newContext();
  const operator = await operatorContext.newPage();
  const operatorAccount = demoAccount('operator@portal.test');
  await login(operator, operatorAccount.email, operatorAccount.password);
  const refused = await operator.goto('/admin/queues');
  expect(refused?.status()).toBe(403);
  expect((await operator.request.get('/admin/queues/api/queues')).status()).toBe(403);
  await operatorContext.close();
});
