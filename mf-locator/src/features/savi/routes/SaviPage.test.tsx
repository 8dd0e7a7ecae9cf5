import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API, AVS_API, IMAGERY_API, REQUEST_API, SURVEY_API, type Orientation } from '@portal/contracts';
import { builtinCamera, pictureOffsetOfHeight } from '@portal/domain';
import {
  answerFetch,
  callsTo,
  json,
  sessionAnswers,
  sessionUser,
  type Answer,
} from '../../../testing/fetchAnswers';
import {
  churchStreetItem,
  churchStreetParcel,
  GROUP_REFERENCES,
  reverseAnswer,
} from '../../../testing/places';
import { renderRemote } from '../../../testing/renderRemote';

/** The demo user, with SAVi as the one service. */
const user = sessionUser({ services: ['savi'] });

const item = churchStreetItem();

const references = { claimsUser: false, references: GROUP_REFERENCES };

const reverse = reverseAnswer(item, churchStreetParcel());

function answers(overrides: Record<string, Answer> = {}) {
  return answerFetch({
    ...sessionAnswers(user, ['savi']),
    [`GET ${API.myReferences}`]: () => json(200, references),
    [`POST ${AVS_API.geocode}`]: () => json(200, { success: true, result: [item] }),
    [`POST ${AVS_API.search}`]: () => json(200, { success: true, result: [] }),
    [`POST ${AVS_API.reverse}`]: () => json(200, reverse),
    [`GET ${IMAGERY_API.coverage}`]: () => json(200, { success: true, covered: true, ortho: true }),
    [`GET ${IMAGERY_API.imageUrl}`]: (request) =>
      json(200, { success: true, url: `/img/${new URL(request.url).searchParams.get('orientation')}.jpg` }),
    [`POST ${API.audit}`]: () => json(201, { success: true }),
    [`PUT ${REQUEST_API.create}`]: () =>
      new Response('created', {
        status: 201,
        headers: { 'content-type': 'text/plain', 'X-Grip-Reference': 'GRP-2026-000123' },
      }),
    ...overrides,
  });
}

// Two surveys at the point (issue 21): the newest with obliques, an older ortho-only one.
const SURVEYS = [
  { id: 9, capturedOn: '2026-02-03', kind: 'high_resolution', provider: 'Built-in' },
  { id: 4, capturedOn: '2019-03-14', kind: 'ortho', provider: 'Built-in' },
];

/** idanImageUrl with `survey`: the picture of that survey (the newest without), its date and camera. */
const datedImageUrl: Answer = (request) => {
  const params = new URL(request.url).searchParams;
  const orientation = params.get('orientation') as Orientation;
  const survey = SURVEYS.find((entry) => String(entry.id) === params.get('survey')) ?? SURVEYS[0];
  return json(200, {
    success: true,
    url: `/img/${survey.id}/${orientation}.jpg`,
    capturedOn: survey.capturedOn,
    surveyId: survey.id,
    camera: builtinCamera(orientation, 1024, 768),
  });
};

const imageryAnswers = {
  [`GET ${IMAGERY_API.imageUrl}`]: datedImageUrl,
  [`GET ${SURVEY_API.surveys}`]: () => json(200, { success: true, surveys: SURVEYS }),
};

async function searchAddress(text = '12 church street') {
  fireEvent.click(await screen.findByText('Search by Street Address'));
  const box = screen.getByRole('textbox', { name: 'Search by Street Address' });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
  return box;
}

