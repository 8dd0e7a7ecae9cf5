import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import { signedIn } from '../support/auth';
import { openConsoleAt } from '../support/console';
import {
  addedBuilding,
  clickPicturePixel,
  extendedHouse,
  figure,
  logMeasuredRequest,
  longDate,
  northObliquePixel,
  orthoMapPosition,
  pictureViewAt,
  surveysAt,
} from '../support/imagery';
import { queryRun } from '../support/env';

// Dated imagery, comparison and measurement (issue 21) through the portal URL: the locator's survey calls
// (services/locator: surveys, changes, pictures of a survey with their camera), the measurements of a
// request (services/requests), and the screens that show pictures — /savi's picture view (timeline, the
// ortho to measure on, a height on an oblique, compare with a swipe) and the report builder (use a
// measurement as a floor size). The truth is the generated geodata: geo.buildings' footprints, heights and
// dates, which the renderer draws.

test.describe.configure({ mode: 'serial' });

test('through the API: surveys at a property, the extension between two of them, measurements of its request', async ({
  browser,
}) => {
  const house = await extendedHouse();
  const user = await signedIn(browser, 'user@portal.test');
  const operator = await signedIn(browser, 'operator@portal.test');
  const point = { lat: house.lat, lng: house.lng };

  // Surveys newest first; one before the extension, the newest after it.
  const surveys = await surveysAt(user, point);
  expect(surveys.length).toBeGreaterThanOrEqual(2);
  const dates = surveys.map((s) => s.capturedOn);
  expect([...dates].sort().reverse()).toEqual(dates);
  const newest = surveys[0];
  const before = surveys.find((s) => s.capturedOn < house.extended_on)!;
  expect(newest.capturedOn > house.extended_on).toBe(true);

  // The extension is listed as a change, with its areas at both dates (PostGIS's geography areas).
  const changes = await user.request.get(
    `/api/imagery/changes?lat=${point.lat}&lng=${point.lng}&from=${before.id}&to=${newest.id}`,
  );
  expect(changes.status(), await changes.text()).toBe(200);
  const answer = await changes.json();
  const extension = answer.changed.find((c: { buildingId: string }) => c.buildingId === house.building_id);
  expect(extension, JSON.stringify(answer)).toBeTruthy();
  expect(extension.areaFromM2).toBeCloseTo(house.area_before, 1);
  expect(extension.areaToM2).toBeCloseTo(house.area_now, 1);

  // A picture of the older survey says when it was taken; a survey elsewhere is a 404.
  const older = await user.request.get(
    `/api/idanImageUrl?lat=${point.lat}&lng=${point.lng}&orientation=o&survey=${before.id}`,
  );
  expect(older.status(), await older.text()).toBe(200);
  expect(await older.json()).toMatchObject({
    success: true,
    capturedOn: before.capturedOn,
    surveyId: before.id,
  });
  const [elsewhere] = await queryRun<{ id: number }>(
    `SELECT id FROM geo.imagery_coverage WHERE NOT ST_Intersects(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326))
      ORDER BY id LIMIT 1`,
    [point.lng, point.lat],
  );
  const notHere = await user.request.get(
    `/api/idanImageUrl?lat=${point.lat}&lng=${point.lng}&orientation=o&survey=${elsewhere.id}`,
  );
  expect(notHere.status()).toBe(404);

  // The requester logs the request with the house's outline measured on the newest survey.
  const { id } = await logMeasuredRequest(user, house, newest.id, 'KM210210');

  const listed = await user.request.get(`/api/v1.0/request/${id}/measurements`);
  expect(listed.status(), await listed.text()).toBe(200);
  const [area] = (await listed.json()).measurements;
  expect(area).toMatchObject({
    kind: 'area',
    unit: 'm²',
    label: 'Main house',
    capturedOn: newest.capturedOn,
  });
  expect(Math.abs(area.value - house.area_now) / house.area_now).toBeLessThan(0.001);

  // Staff write, the requester reads: a height read off the north oblique by the camera it came with.
  const picture = await operator.request.get(
    `/api/idanImageUrl?lat=${point.lat}&lng=${point.lng}&orientation=n`,
  );
  const { camera } = await picture.json();
  const corner = house.footprint.coordinates[0][0];
  const base = northObliquePixel(point, corner, 0, camera);
  const top = northObliquePixel(point, corner, house.height_m, camera);
  const height = { kind: 'height', surveyId: newest.id, geometry: { type: 'Point', coordinates: corner } };
  const refused = await user.request.post(`/api/v1.0/request/${id}/measurements`, {
    data: { ...height, oblique: { camera, base, top } },
  });
  expect(refused.status()).toBe(403);
  const saved = await operator.request.post(`/api/v1.0/request/${id}/measurements`, {
    data: { ...height, oblique: { camera, base, top } },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  expect(Math.abs((await saved.json()).measurement.value - house.height_m) / house.height_m).toBeLessThan(
    0.01,
  );

  // Bad input: an outline crossing itself is a 400 and nothing is saved.
  const [a, b, c, d] = house.footprint.coordinates[0];
  const crossing = await operator.request.post(`/api/v1.0/request/${id}/measurements`, {
    data: {
      kind: 'area',
      surveyId: newest.id,
      geometry: { type: 'Polygon', coordinates: [[a, c, b, d, a]] },
    },
  });
  expect(crossing.status()).toBe(400);
  expect((await crossing.json()).message).toMatch(/crosses itself/);
  const after = await user.request.get(`/api/v1.0/request/${id}/measurements`);
  expect((await after.json()).measurements).toHaveLength(2);
});

test('/savi: step back through the surveys, trace the house on the ortho, read its height off an oblique, log the request with them', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const house = await extendedHouse(1);
  const { page, point, newest, before, tools } = await pictureViewAt(browser, house, house.extended_on);

  // The picture is dated; the timeline steps back to the survey before the extension, and forward again.
  const viewer = page.getByTestId('imagery-viewer');
  await expect(viewer.getByText(`Captured ${longDate(newest.capturedOn)}`)).toBeVisible();
  const timeline = tools.getByRole('radiogroup');
  await timeline.getByRole('radio', { name: new RegExp(`^${longDate(before.capturedOn)},`) }).click();
  await expect(viewer.getByText(`Captured ${longDate(before.capturedOn)}`)).toBeVisible();
  await timeline.getByRole('radio', { name: new RegExp(`^${longDate(newest.capturedOn)},`) }).click();
  await expect(viewer.getByText(`Captured ${longDate(newest.capturedOn)}`)).toBeVisible();

  // A height on the north oblique: the base and the top of a corner of the house.
  await viewer.getByRole('tab', { name: 'North' }).click();
  await viewer.getByRole('button', { name: 'Measure a height' }).click();
  const picture = page.getByRole('application', { name: /Oblique picture, North/ });
  await expect(picture.locator('img')).toHaveJSProperty('complete', true);
  const camera = { width: 1024, height: 768, metresAcross: 110, tiltDegrees: 45 };
  const corner = house.footprint.coordinates[0][0];
  for (const heightM of [0, house.height_m]) {
    const [x, y] = northObliquePixel(point, corner, heightM, camera);
    await clickPicturePixel(page, picture, [x / camera.width, y / camera.height]);
  }
  await expect(page.getByTestId('height-status')).toHaveText(/^Height /);
  const heightText = (await page.getByTestId('height-status').textContent()) ?? '';
  expect(Math.abs(figure(heightText, 'm') - house.height_m) / house.height_m).toBeLessThan(0.05);

  // The house traced on the newest ortho: the area shown is within 2 % of its footprint's.
  await tools.getByRole('tab', { name: 'Measure' }).click();
  const map = page.getByTestId('ortho-survey-map');
  await expect(map.getByText(`Captured ${longDate(newest.capturedOn)}`)).toBeVisible();
  await map.getByRole('group', { name: 'Measuring tools' }).getByRole('button', { name: 'Area' }).click();
  await map.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const ring = house.footprint.coordinates[0].slice(0, -1);
  for (const corner of ring) {
    const { x, y } = await orthoMapPosition(map, point, corner);
    await page.mouse.click(x, y);
  }
  await map.getByRole('button', { name: 'Finish' }).click();
  const list = page.getByTestId('measurement-list');
  const areaItem = list.getByText(/^Area: /);
  await expect(areaItem).toBeVisible();
  const shownArea = figure((await areaItem.textContent()) ?? '', 'm²');
  expect(Math.abs(shownArea - house.area_now) / house.area_now).toBeLessThan(0.02);
  await expect(list.getByText(/^Height: /)).toBeVisible();

  // Logged with the request: both measurements arrive, figured by the server.
  await page.getByRole('button', { name: 'Replacement Value Estimate' }).click();
  await page.getByLabel('Policy Number').fill('KM210220');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('request-review')).toBeVisible();
  const created = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v1.0/request/' && r.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Submit' }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const id = answer.headers()['location'].match(/\/request\/([^/]+)\/any/)![1];
  const saved = (await (await page.request.get(`/api/v1.0/request/${id}/measurements`)).json()).measurements;
  expect(saved.map((m: { kind: string }) => m.kind).sort()).toEqual(['area', 'height']);
  const savedArea = saved.find((m: { kind: string }) => m.kind === 'area');
  expect(Math.abs(savedArea.value - house.area_now) / house.area_now).toBeLessThan(0.02);
  expect(savedArea.capturedOn).toBe(newest.capturedOn);
});

