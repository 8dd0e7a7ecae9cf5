import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { IMAGERY_API, IRIS_API, MEASUREMENT_API, SURVEY_API, type Measurement } from '@portal/contracts';
import {
  answerFetch,
  callsTo,
  irisUser,
  json,
  operatorUser,
  REPORT_ID,
  REQUEST_ID,
} from '../../../testing/fetchAnswers';
import { imagery, ordered, pickGpsPoint, reverse, session, SURVEYS } from '../../../testing/irisFlow';
import { renderRemote } from '../../../testing/renderRemote';
import { TEXT } from '../../../texts';

// The report's imagery step (issue 21) through the /iris screen: the timeline steps back to an older
// survey (its views, their dates, the PDF's view posted with that survey), compare mode lists the changes,
// and measuring on the ortho is for viewing (a client) or saved to the report's request (staff).

jest.mock('../loadImage', () => ({
  ...jest.requireActual('../loadImage'),
  loadImage: (url: string) =>
    url.includes('broken') ? Promise.reject(new Error('broken')) : Promise.resolve(),
}));

const imageryStep = {
  ...imagery,
  [`POST ${IRIS_API.highres(REPORT_ID, 0)}`]: () => json(200, { success: true }),
  [`POST ${IRIS_API.aerial(REPORT_ID, 'o')}`]: () => json(200, { success: true }),
  [`POST ${IRIS_API.aerial(REPORT_ID, 'n')}`]: () => json(200, { success: true }),
  [`GET ${IRIS_API.canGenerate(REPORT_ID)}`]: () =>
    json(200, { success: true, progress: 50, canGeneratePdf: false, timeout: false }),
  [`GET ${IRIS_API.clean(REPORT_ID)}`]: () => json(200, { success: true }),
  [`GET ${SURVEY_API.buildings}`]: () => json(200, { success: true, survey: SURVEYS[0], buildings: [] }),
};

const saved: Measurement = {
  id: 'm1',
  requestId: REQUEST_ID,
  kind: 'area',
  label: 'Main house',
  surveyId: 9,
  capturedOn: '2025-02-01',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [18.86, -33.93],
        [18.8601, -33.93],
        [18.8601, -33.9301],
      ],
    ],
  },
  oblique: null,
  value: 148.2,
  unit: 'm²',
  perimeterM: 52.1,
  createdBy: { id: 'u2', email: 'operator@portal.test' },
  createdAt: '2026-11-25T08:00:00.000Z',
};

async function openReport() {
  fireEvent.click(await pickGpsPoint());
  const step = await screen.findByTestId('iris-imagery');
  await within(step).findByTestId('aerial-saved');
  return step;
}

/** Two points placed at the map's centre cross, the map moved between them, finished. */
function measureDistance(map: HTMLElement) {
  const toolbar = within(map).getByTestId('measure-toolbar');
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Distance' }));
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Add point at centre' }));
  fireEvent.keyDown(map.querySelector('[role="application"]')!, { key: 'ArrowRight', shiftKey: true });
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Add point at centre' }));
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Finish' }));
}

