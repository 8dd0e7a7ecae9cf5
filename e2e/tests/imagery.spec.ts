import sharp from 'sharp';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { signedIn } from '../support/auth';
import { openConsoleAt } from '../support/console';
import { queryRun } from '../support/env';

// Dated imagery, comparison and measurement (issue 21) through the portal URL: the locator's survey calls
// (services/locator: surveys, changes, pictures of a survey with their camera), the measurements of a
// request (services/requests), and the screens that show pictures — /savi's picture view (timeline, the
// ortho to measure on, a height on an oblique, compare with a swipe) and the report builder (use a
// measurement as a floor size). The truth is the generated geodata: geo.buildings' footprints, heights and
// dates, which the renderer draws.

test.describe.configure({ mode: 'serial' });

interface Survey {
  id: number;
  capturedOn: string;
  kind: string;
  provider: string;
}

/** A house that was extended between two surveys at its address, drawn today on a high-resolution survey. */
interface ExtendedHouse {
  lat: number;
  lng: number;
  parcel_id: string;
  house_number: string;
  street_name: string;
  town: string;
  building_id: string;
  height_m: number;
  extended_on: string;
  /** Today's footprint, GeoJSON (lng/lat). */
  footprint: { type: 'Polygon'; coordinates: number[][][] };
  area_now: number;
  area_before: number;
}

/** Newest survey first at a point, as the locator lists them (the SQL's view of the same rows). */
const SURVEYS_AT = `SELECT c.id, c.captured_on::text AS captured_on, c.kind FROM geo.imagery_coverage c
                     WHERE ST_Contains(c.geom, a.point)`;

async function extendedHouse(nth = 0): Promise<ExtendedHouse> {
  const [row] = await queryRun<ExtendedHouse>(
    `SELECT ST_Y(a.point) AS lat, ST_X(a.point) AS lng, a.parcel_id::text, a.house_number, a.street_name, a.town,
            b.id::text AS building_id, b.height_m, b.extended_on::text AS extended_on,
            ST_AsGeoJSON(b.geom, 9)::json AS footprint,
            ST_Area(b.geom::geography) AS area_now, ST_Area(b.geom_before_extension::geography) AS area_before
       FROM geo.buildings b
       JOIN LATERAL (SELECT * FROM geo.addresses a
                      WHERE a.parcel_id = b.parcel_id AND a.unit IS NULL AND a.house_number <> ''
                      ORDER BY a.id LIMIT 1) a ON true
      WHERE b.kind = 'house' AND b.extended_on IS NOT NULL AND b.demolished_on IS NULL
        -- One house on the parcel: what a user traces is this one.
        AND NOT EXISTS (SELECT 1 FROM geo.buildings o WHERE o.parcel_id = b.parcel_id AND o.id <> b.id AND o.kind = 'house')
        -- The newest survey at the point is a high-resolution flight after the extension...
        AND (SELECT s.kind FROM (${SURVEYS_AT}) s ORDER BY s.captured_on DESC, s.id DESC LIMIT 1) = 'high_resolution'
        AND (SELECT max(s.captured_on)::date FROM (${SURVEYS_AT}) s) > b.extended_on
        -- ...and an earlier one saw the house before it (standing already, not yet extended).
        AND EXISTS (SELECT 1 FROM (${SURVEYS_AT}) s
                     WHERE s.captured_on::date < b.extended_on AND (b.built_on IS NULL OR s.captured_on::date >= b.built_on))
      ORDER BY b.levels DESC, b.id OFFSET $1 LIMIT 1`,
    [nth],
  );
  if (!row) throw new Error('The generated geodata has no extended house between two surveys.');
  return row;
}

