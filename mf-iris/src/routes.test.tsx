import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API, IMAGERY_API, IRIS_API, REQUEST_API } from '@portal/contracts';
import {
  answerFetch,
  callsTo,
  errorAnswer,
  irisReport,
  irisUser,
  json,
  KMI_REFERENCES,
  meAnswer,
  REPORT_ID,
  REQUEST_ID,
  servicesAnswer,
} from './testing/fetchAnswers';
import { created, imagery, pickGpsPoint, reverse, session } from './testing/irisFlow';
import { renderRemote } from './testing/renderRemote';
import { IRIS_ERRORS, TEXT } from './texts';

// jsdom loads no pictures: a URL that came is a picture that loaded, unless it names 'broken'.
jest.mock('./features/imagery/loadImage', () => ({
  ...jest.requireActual('./features/imagery/loadImage'),
  loadImage: (url: string) =>
    url.includes('broken') ? Promise.reject(new Error('broken')) : Promise.resolve(),
}));

describe('/iris access (spec 03 §2)', () => {
  it('sends a user without the iris service home', async () => {
    answerFetch({ ...session(['savi']) });
    const { router } = renderRemote('/iris');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends an anonymous visitor home', async () => {
    answerFetch({});
    const { router } = renderRemote('/iris');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('/iris ordering (spec 03 §4 step 1, §8)', () => {
  it('shows the registration text when the request is not created', async () => {
    const fetch = answerFetch({
      ...session(),
      ...reverse,
      [`PUT ${REQUEST_API.create}`]: () => errorAnswer(500, 'boom'),
    });
    renderRemote('/iris');
    fireEvent.click(await pickGpsPoint());
    expect((await screen.findByRole('alert')).textContent).toBe(IRIS_ERRORS.registration);
    expect(callsTo(fetch, 'PUT', IRIS_API.create)).toHaveLength(0);
  });

  it('shows the processing text with the support address when the report fails', async () => {
    const fetch = answerFetch({
      ...session(),
      ...reverse,
      [`GET ${IRIS_API.settings}`]: () => json(200, { supportEmail: 'help@iris.example' }),
      [`PUT ${REQUEST_API.create}`]: created,
      [`PUT ${IRIS_API.create}`]: () => errorAnswer(500, 'boom'),
    });
    renderRemote('/iris');
    fireEvent.click(await pickGpsPoint());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An error has occurred while processing your request. Sorry for the inconvenience, please try again later. If the issue persists please contact our support team at help@iris.example.',
    );
    const [put] = callsTo(fetch, 'PUT', REQUEST_API.create);
    expect(put.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await put.json()).toMatchObject({
      requestType: 'IRIS',
      requestSubType: null,
      coordinates: { lat: -33.932112, lng: 18.860245 },
    });
    expect(await callsTo(fetch, 'PUT', IRIS_API.create)[0].json()).toEqual({ requestId: REQUEST_ID });
  });
});

describe("/iris order step: the group's references (spec 01 §3, §5)", () => {
  const POLICY_MESSAGE = 'Policy number must be two letters followed by six digits, e.g. KM123456';

  it('keeps ordering disabled until the required reference is valid, showing its message', async () => {
    const fetch = answerFetch({
      ...session(['iris'], KMI_REFERENCES),
      ...reverse,
      [`PUT ${REQUEST_API.create}`]: created,
      [`PUT ${IRIS_API.create}`]: () => errorAnswer(500, 'boom'),
    });
    renderRemote('/iris');
    const button = await pickGpsPoint();
    const policy = await screen.findByRole('textbox', { name: /^Policy Number/ });
    expect(policy.getAttribute('placeholder')).toBe('Please provide Policy Number');
    expect(screen.getByRole('textbox', { name: 'Broker Name (optional)' })).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('iris-references-needed').textContent).toBe(TEXT.referencesNeeded);
    // Untouched: no message yet; left empty or filled wrongly: the reference's own message.
    expect(screen.queryByText(POLICY_MESSAGE)).toBeNull();
    fireEvent.blur(policy);
    expect(screen.getByText(POLICY_MESSAGE)).toBeTruthy();
    fireEvent.change(policy, { target: { value: 'KM12' } });
    expect(screen.getByText(POLICY_MESSAGE)).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);
    fireEvent.click(button);
    expect(callsTo(fetch, 'PUT', REQUEST_API.create)).toHaveLength(0);

    fireEvent.change(policy, { target: { value: ' KM123456 ' } });
    expect(screen.queryByText(POLICY_MESSAGE)).toBeNull();
    expect(screen.queryByTestId('iris-references-needed')).toBeNull();
    expect(button.hasAttribute('disabled')).toBe(false);
    fireEvent.change(screen.getByRole('textbox', { name: 'Broker Name (optional)' }), {
      target: { value: '  ' },
    });
    fireEvent.click(button);
    await screen.findByRole('alert');
    const [put] = callsTo(fetch, 'PUT', REQUEST_API.create);
    expect(await put.json()).toMatchObject({
      requestType: 'IRIS',
      reference: { POLICY_NUMBER: 'KM123456' },
      referenceString: '{"POLICY_NUMBER":"KM123456"}',
    });
  });

  it('orders at once for a group without references, sending an empty reference map', async () => {
    const fetch = answerFetch({
      ...session(),
      ...reverse,
      [`PUT ${REQUEST_API.create}`]: () => errorAnswer(500, 'boom'),
    });
    renderRemote('/iris');
    const button = await pickGpsPoint();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('region', { name: TEXT.references })).toBeNull();
    fireEvent.click(button);
    await screen.findByRole('alert');
    expect(await callsTo(fetch, 'PUT', REQUEST_API.create)[0].json()).toMatchObject({ reference: {} });
  });

  it('does not order when the references cannot be loaded', async () => {
    const fetch = answerFetch({
      ...meAnswer(irisUser),
      ...servicesAnswer(['iris']),
      ...reverse,
      [`GET ${API.myReferences}`]: () => errorAnswer(500, 'boom'),
    });
    renderRemote('/iris');
    const button = await pickGpsPoint();
    expect(await screen.findByText(TEXT.referencesFailed)).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(callsTo(fetch, 'PUT', REQUEST_API.create)).toHaveLength(0);
  });
});