test('/savi compare: the swipe shows two dates and outlines the building added between them', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const added = await addedBuilding();
  const { page, point, newest, before, tools } = await pictureViewAt(browser, added, added.built_on);
  await tools.getByRole('tab', { name: 'Compare' }).click();

  const compare = page.getByTestId('imagery-compare');
  await compare
    .getByRole('radiogroup', { name: /^Before/ })
    .getByRole('radio', { name: new RegExp(`^${longDate(before.capturedOn)},`) })
    .click();
  await compare.getByRole('button', { name: 'Swipe' }).click();
  const map = compare.getByTestId('ortho-survey-map');
  await expect(map.getByText(`Captured ${longDate(before.capturedOn)}`)).toBeVisible();
  await expect(map.getByText(`Captured ${longDate(newest.capturedOn)}`)).toBeVisible();

  // Listed as added, and outlined in the added colour (#2e7d32) along its footprint's edge.
  const listed = compare.getByTestId('changes-list').locator(`[data-change="added"]`);
  await expect(listed.first()).toBeVisible();
  const [a, b] = added.footprint.coordinates[0];
  const middle = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  // The side-by-side maps are gone: one map at zoom 19 around the point.
  const at = await orthoMapPosition(map, point, middle);
  await page.waitForTimeout(500); // the outline layer draws on the next frame
  const shot = await page.screenshot({ clip: { x: at.x - 6, y: at.y - 6, width: 13, height: 13 } });
  const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
  let greenish = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, bl] = [data[i], data[i + 1], data[i + 2]];
    if (g > 90 && g > r * 1.5 && g > bl * 1.5) greenish++;
  }
  expect(greenish, 'pixels of the added outline at the footprint edge').toBeGreaterThan(0);
});