/** A building added on a parcel between two surveys at its address (for the swipe's outline). */
async function addedBuilding(): Promise<{
  lat: number;
  lng: number;
  house_number: string;
  street_name: string;
  town: string;
  building_id: string;
  built_on: string;
  footprint: { type: 'Polygon'; coordinates: number[][][] };
}> {
  const [row] = await queryRun<{
    lat: number;
    lng: number;
    house_number: string;
    street_name: string;
    town: string;
    building_id: string;
    built_on: string;
    footprint: { type: 'Polygon'; coordinates: number[][][] };
  }>(
    `SELECT ST_Y(a.point) AS lat, ST_X(a.point) AS lng, a.house_number, a.street_name, a.town,
            b.id::text AS building_id, b.built_on::text AS built_on,
            ST_AsGeoJSON(b.geom, 9)::json AS footprint
       FROM geo.buildings b
       JOIN LATERAL (SELECT * FROM geo.addresses a
                      WHERE a.parcel_id = b.parcel_id AND a.unit IS NULL AND a.house_number <> ''
                      ORDER BY a.id LIMIT 1) a ON true
      WHERE b.built_on IS NOT NULL AND b.demolished_on IS NULL AND b.extended_on IS NULL
        AND b.kind IN ('garage', 'backyard room', 'house') AND ST_Area(b.geom::geography) > 20
        AND (SELECT max(s.captured_on)::date FROM (${SURVEYS_AT}) s) > b.built_on
        AND EXISTS (SELECT 1 FROM (${SURVEYS_AT}) s WHERE s.captured_on::date < b.built_on)
      ORDER BY b.id LIMIT 1`,
  );
  if (!row) throw new Error('The generated geodata has no building added between two surveys.');
  return row;
}

/** The long South African date the screens print ("14 March 2019"). */
const longDate = (isoDate: string) =>
  new Intl.DateTimeFormat('en-ZA', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Africa/Johannesburg',
  }).format(new Date(`${isoDate}T12:00:00+02:00`));