describe('the SAVi request tool', () => {
  it('follows the wizard keyboard rules', async () => {
    const fetchMock = answers();
    renderRemote('/savi');
    expect(await screen.findByPlaceholderText('Please select search option...')).toBeTruthy();
    for (const title of [
      'Search by Street Address',
      'Search by Geo-co-ordinates',
      'Search by Farm Name',
      'Search by POI',
      'Search by Map Click',
    ]) {
      expect(screen.getByText(title)).toBeTruthy();
    }
    const box = await searchAddress();
    expect(await screen.findByText('1 result')).toBeTruthy();
    const [geocode] = callsTo(fetchMock, 'POST', AVS_API.geocode);
    expect(await geocode.clone().json()).toMatchObject({ address: '12 church street South Africa' });

    // Any other key clears the results.
    fireEvent.keyDown(box, { key: 'a' });
    expect(screen.queryByText('1 result')).toBeNull();

    // Escape resets the wizard to the options.
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(await screen.findByPlaceholderText('Please select search option...')).toBeTruthy();
  });

  it('alerts an unparseable GPS co-ordinate', async () => {
    answers();
    renderRemote('/savi');
    fireEvent.click(await screen.findByText('Search by Geo-co-ordinates'));
    const box = screen.getByRole('textbox', { name: 'Search by Geo-co-ordinates' });
    fireEvent.change(box, { target: { value: 'somewhere' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Unable to parse the GPS co-ordinate provided')).toBeTruthy();
  });

  it("offers Can't Locate when the geocoder is down and logs the request through both steps", async () => {
    const fetchMock = answers({
      [`POST ${AVS_API.geocode}`]: () => json(200, { success: false, result: [] }),
    });
    renderRemote('/savi');
    await searchAddress('nowhere road');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Geocoding service down please try again later',
    );
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(await screen.findByRole('button', { name: "Can't Locate" }));

    const policy = await screen.findByRole('textbox', { name: /^Policy Number/ });
    expect(policy.getAttribute('placeholder')).toBe('Please provide Policy Number');
    expect(screen.getByRole('textbox', { name: 'Broker Name (optional)' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Underwriting Batch/ })).toBeNull();

    // Next is blocked while errors exist: empty, then a regex failure.
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/Policy number must be two letters/)).toBeTruthy();
    fireEvent.change(policy, { target: { value: 'KM12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(/Policy number must be two letters/)).toBeTruthy();
    fireEvent.change(policy, { target: { value: 'KM123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));

    const review = await screen.findByTestId('request-review');
    expect(within(review).getByText("Can't Locate")).toBeTruthy();
    expect(within(review).getByText('KM123456')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Your request has been logged.')).toBeTruthy();
    expect(screen.getByTestId('grip-reference').textContent).toContain('GRP-2026-000123');
    const [put] = callsTo(fetchMock, 'PUT', REQUEST_API.create);
    expect(put.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    expect(await put.clone().json()).toMatchObject({
      requestType: 'SAVI',
      requestSubType: "Can't Locate",
      cantlocate: true,
      Searched_For: 'Nowhere Road',
      reference: { POLICY_NUMBER: 'KM123456' },
      Selected_Address: '',
    });

    fireEvent.click(screen.getByRole('button', { name: 'New Request' }));
    expect(await screen.findByPlaceholderText('Please select search option...')).toBeTruthy();
  });

  it('shows a failed submission and ends the wizard', async () => {
    answers({
      [`PUT ${REQUEST_API.create}`]: () =>
        json(400, { statusCode: 400, error: 'Bad Request', message: 'Policy Number is not valid.' }),
    });
    renderRemote('/savi');
    await searchAddress();
    fireEvent.click(await screen.findByText('12 Church Street, Stellenbosch, 7600'));
    const rve = await screen.findByRole('button', { name: 'Replacement Value Estimate' });
    await waitFor(() => expect(rve.getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(rve);
    fireEvent.change(await screen.findByRole('textbox', { name: /^Policy Number/ }), {
      target: { value: 'KM123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(/Policy Number is not valid\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New Request' })).toBeTruthy();
  });

  it("puts the request types' one tab stop on the first available type once the imagery is known", async () => {
    answers();
    renderRemote('/savi');
    await searchAddress();
    fireEvent.click(await screen.findByText('12 Church Street, Stellenbosch, 7600'));
    const rve = await screen.findByRole('button', { name: 'Replacement Value Estimate' });
    const size = screen.getByRole('button', { name: 'Building Size Calculation' });
    const cantLocate = screen.getByRole('button', { name: "Can't Locate" });
    // The buttons are drawn before the coverage answers (only Can't Locate available then); once the imagery
    // is known the one stop is the first type.
    await waitFor(() => expect(rve.getAttribute('aria-disabled')).toBe('false'));
    expect([rve, size, cantLocate].map((button) => button.tabIndex)).toEqual([0, -1, -1]);

    // Arrows move the focus, and the stop with it; a native button's Enter and Space are its click.
    act(() => rve.focus());
    fireEvent.keyDown(rve, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(size);
    await waitFor(() =>
      expect([rve, size, cantLocate].map((button) => button.tabIndex)).toEqual([-1, 0, -1]),
    );
    fireEvent.click(size);
    expect(size.getAttribute('aria-pressed')).toBe('true');
  });

  it('turns picture view off with the alert when there is no imagery, and RVE does nothing', async () => {
    answers({
      [`GET ${IMAGERY_API.coverage}`]: () => json(200, { success: true, covered: false, ortho: false }),
    });
    renderRemote('/savi');
    await searchAddress();
    fireEvent.click(await screen.findByText('12 Church Street, Stellenbosch, 7600'));
    const toggle = await screen.findByRole('switch', { name: 'Picture view' });
    fireEvent.click(toggle);
    expect((await screen.findByRole('alert')).textContent).toContain('Oblique Imagery could not be found.');
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Replacement Value Estimate' }));
    expect(screen.queryByText('General Info')).toBeNull();
  });

  it('shows the oblique viewer when covered', async () => {
    const fetchMock = answers();
    renderRemote('/savi');
    await searchAddress();
    fireEvent.click(await screen.findByText('12 Church Street, Stellenbosch, 7600'));
    fireEvent.click(await screen.findByRole('switch', { name: 'Picture view' }));
    const viewer = await screen.findByTestId('imagery-viewer');
    expect(within(viewer).getByRole('img', { name: 'North' }).getAttribute('src')).toBe('/img/n.jpg');
    expect(callsTo(fetchMock, 'GET', IMAGERY_API.imageUrl)).toHaveLength(5);
    fireEvent.click(within(viewer).getByRole('button', { name: 'Zoom in' }));
    expect(within(viewer).getByText('120%')).toBeTruthy();
  });

  it('suggests addresses while typing (from 3 characters, debounced) and selects a suggestion', async () => {
    const fetchMock = answers({
      [`POST ${AVS_API.search}`]: () => json(200, { success: true, result: [item] }),
    });
    renderRemote('/savi');
    fireEvent.click(await screen.findByText('Search by Street Address'));
    const box = screen.getByRole('textbox', { name: 'Search by Street Address' });
    fireEvent.change(box, { target: { value: '12' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(callsTo(fetchMock, 'POST', AVS_API.search)).toHaveLength(0);

    fireEvent.keyDown(box, { key: ' ' });
    fireEvent.change(box, { target: { value: '12 chu' } });
    const suggestions = await screen.findByRole('list', { name: 'Suggestions' });
    const [call] = callsTo(fetchMock, 'POST', AVS_API.search);
    expect(await call.clone().json()).toMatchObject({
      query: '12 chu',
      searchOptions: { address: true, erf: true },
    });
    fireEvent.click(within(suggestions).getByText(item.formatted_address));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', AVS_API.reverse)).toHaveLength(1));
    expect(await callsTo(fetchMock, 'POST', AVS_API.reverse)[0].clone().json()).toMatchObject({
      lat: item.location.lat,
      lng: item.location.lng,
      searchOption: 'address',
    });
  });

  it('searches farms with the farm flag, and postal codes with searchPostal and their area', async () => {
    const area = {
      id: '9',
      type: 'postal',
      formatted_address: '7600, Stellenbosch',
      location: item.location,
      confidence: 1,
    };
    const fetchMock = answers({
      [`POST ${AVS_API.search}`]: () => json(200, { success: true, result: [] }),
      [`POST ${AVS_API.searchPostal}`]: () => json(200, { success: true, result: [area] }),
      [`POST ${AVS_API.geojson}`]: () =>
        json(200, {
          success: true,
          result: { id: '9', type: 'postal', name: '7600', geometry: reverse.result.parcel!.geometry },
        }),
    });
    renderRemote('/savi');
    fireEvent.click(await screen.findByText('Search by Farm Name'));
    const farmBox = screen.getByRole('textbox', { name: 'Search by Farm Name' });
    fireEvent.change(farmBox, { target: { value: 'Welgelegen' } });
    fireEvent.keyDown(farmBox, { key: 'Enter' });
    expect(await screen.findByText('No results found.')).toBeTruthy();
    expect(screen.getByRole('button', { name: "Can't Locate" })).toBeTruthy();
    const farmCalls = callsTo(fetchMock, 'POST', AVS_API.search);
    expect(await farmCalls[farmCalls.length - 1].clone().json()).toMatchObject({
      query: 'Welgelegen South Africa',
      searchOptions: { farm: true },
    });

    fireEvent.keyDown(farmBox, { key: 'Escape' });
    fireEvent.click(await screen.findByText('Search by Postal Code'));
    const postalBox = screen.getByRole('textbox', { name: 'Search by Postal Code' });
    fireEvent.change(postalBox, { target: { value: '7600' } });
    fireEvent.keyDown(postalBox, { key: 'Enter' });
    fireEvent.click(await screen.findByText('7600, Stellenbosch'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', AVS_API.geojson)).toHaveLength(1));
    expect(await callsTo(fetchMock, 'POST', AVS_API.geojson)[0].clone().json()).toMatchObject({
      id: '9',
      type: 'postal',
    });
    expect(callsTo(fetchMock, 'POST', AVS_API.reverse)).toHaveLength(0);
  });

  it('prints the capture date on the picture and steps back to an older survey on the timeline', async () => {
    const fetchMock = answers(imageryAnswers);
    renderRemote('/savi');
    await searchAddress();
    fireEvent.click(await screen.findByText('12 Church Street, Stellenbosch, 7600'));
    fireEvent.click(await screen.findByRole('switch', { name: 'Picture view' }));
    const viewer = await screen.findByTestId('imagery-viewer');
    expect(within(viewer).getByTestId('capture-date').textContent).toBe('Captured 3 February 2026');
    const timeline = await screen.findByRole('radiogroup', { name: /Survey of 3 February 2026 \(newest\)/ });
    const older = within(timeline).getByRole('radio', { name: /^14 March 2019/ });
    fireEvent.keyDown(within(timeline).getByRole('radio', { checked: true }), { key: 'ArrowRight' });

    // The older survey is ortho only: its one picture, with its own date.
    await waitFor(() => expect(older.getAttribute('aria-checked')).toBe('true'));
    const orthoOnly = await screen.findByRole('img', { name: 'Ortho' });
    expect(orthoOnly.getAttribute('src')).toBe('/img/4/o.jpg');
    expect(screen.getByTestId('capture-date').textContent).toBe('Captured 14 March 2019');
    const asked = callsTo(fetchMock, 'GET', IMAGERY_API.imageUrl).map(
      (call) => new URL(call.url).searchParams,
    );
    expect(
      asked.filter((params) => params.get('survey') === '4').map((params) => params.get('orientation')),
    ).toEqual(['o']);
  });

  it('measures a height on an oblique by keyboard and sends it with the request', async () => {
    const fetchMock = answers(imageryAnswers);
    renderRemote('/savi');
    await searchAddress();
    fireEvent.click(await screen.findByText('12 Church Street, Stellenbosch, 7600'));
    fireEvent.click(await screen.findByRole('switch', { name: 'Picture view' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Measure a height' }));
    const picture = screen.getByRole('application', { name: /Oblique picture, North/ });

    // Base at the cross, then 16 steps of 4 px up (64 px): the camera's 45° at 1024 px for 110 m.
    fireEvent.keyDown(picture, { key: 'Enter' });
    for (let i = 0; i < 16; i += 1) fireEvent.keyDown(picture, { key: 'ArrowUp' });
    fireEvent.keyDown(picture, { key: 'Enter' });
    const camera = builtinCamera('n', 1024, 768);
    const metres = Math.round((64 / pictureOffsetOfHeight(camera, 1)) * 100) / 100;
    expect(screen.getByTestId('height-status').textContent).toBe(`Height ${metres.toFixed(2)} m.`);
    const list = screen.getByTestId('measurement-list');
    expect(within(list).getByText(`Height: ${metres.toFixed(2)} m`)).toBeTruthy();
    expect(within(list).getByText('Survey 3 February 2026 · Not saved yet')).toBeTruthy();

    const rve = await screen.findByRole('button', { name: 'Replacement Value Estimate' });
    await waitFor(() => expect(rve.getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(rve);
    fireEvent.change(await screen.findByRole('textbox', { name: /^Policy Number/ }), {
      target: { value: 'KM123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const review = await screen.findByTestId('request-review');
    expect(within(review).getByText('1 measurement: Height')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your request has been logged.')).toBeTruthy();
    const [put] = callsTo(fetchMock, 'PUT', REQUEST_API.create);
    const body = await put.clone().json();
    expect(body.measurements).toEqual([
      {
        kind: 'height',
        surveyId: 9,
        geometry: { type: 'Point', coordinates: [item.location.lng, item.location.lat] },
        oblique: { camera, base: [512, 384], top: [512, 320] },
        label: 'Height',
      },
    ]);
  });
});