describe('/iris report (spec 03 §2, §3, §4)', () => {
  it('orders the report, shows it, posts the imagery status and view, runs the PDF flow, and cleans up on close', async () => {
    let readyCalls = 0;
    const fetch = answerFetch({
      ...session(),
      ...reverse,
      ...imagery,
      [`PUT ${REQUEST_API.create}`]: created,
      [`PUT ${IRIS_API.create}`]: () =>
        json(201, {
          success: true,
          request: { _id: REQUEST_ID, gripReference: 'GRP-2611-000042' },
          report: irisReport(),
        }),
      [`POST ${IRIS_API.highres(REPORT_ID, 0)}`]: () => json(200, { success: true }),
      [`POST ${IRIS_API.aerial(REPORT_ID, 'o')}`]: () => json(200, { success: true }),
      [`POST ${IRIS_API.aerial(REPORT_ID, 'n')}`]: () => json(200, { success: true }),
      [`GET ${IRIS_API.canGenerate(REPORT_ID)}`]: () =>
        json(200, { success: true, progress: 100, canGeneratePdf: true, timeout: false }),
      [`GET ${IRIS_API.generate(REPORT_ID, REQUEST_ID)}`]: () =>
        json(200, { success: true, progress: 0, state: 'queued', version: 1 }),
      [`GET ${IRIS_API.ready(REPORT_ID)}`]: () =>
        json(
          200,
          ++readyCalls < 2
            ? { success: true, pdfUrl: null, pdfReady: false, progress: 50, state: 'running', error: null }
            : { success: true, pdfUrl: 'x', pdfReady: true, progress: 100, state: 'done', error: null },
        ),
      [`GET ${IRIS_API.clean(REPORT_ID)}`]: () => json(200, { success: true }),
    });
    const { store } = renderRemote('/iris');
    fireEvent.click(await pickGpsPoint());

    // The header: GRiP reference, address, coordinates to 6 decimals, computed time in SAST.
    expect((await screen.findByTestId('grip-reference')).textContent).toBe('GRP-2611-000042');
    expect(screen.getByTestId('report-address').textContent).toBe('12 Church Street, Stellenbosch');
    expect(screen.getByTestId('report-coordinates').textContent).toBe('-33.932112, 18.860245');
    expect(screen.getByTestId('report-computed').textContent).toBe('2026-11-25 10:00 SAST');

    // The sections, each with its source; the charts are SVG.
    const elevation = screen.getByRole('region', { name: TEXT.elevation });
    expect(elevation.querySelectorAll('svg')).toHaveLength(2);
    expect(within(elevation).getByTestId('source').textContent).toBe('Source: SRTM 1 arc-second (2000)');
    const crime = screen.getByRole('region', { name: TEXT.crime });
    expect(crime.querySelectorAll('svg.crime-chart')).toHaveLength(3);
    expect(within(crime).getByTestId('precinct').textContent).toContain('Stellenbosch');
    // The latest year of each series in figures: 2022/23's 250 residential burglaries (no rate known).
    const residential = within(crime).getByTestId('crime-latest-burglaryResidential');
    expect(within(residential).getByTestId('crime-count').textContent).toBe('250');
    expect(residential.textContent).toContain('2022/23');
    expect(within(crime).getByTestId('crime-latest-burglaryBusiness').textContent).toContain('120.5');
    const water = screen.getByRole('region', { name: TEXT.water });
    const rivers = within(water).getByRole('table', { name: TEXT.rivers });
    expect(within(rivers).getByText('Eerste River')).toBeTruthy();
    expect(within(rivers).getAllByText('dangerous')).toHaveLength(2);
    expect(within(water).getByText(TEXT.noneInRange, { selector: 'p' })).toBeTruthy();
    expect(screen.getByTestId('fire-station').textContent).toBe(
      'Closest fire station: Stellenbosch Fire Station, 2.3 km',
    );
    expect(screen.getByTestId('soil-verdict').textContent).toBe('Dangerous');

    // Imagery: 2 available (o, n), 1 no coverage (e), 2 offline (s, w): a tie of 0 and 2 → 0; the ortho's bytes.
    await waitFor(() => expect(callsTo(fetch, 'POST', IRIS_API.aerial(REPORT_ID, 'o'))).toHaveLength(1));
    const [highres] = callsTo(fetch, 'POST', IRIS_API.highres(REPORT_ID, 0));
    expect(await highres.json()).toEqual({ counts: { 0: 2, 1: 1, 2: 2 } });
    const [aerial] = callsTo(fetch, 'POST', IRIS_API.aerial(REPORT_ID, 'o'));
    expect(aerial.headers.get('content-type')).toBe('image/jpeg');
    expect(await aerial.text()).toBe('jpeg-o');
    // Issue 21: the picture's survey goes with it, and its capture date is printed on every picture.
    expect(new URL(aerial.url).searchParams.get('survey')).toBe('9');
    expect((await screen.findByTestId('aerial-saved')).textContent).toBe(
      'This view goes into the PDF: Top-down (ortho), Captured 1 February 2025.',
    );
    const imageryStep = screen.getByTestId('iris-imagery');
    expect(
      within(imageryStep)
        .getAllByTestId('capture-date')
        .map((date) => date.textContent),
    ).toEqual(['Captured 1 February 2025', 'Captured 1 February 2025']);
    // The user picks the view from the north instead.
    fireEvent.click(screen.getByRole('radio', { name: 'From the north, Captured 1 February 2025' }));
    await waitFor(() => expect(callsTo(fetch, 'POST', IRIS_API.aerial(REPORT_ID, 'n'))).toHaveLength(1));
    expect((screen.getByRole('radio', { name: /^From the east/ }) as HTMLButtonElement).disabled).toBe(true);

    // The PDF: canGenerate, generate, ready (progress) → the download link.
    const link = await screen.findByRole('link', { name: TEXT.pdfDownload }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe(IRIS_API.download(REPORT_ID));
    expect(callsTo(fetch, 'GET', IRIS_API.generate(REPORT_ID, REQUEST_ID))).toHaveLength(1);

    // Closing: the server's images are deleted and the report (its crime data with it) leaves the store.
    fireEvent.click(screen.getByRole('button', { name: TEXT.close }));
    await waitFor(() => expect(callsTo(fetch, 'GET', IRIS_API.clean(REPORT_ID))).toHaveLength(1));
    expect(store.getState().irisReport?.report).toBeNull();
    expect(await screen.findByRole('heading', { name: TEXT.title })).toBeTruthy();
  });

  it('cancels the PDF, and regenerates it', async () => {
    const fetch = answerFetch({
      ...session(),
      ...reverse,
      [`GET ${IMAGERY_API.imageUrl}`]: () => json(200, { success: false, url: null }),
      [`POST ${IRIS_API.highres(REPORT_ID, 1)}`]: () => json(200, { success: true }),
      [`PUT ${REQUEST_API.create}`]: created,
      [`PUT ${IRIS_API.create}`]: () =>
        json(201, { success: true, request: { _id: REQUEST_ID, gripReference: 'G' }, report: irisReport() }),
      [`GET ${IRIS_API.canGenerate(REPORT_ID)}`]: () =>
        json(200, { success: true, progress: 50, canGeneratePdf: false, timeout: false }),
      [`GET ${IRIS_API.cancel(REPORT_ID)}`]: () =>
        json(200, {
          success: true,
          pdfUrl: null,
          pdfReady: false,
          progress: 0,
          state: 'cancelled',
          error: null,
        }),
      [`GET ${IRIS_API.regenerate(REPORT_ID)}`]: () =>
        json(200, { success: true, progress: 0, state: 'queued', version: 2 }),
      [`GET ${IRIS_API.ready(REPORT_ID)}`]: () =>
        json(200, { success: true, pdfUrl: 'x', pdfReady: true, progress: 100, state: 'done', error: null }),
      [`GET ${IRIS_API.clean(REPORT_ID)}`]: () => json(200, { success: true }),
    });
    const { router } = renderRemote('/iris');
    fireEvent.click(await pickGpsPoint());
    expect(await screen.findByText(TEXT.aerialNone)).toBeTruthy();
    expect(await callsTo(fetch, 'POST', IRIS_API.highres(REPORT_ID, 1))[0].json()).toEqual({
      counts: { 1: 5 },
    });
    fireEvent.click(await screen.findByRole('button', { name: TEXT.cancel }));
    expect(await screen.findByText(TEXT.pdfCancelled)).toBeTruthy();
    expect(callsTo(fetch, 'GET', IRIS_API.cancel(REPORT_ID))).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: TEXT.regenerate }));
    expect(await screen.findByRole('link', { name: TEXT.pdfDownload }, { timeout: 10_000 })).toBeTruthy();
    // Leaving the page with the report open cleans up too.
    await act(async () => router.navigate('/elsewhere'));
    await waitFor(() => expect(callsTo(fetch, 'GET', IRIS_API.clean(REPORT_ID))).toHaveLength(1));
  });
});