async function surveysAt(page: Page, point: { lat: number; lng: number }): Promise<Survey[]> {
  const answer = await page.request.get(`/api/imagery/surveys?lat=${point.lat}&lng=${point.lng}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).surveys;
}

// ---- The built-in renderer's camera (libs/domain imagery/camera.ts, services/locator render.ts) ----------

const METRES_PER_DEGREE_LAT = 110_574;
const metresPerDegreeLng = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);
const round5 = (value: number) => Number(value.toFixed(5));

/**
 * Where a ground corner `heightM` up appears on the built-in north oblique (camera north of the point,
 * looking south, 45° down; 110 m across): pixels of the full picture (camera.width × camera.height).
 */
function northObliquePixel(
  point: { lat: number; lng: number },
  [lng, lat]: number[],
  heightM: number,
  camera: { width: number; height: number; metresAcross: number; tiltDegrees: number },
): [number, number] {
  const centre = { lat: round5(point.lat), lng: round5(point.lng) };
  const east = (lng - centre.lng) * metresPerDegreeLng(centre.lat);
  const north = (lat - centre.lat) * METRES_PER_DEGREE_LAT;
  const scale = camera.width / camera.metresAcross;
  const tilt = (camera.tiltDegrees * Math.PI) / 180;
  // Camera bearing 0: forward = (0, -1) (southwards), right = (-1, 0).
  return [
    camera.width / 2 - east * scale,
    camera.height / 2 - (-north * Math.sin(tilt) + heightM * Math.cos(tilt)) * scale,
  ];
}

// ---- The ortho map (web-kit OrthoSurveyMap: MapView centred on the point at zoom 19, Web Mercator) -------

const EARTH_RADIUS = 6_378_137;
const ZOOM_19_RESOLUTION = (2 * Math.PI * EARTH_RADIUS) / 256 / 2 ** 19;
const mercator = ([lng, lat]: number[]) => [
  (EARTH_RADIUS * lng * Math.PI) / 180,
  EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)),
];

/** The page position of a lng/lat on an ortho map centred on `point` at zoom 19. */
async function orthoMapPosition(map: Locator, point: { lat: number; lng: number }, lngLat: number[]) {
  const viewport = map.locator('.ol-viewport');
  const box = (await viewport.boundingBox())!;
  const [cx, cy] = mercator([point.lng, point.lat]);
  const [x, y] = mercator(lngLat);
  return {
    x: box.x + box.width / 2 + (x - cx) / ZOOM_19_RESOLUTION,
    y: box.y + box.height / 2 - (y - cy) / ZOOM_19_RESOLUTION,
  };
}

/** /savi with the address found by a street-address search and chosen: its popup open on the map. */
async function openAtAddress(page: Page, at: { house_number: string; street_name: string; town: string }) {
  await page.goto('/savi');
  await page.getByRole('button', { name: /^Search by Street Address/ }).click();
  const box = page.getByRole('textbox', { name: 'Search by Street Address' });
  await box.fill(`${at.house_number} ${at.street_name}, ${at.town}`);
  await box.press('Enter');
  await page.getByRole('list', { name: 'Search results' }).getByRole('button').first().click();
  await expect(page.getByTestId('marker-popup')).toContainText(at.street_name);
}

/**
 * Clicks a picture at a share of its width and height, scrolled so that spot is in view first: the picture
 * view scrolls inside its panel, and a picture 100 % wide is taller than the part of it shown.
 */
async function clickPicturePixel(page: Page, picture: Locator, [left, top]: [number, number]) {
  await picture.evaluate(
    (element, [x, y]) => {
      const spot = document.createElement('div');
      spot.style.cssText = `position:absolute;left:${x * 100}%;top:${y * 100}%;width:1px;height:1px`;
      element.appendChild(spot);
      spot.scrollIntoView({ block: 'center', inline: 'center' });
      spot.remove();
    },
    [left, top],
  );
  const box = (await picture.boundingBox())!;
  await page.mouse.click(box.x + left * box.width, box.y + top * box.height);
}

/**
 * /savi's picture view at a property for the requester (a wide, tall window: the pictures are 100 % wide),
 * with the newest survey there and the newest one before `changedOn` (a building's change).
 */
async function pictureViewAt(
  browser: Browser,
  at: { lat: number; lng: number; house_number: string; street_name: string; town: string },
  changedOn: string,
) {
  const point = { lat: at.lat, lng: at.lng };
  const page = await signedIn(browser, 'user@portal.test');
  await page.setViewportSize({ width: 1600, height: 1400 });
  const surveys = await surveysAt(page, point);
  const newest = surveys[0];
  const before = surveys.find((s) => s.capturedOn < changedOn)!;
  await openAtAddress(page, at);
  await page.getByRole('switch', { name: 'Picture view' }).check();
  return { page, point, newest, before, tools: page.getByTestId('picture-tools') };
}

/**
 * Logs a SAVI request of the page's user at the house with its outline measured on a survey (the creation
 * body's `measurements`, as /savi sends them); its id and GRiP reference.
 */
async function logMeasuredRequest(page: Page, house: ExtendedHouse, surveyId: number, policyNumber: string) {
  const point = { lat: house.lat, lng: house.lng };
  const reverse = await page.request.post('/api/avs/reverse', {
    data: { lat: point.lat, lng: point.lng, searchOption: 'address' },
  });
  const { result } = await reverse.json();
  const created = await page.request.put('/api/v1.0/request/', {
    data: {
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      Searched_For: result.address.formatted_address,
      Selected_Address: result.address.formatted_address,
      coordinates: point,
      selected: result.address,
      parcel: result.parcel,
      reference: { POLICY_NUMBER: policyNumber },
      measurements: [
        {
          kind: 'area',
          surveyId,
          geometry: { type: 'Polygon', coordinates: house.footprint.coordinates },
          label: 'Main house',
        },
      ],
    },
    headers: { 'Idempotency-Key': `imagery-${policyNumber}-${Date.now()}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  return {
    id: created.headers()['location'].match(/\/request\/([^/]+)\/any/)![1],
    grip: created.headers()['x-grip-reference'],
  };
}

/** "148.2 m² · perimeter 50.12 m" → 148.2; "7.90 m" → 7.9. */
const figure = (text: string, unit: 'm²' | 'm') => {
  const match = new RegExp(`([\\d.]+) ${unit}(?!²)`).exec(text.replace(/\u00a0/g, ' '));
  if (!match) throw new Error(`No figure in ${unit} in '${text}'`);
  return Number(match[1]);
};

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