/** Clicks the report builder's Save and waits until the screen says the sections were saved. */
async function saveReport(page: Page, said: string) {
  const saved = page.waitForResponse(
    (r) => new URL(r.url()).pathname.replace(/\/$/, '') === '/api/v1.0/reportbuilder/section',
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const response = await saved;
  expect(response.status(), await response.text()).toBe(200);
  await expect(page.getByRole('status').filter({ hasText: said })).toBeVisible();
}

test('report builder: the operator uses the measured area as a floor size and the totals follow; it stays after a reload and the requester sees it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const house = await extendedHouse(2);
  const point = { lat: house.lat, lng: house.lng };
  const user = await signedIn(browser, 'user@portal.test');
  const [newest] = await surveysAt(user, point);

  // The requester logs the request with the main house measured in /savi (the creation body's measurements).
  const { id, grip } = await logMeasuredRequest(user, house, newest.id, 'KM210230');
  const [measured] = (await (await user.request.get(`/api/v1.0/request/${id}/measurements`)).json())
    .measurements;

  // QS check (with the changes since the survey before the request), then Start report.
  const operator = await signedIn(browser, 'operator@portal.test');
  let row = await openConsoleAt(operator, grip);
  await row.getByRole('button', { name: 'QS check' }).click();
  await expect(operator.getByRole('heading', { name: 'QS checklist' })).toBeVisible();
  await expect(operator.getByText('Changes since the survey before this request')).toBeVisible();
  const qsChecks = operator.getByRole('group', { name: 'QS checks' }).getByRole('checkbox');
  await expect(qsChecks).toHaveCount(3);
  for (const check of await qsChecks.all()) await check.check();
  await operator.getByRole('button', { name: 'Save' }).click();
  await expect(operator).toHaveURL(/\/requests\/admin$/);
  row = await openConsoleAt(operator, grip);
  const opened = operator.context().waitForEvent('page');
  await row.getByRole('button', { name: 'Start report' }).click();
  const rb = await opened;
  await rb.waitForURL(/\/reportbuilder\/property-overview\?requestID=/);

  // A section with a building.
  await expect(rb.getByRole('heading', { name: 'Property overview' })).toBeVisible();
  await rb.getByRole('button', { name: 'Add section' }).click();
  const sectionDialog = rb.getByRole('dialog', { name: 'Add section' });
  await sectionDialog.getByLabel('Section name').fill('Main house');
  await sectionDialog.getByLabel('Section type').selectOption('Residential');
  await sectionDialog.getByRole('button', { name: 'Add' }).click();
  await saveReport(rb, 'Changes saved.');
  await rb.getByRole('table', { name: 'Sections' }).getByRole('link', { name: 'Main house' }).click();
  await rb.getByRole('button', { name: 'Add building' }).click();
  const buildingDialog = rb.getByRole('dialog', { name: 'Add building' });
  await buildingDialog.getByLabel('Building name').fill('House');
  await buildingDialog.getByRole('button', { name: 'Add' }).click();
  await saveReport(rb, 'Changes saved.');
  await rb.getByRole('table', { name: 'Buildings' }).getByRole('link', { name: 'House' }).click();

  // The building overview lists the measurement; 'Use as floor size' fills a new floor; the total follows.
  await expect(rb.getByRole('heading', { name: 'Building overview: House' })).toBeVisible();
  await rb.getByLabel('Category', { exact: true }).selectOption('Buildings');
  await rb.getByLabel('Type', { exact: true }).selectOption('Dwelling');
  await rb.getByLabel('Class', { exact: true }).selectOption('Double storey-i');
  await rb.getByLabel('Rate', { exact: true }).fill('12000');
  await rb.getByLabel('Construction type').selectOption('Brick and Plaster');
  await expect(rb.getByText(/^Main house/).first()).toBeVisible();
  await rb.getByRole('button', { name: 'Use Main house as floor size' }).click();
  await rb.getByRole('menuitem', { name: 'A new floor' }).click();
  const area = Math.round(measured.value * 100) / 100;
  await expect(rb.getByLabel('Floor 1 size (m²)')).toHaveValue(String(area));
  const money = (area * 12000).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  await expect(rb.getByTestId('building-total')).toContainText(`R ${money}`);
  await saveReport(rb, 'Changes to the building saved.');

  // After a reload: the floor keeps the measured size, marked with its survey; the measurement is listed.
  await rb.reload();
  await expect(rb.getByLabel('Floor 1 size (m²)')).toHaveValue(String(area));
  await expect(rb.getByText(new RegExp(`${longDate(newest.capturedOn)}|survey`, 'i')).first()).toBeVisible();
  await expect(rb.getByRole('button', { name: 'Use Main house as floor size' })).toBeVisible();
  const totals = await rb.request.get(`/api/v1.0/reportbuilder/totals/${id}`);
  expect(totals.status(), await totals.text()).toBe(200);
  expect(JSON.stringify(await totals.json())).toContain(String(Math.round(area * 12000)));

  // The requester sees the measurement too (and may not change it).
  const seen = (await (await user.request.get(`/api/v1.0/request/${id}/measurements`)).json()).measurements;
  expect(seen.map((m: { id: string; label: string }) => [m.id, m.label])).toEqual([
    [measured.id, 'Main house'],
  ]);
  const refused = await user.request.delete(`/api/v1.0/request/${id}/measurements/${measured.id}`);
  expect(refused.status()).toBe(403);
});