describe('/iris imagery step (issue 21)', () => {
  it('steps back to an older survey: its views with their dates, the chosen one posted with its survey', async () => {
    const fetch = answerFetch({ ...session(), ...reverse, ...ordered, ...imageryStep });
    renderRemote('/iris');
    const step = await openReport();
    const timeline = within(step).getByTestId('survey-timeline');
    expect(within(timeline).getByRole('radio', { checked: true }).textContent).toBe('2025');
    fireEvent.click(within(timeline).getByRole('radio', { name: /^30 June 2019/ }));
    await waitFor(() =>
      expect(within(step).getAllByTestId('capture-date')[0].textContent).toBe('Captured 30 June 2019'),
    );
    const asked = callsTo(fetch, 'GET', IMAGERY_API.imageUrl).map((r) => new URL(r.url).searchParams);
    expect(
      asked.filter((query) => query.get('survey') === '7').map((query) => query.get('orientation')),
    ).toEqual(['o', 'n', 'e', 's', 'w']);
    // The 2019 ortho for the PDF: posted with its survey; the status was posted once, for the first survey.
    fireEvent.click(within(step).getByRole('radio', { name: 'Top-down (ortho), Captured 30 June 2019' }));
    await waitFor(() => expect(callsTo(fetch, 'POST', IRIS_API.aerial(REPORT_ID, 'o'))).toHaveLength(2));
    const [, older] = callsTo(fetch, 'POST', IRIS_API.aerial(REPORT_ID, 'o'));
    expect(new URL(older.url).searchParams.get('survey')).toBe('7');
    await waitFor(() =>
      expect(within(step).getByTestId('aerial-saved').textContent).toBe(
        'This view goes into the PDF: Top-down (ortho), Captured 30 June 2019.',
      ),
    );
    expect(callsTo(fetch, 'POST', IRIS_API.highres(REPORT_ID, 0))).toHaveLength(1);
  });

  it('compares two surveys and lists what changed on the parcel', async () => {
    const fetch = answerFetch({
      ...session(),
      ...reverse,
      ...ordered,
      ...imageryStep,
      [`GET ${SURVEY_API.changes}`]: () =>
        json(200, {
          success: true,
          from: SURVEYS[1],
          to: SURVEYS[0],
          parcelId: 'p1',
          added: [
            {
              buildingId: 'b7',
              kind: 'pool',
              heightM: 0,
              footprintFrom: null,
              footprintTo: saved.geometry,
              areaFromM2: null,
              areaToM2: 32,
            },
          ],
          removed: [],
          changed: [],
        }),
    });
    renderRemote('/iris');
    const step = await openReport();
    fireEvent.click(within(step).getByRole('button', { name: TEXT.modeCompare }));
    const compare = await within(step).findByTestId('imagery-compare');
    await waitFor(() => expect(callsTo(fetch, 'GET', SURVEY_API.changes)).toHaveLength(1));
    const query = new URL(callsTo(fetch, 'GET', SURVEY_API.changes)[0].url).searchParams;
    expect([query.get('from'), query.get('to')]).toEqual(['7', '9']);
    expect(await within(compare).findByText(/Added/)).toBeTruthy();
    expect(compare.textContent).toContain('32.0 m²');
  });

  it("a client's measurements are for viewing: listed beside the request's saved ones, never posted", async () => {
    const fetch = answerFetch({
      ...session(['iris'], [], irisUser),
      ...reverse,
      ...ordered,
      ...imageryStep,
      [`GET ${MEASUREMENT_API.list(REQUEST_ID)}`]: () => json(200, { success: true, measurements: [saved] }),
    });
    renderRemote('/iris');
    const step = await openReport();
    fireEvent.click(within(step).getByRole('button', { name: TEXT.modeMeasure }));
    const map = await within(step).findByTestId('ortho-survey-map');
    expect(within(step).getByTestId('measure-view-only').textContent).toBe(TEXT.measureViewOnly);
    const list = within(step).getByTestId('measurement-list');
    expect(await within(list).findByText('Main house: 148.2 m² · perimeter 52.10 m')).toBeTruthy();
    measureDistance(map);
    await waitFor(() =>
      expect(list.querySelector('[data-draft-key]')?.textContent).toMatch(/^Distance: \d+\.\d{2} m/),
    );
    expect(within(step).queryByRole('button', { name: TEXT.measureSave })).toBeNull();
    expect(within(list).queryByRole('button', { name: 'Delete Main house' })).toBeNull();
    expect(callsTo(fetch, 'POST', MEASUREMENT_API.list(REQUEST_ID))).toHaveLength(0);
  });

  it('the operations team saves a measurement to the report’s request, with the survey it was made on', async () => {
    let measurements: Measurement[] = [];
    const fetch = answerFetch({
      ...session(['iris'], [], operatorUser),
      ...reverse,
      ...ordered,
      ...imageryStep,
      [`GET ${MEASUREMENT_API.list(REQUEST_ID)}`]: () => json(200, { success: true, measurements }),
      [`POST ${MEASUREMENT_API.list(REQUEST_ID)}`]: async (request) => {
        const body = await request.clone().json();
        const measurement: Measurement = {
          ...saved,
          id: 'm2',
          kind: body.kind,
          label: body.label,
          value: 63.2,
          unit: 'm',
          perimeterM: null,
        };
        measurements = [measurement];
        return json(201, { success: true, measurement });
      },
    });
    renderRemote('/iris');
    const step = await openReport();
    fireEvent.click(within(step).getByRole('button', { name: TEXT.modeMeasure }));
    const map = await within(step).findByTestId('ortho-survey-map');
    expect(within(step).queryByTestId('measure-view-only')).toBeNull();
    measureDistance(map);
    fireEvent.click(await within(step).findByRole('button', { name: TEXT.measureSave }));
    await waitFor(() => expect(callsTo(fetch, 'POST', MEASUREMENT_API.list(REQUEST_ID))).toHaveLength(1));
    const body = await callsTo(fetch, 'POST', MEASUREMENT_API.list(REQUEST_ID))[0].json();
    expect(body).toMatchObject({ kind: 'distance', surveyId: 9, geometry: { type: 'LineString' } });
    expect(body.geometry.coordinates).toHaveLength(2);
    const list = within(step).getByTestId('measurement-list');
    expect(await within(list).findByText('Distance: 63.20 m')).toBeTruthy();
    expect(list.querySelector('[data-draft-key]')).toBeNull();
  });
});
