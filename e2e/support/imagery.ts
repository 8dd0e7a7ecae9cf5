import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { signedIn } from './auth';
import { queryRun } from './env';

// The dated imagery's browser tests (e2e/tests/imagery.spec.ts): properties picked from the run's geodata
// (a house extended between two surveys, a building added between two), the built-in camera and the ortho
// map's placement (to click a wall or a corner where the renderer drew it), and the /savi steps they share.

export interface Survey {
  id: number;
  capturedOn: string;
  kind: string;
  provider: string;
}

/** A house that was extended between two surveys at its address, drawn today on a high-resolution survey. */
export interface ExtendedHouse {
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
export const SURVEYS_AT = `SELECT c.id, c.captured_on::text AS captured_on, c.kind FROM geo.imagery_coverage c
                     WHERE ST_Contains(c.geom, a.point)`;

export async function extendedHouse(nth = 0): Promise<ExtendedHouse> {
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

/** A building added on a parcel between two surveys at its address. */
export interface AddedBuilding {
  lat: number;
  lng: number;
  house_number: string;
  street_name: string;
  town: string;
  building_id: string;
  built_on: string;
  footprint: { type: 'Polygon'; coordinates: number[][][] };
}

/** A building added on a parcel between two surveys at its address (for the swipe's outline). */
export async function addedBuilding(): Promise<AddedBuilding> {
  const [row] = await queryRun<AddedBuilding>(
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
export const longDate = (isoDate: string) =>
  new Intl.DateTimeFormat('en-ZA', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Africa/Johannesburg',
  }).format(new Date(`${isoDate}T12:00:00+02:00`));

export async function surveysAt(page: Page, point: { lat: number; lng: number }): Promise<Survey[]> {
  const answer = await page.request.get(`/api/imagery/surveys?lat=${point.lat}&lng=${point.lng}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).surveys;
}

// ---- The built-in renderer's camera (libs/domain imagery/camera.ts, services/locator render.ts) ----------

export const METRES_PER_DEGREE_LAT = 110_574;
export const metresPerDegreeLng = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);
export const round5 = (value: number) => Number(value.toFixed(5));

/**
 * Where a ground corner `heightM` up appears on the built-in north oblique (camera north of the point,
 * looking south, 45° down; 110 m across): pixels of the full picture (camera.width × camera.height).
 */
export function northObliquePixel(
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

export const EARTH_RADIUS = 6_378_137;
export const ZOOM_19_RESOLUTION = (2 * Math.PI * EARTH_RADIUS) / 256 / 2 ** 19;
export const mercator = ([lng, lat]: number[]) => [
  (EARTH_RADIUS * lng * Math.PI) / 180,
  EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)),
];

/** The page position of a lng/lat on an ortho map centred on `point` at zoom 19. */
export async function orthoMapPosition(map: Locator, point: { lat: number; lng: number }, lngLat: number[]) {
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
export async function openAtAddress(
  page: Page,
  at: { house_number: string; street_name: string; town: string },
) {
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
export async function clickPicturePixel(page: Page, picture: Locator, [left, top]: [number, number]) {
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
export async function pictureViewAt(
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
export async function logMeasuredRequest(
  page: Page,
  house: ExtendedHouse,
  surveyId: number,
  policyNumber: string,
) {
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
export const figure = (text: string, unit: 'm²' | 'm') => {
  const match = new RegExp(`([\\d.]+) ${unit}(?!²)`).exec(text.replace(/\u00a0/g, ' '));
  if (!match) throw new Error(`No figure in ${unit} in '${text}'`);
  return Number(match[1]);
};
