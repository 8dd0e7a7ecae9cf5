import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AVS_EDITOR_API, SURVEY_API, type AddressEditorData, type Survey } from '@portal/contracts';
import {
  POINT,
  address,
  answerFetch,
  callsTo,
  displayData,
  errorAnswer,
  json,
  meAnswer,
  operatorUser,
  plainUser,
  pointData,
  settings,
} from './testing/fetchAnswers';
import { renderRemote } from './testing/renderRemote';
import { TEXT } from './texts';

const AT_POINT = `/avs/editor/?lat=${POINT.lat}&lng=${POINT.lng}`;

/** The URLs of the tile sources the maps made (the satellite layer's shows its survey). */
const mockTileUrls: string[] = [];
jest.mock('ol/source/XYZ', () => {
  const Actual = jest.requireActual('ol/source/XYZ').default;
  return {
    __esModule: true,
    default: class extends Actual {
      constructor(options: { url?: string }) {
        super(options);
        mockTileUrls.push(options.url ?? '');
      }
    },
  };
});

/** The editor's reads for one point (and the settings). */
const editorAnswers = (data: AddressEditorData = pointData(), settingsOverrides = {}) => ({
  [`GET ${AVS_EDITOR_API.settings}`]: () => json(200, settings(settingsOverrides)),
  [`GET ${AVS_EDITOR_API.pointData(data.lat, data.lng)}`]: () => json(200, { success: true, data }),
  [`GET ${AVS_EDITOR_API.displayData(data.lat, data.lng)}`]: () => json(200, displayData(data)),
});

const field = (label: string) => document.querySelector(`[data-field="${label}"]`)?.textContent;
/** The popups sit in the map's overlay, which jsdom never shows: their buttons are found hidden. */
const popupButton = (name: string | RegExp) => screen.getByRole('button', { name, hidden: true });
const body = async (request: Request) => JSON.parse(await request.clone().text());

describe('/avs/editor (spec 03 §2 "Address editor")', () => {
  it('sends anyone but an operator home', async () => {
    answerFetch({ ...meAnswer(plainUser), ...editorAnswers() });
    const { router } = renderRemote('/avs/editor');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("shows the point's data, 'Loading ... ' while it loads, codes padded to 4 digits", async () => {
    let answer: (value: Response) => void = () => undefined;
    const later = new Promise<Response>((resolve) => (answer = resolve));
    answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`GET ${AVS_EDITOR_API.pointData(POINT.lat, POINT.lng)}`]: () => later,
    });
    renderRemote(AT_POINT);
    expect(await screen.findByRole('heading', { name: TEXT.title }, { timeout: 30_000 })).toBeTruthy();
    await waitFor(() => expect(field('Suburb')).toBe(TEXT.loading));
    await act(async () => answer(json(200, { success: true, data: pointData() })));
    await waitFor(() => expect(field('Suburb')).toBe('Die Boord'));
    expect(field('Parcel')).toBe('Erf 1234');
    expect(field('Street code')).toBe('0600');
    expect(field('Box code')).toBe('0012');
    expect(field('Road')).toBe('Church Street');
    expect(field(TEXT.editedBy)).toBe('qc@portal.test');
    const list = screen.getByRole('list', { name: TEXT.addresses });
    expect(within(list).getByText('12 Church Street, Die Boord, Stellenbosch, 7600')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: TEXT.pois })).getByText('Die Boord Primary')).toBeTruthy();
  });

  it("shows 'Loading error' in the fields when the point data fails", async () => {
    answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`GET ${AVS_EDITOR_API.pointData(POINT.lat, POINT.lng)}`]: () =>
        errorAnswer(500, 'Internal Server Error'),
    });
    renderRemote(AT_POINT);
    await waitFor(() => expect(field('Suburb')).toBe(TEXT.loadingError), { timeout: 30_000 });
    expect(field('Street code')).toBe(TEXT.loadingError);
    expect(screen.getByText(/^Loading error: /)).toBeTruthy();
  });

  it('takes the next multi-address parcel and goes to it at zoom 18, showing the hold', async () => {
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`GET ${AVS_EDITOR_API.multiParcel}`]: () =>
        json(200, {
          success: true,
          parcel: { parcelId: '9001', version: 4, ...POINT, heldUntil: '2026-11-26T10:15:00.000Z' },
          remaining: 41,
        }),
    });
    const { router } = renderRemote('/avs/editor');
    fireEvent.click(await screen.findByRole('button', { name: TEXT.nextMulti }, { timeout: 30_000 }));
    const work = await screen.findByTestId('work-item');
    await waitFor(() => expect(work.textContent).toContain('Multi-address parcel Erf 1234'));
    expect(work.textContent).toContain('Held for you until 12:15 · 41 more waiting');
    expect(callsTo(fetch, 'GET', AVS_EDITOR_API.displayData(POINT.lat, POINT.lng))).toHaveLength(1);
    expect(router.state.location.search).toBe(`?lat=${POINT.lat}&lng=${POINT.lng}`);
  });

  it('says so when a queue is empty', async () => {
    answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`GET ${AVS_EDITOR_API.noAddressParcel}`]: () =>
        json(200, { success: true, parcel: null, remaining: 0 }),
    });
    renderRemote('/avs/editor');
    fireEvent.click(await screen.findByRole('button', { name: TEXT.nextEmpty }, { timeout: 30_000 }));
    expect((await screen.findByTestId('editor-notice')).textContent).toContain(TEXT.queueEmpty);
  });

  it('accepts an address with a quality; Accept is disabled once the quality is 25 or more', async () => {
    const data = pointData({
      addresses: [
        address(),
        address({
          addressId: '502',
          houseNumber: '14',
          quality: 40,
          qualityCode: 'DDS',
          formattedAddress: '14 Church Street, Die Boord, Stellenbosch, 7600',
        }),
      ],
    });
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(data),
      [`POST ${AVS_EDITOR_API.accept('501')}`]: () =>
        json(200, {
          success: true,
          address: address({ quality: 50, qualityCode: 'VR', review: 'accepted', version: 4 }),
        }),
    });
    renderRemote(AT_POINT);
    const list = await screen.findByRole('list', { name: TEXT.addresses }, { timeout: 30_000 });
    fireEvent.click(within(list).getByText(/^14 Church Street/));
    expect((popupButton(TEXT.accept) as HTMLButtonElement).disabled).toBe(true);
    expect((popupButton(TEXT.reject) as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(within(list).getByText(/^12 Church Street/));
    await waitFor(() => expect((popupButton(TEXT.accept) as HTMLButtonElement).disabled).toBe(false));
    // The quality chooser (MUI select): open it and pick VR.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: TEXT.quality, hidden: true }));
    fireEvent.click(await screen.findByRole('option', { name: 'VR (50)' }));
    fireEvent.click(popupButton(TEXT.accept));
    await waitFor(() => expect(callsTo(fetch, 'POST', AVS_EDITOR_API.accept('501'))).toHaveLength(1));
    expect(await body(callsTo(fetch, 'POST', AVS_EDITOR_API.accept('501'))[0])).toEqual({
      version: 3,
      quality: 'VR',
    });
    expect(await screen.findByText(TEXT.saved)).toBeTruthy();
  });

  it('shows a stale edit’s message and reads the point again', async () => {
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`POST ${AVS_EDITOR_API.official('501')}`]: () =>
        json(409, {
          statusCode: 409,
          error: 'Conflict',
          message:
            'This address was changed by someone else meanwhile (it is at version 4); the latest is shown.',
        }),
    });
    renderRemote(AT_POINT);
    const list = await screen.findByRole('list', { name: TEXT.addresses }, { timeout: 30_000 });
    fireEvent.click(within(list).getByText(/^12 Church Street/));
    fireEvent.click(popupButton(TEXT.markOfa));
    expect(await screen.findByText(/changed by someone else meanwhile/)).toBeTruthy();
    await waitFor(() =>
      expect(callsTo(fetch, 'GET', AVS_EDITOR_API.pointData(POINT.lat, POINT.lng)).length).toBeGreaterThan(1),
    );
  });

  it.each([
    [1, 1, false, false],
    [90, 1, true, false],
    [1, -10, true, false],
    [100, 1, false, true],
    [1, -90, false, true],
  ])(
    'marker popup: type %d, quality %d → Investigate disabled %s, Un-Addressable disabled %s',
    async (parcelTypeId, dataQualityId, investigateOff, unaddressableOff) => {
      answerFetch({
        ...meAnswer(operatorUser),
        ...editorAnswers(pointData({ parcelTypeId, dataQualityId })),
      });
      renderRemote(AT_POINT);
      await waitFor(() => expect(field('Parcel type')).toBe(String(parcelTypeId)), { timeout: 30_000 });
      await waitFor(() => expect(popupButton(TEXT.investigate)).toBeTruthy());
      expect((popupButton(TEXT.investigate) as HTMLButtonElement).disabled).toBe(investigateOff);
      expect((popupButton(TEXT.unAddressable) as HTMLButtonElement).disabled).toBe(unaddressableOff);
      expect(screen.queryByRole('button', { name: TEXT.validateParcel, hidden: true })).toBeNull();
    },
  );

  it("offers 'Validate Parcel' and its queue to validators only", async () => {
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(pointData({ parcelTypeId: 90, dataQualityId: -10 }), { canValidate: true }),
      [`POST ${AVS_EDITOR_API.validateParcel('9001')}`]: () =>
        json(200, { success: true, parcel: { parcelId: '9001' } }),
    });
    renderRemote(AT_POINT);
    expect(await screen.findByRole('button', { name: TEXT.nextValidate }, { timeout: 30_000 })).toBeTruthy();
    await waitFor(() => expect(popupButton(TEXT.validateParcel)).toBeTruthy());
    fireEvent.click(popupButton(TEXT.validateParcel));
    await waitFor(() =>
      expect(callsTo(fetch, 'POST', AVS_EDITOR_API.validateParcel('9001'))).toHaveLength(1),
    );
    expect(await body(callsTo(fetch, 'POST', AVS_EDITOR_API.validateParcel('9001'))[0])).toEqual({
      version: 4,
      parcelTypeId: 1,
    });
  });

  it('adds a street number on the closest road at the marker', async () => {
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(pointData({ addresses: [] })),
      [`POST ${AVS_EDITOR_API.addAddress}`]: () =>
        json(200, {
          success: true,
          address: address({ houseNumber: '16A', formattedAddress: '16A Church Street' }),
        }),
    });
    renderRemote(AT_POINT);
    await waitFor(() => expect(popupButton(TEXT.addAddress)).toBeTruthy(), { timeout: 30_000 });
    fireEvent.click(popupButton(TEXT.addAddress));
    const number = screen.getByRole('textbox', { name: TEXT.streetNumber, hidden: true });
    fireEvent.change(number, { target: { value: '16-18' } });
    fireEvent.click(popupButton(TEXT.save));
    expect(screen.getByText(/^The street number must be 1 to 5 digits/)).toBeTruthy();
    fireEvent.change(number, { target: { value: '16a' } });
    fireEvent.click(popupButton(TEXT.save));
    await waitFor(() => expect(callsTo(fetch, 'POST', AVS_EDITOR_API.addAddress)).toHaveLength(1));
    expect(await body(callsTo(fetch, 'POST', AVS_EDITOR_API.addAddress)[0])).toEqual({
      parcelId: '9001',
      parcelVersion: 4,
      lat: POINT.lat,
      lng: POINT.lng,
      roadId: '77',
      houseNumber: '16a',
    });
    expect(await screen.findByText('Added 16A Church Street.')).toBeTruthy();
  });

  it("takes a can't-locate request and resolves it with an address on the map", async () => {
    const request = {
      requestId: '11111111-1111-4111-8111-111111111111',
      gripReference: 'GRP-2611-000042',
      status: 'New',
      version: 1,
      query: '12 Church St Stellenbosch',
      searchedFor: null,
      comments: 'Behind the school',
      address: '',
      lat: POINT.lat,
      lng: POINT.lng,
      requestedBy: 'Johan Botha <user@portal.test>',
      group: 'Karoo Mutual Insurance',
      created: '2026-11-26T08:00:00.000Z',
      heldUntil: '2026-11-26T10:15:00.000Z',
    };
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`GET ${AVS_EDITOR_API.cantLocate}`]: () => json(200, { success: true, request, remaining: 0 }),
      [`POST ${AVS_EDITOR_API.resolveCantLocate(request.requestId)}`]: () =>
        json(200, {
          success: true,
          requestId: request.requestId,
          gripReference: request.gripReference,
          status: 'Finalised',
          version: 2,
          address: '12 Church Street, Die Boord, Stellenbosch, 7600',
          ...POINT,
        }),
    });
    renderRemote('/avs/editor');
    fireEvent.click(await screen.findByRole('button', { name: TEXT.nextCantLocate }, { timeout: 30_000 }));
    const work = await screen.findByTestId('work-item');
    expect(work.textContent).toContain("Can't-locate request GRP-2611-000042");
    expect(work.textContent).toContain('12 Church St Stellenbosch');
    expect((screen.getByRole('textbox', { name: TEXT.search }) as HTMLInputElement).value).toBe(
      '12 Church St Stellenbosch',
    );
    const list = await screen.findByRole('list', { name: TEXT.addresses });
    fireEvent.click(within(list).getByText(/^12 Church Street/));
    fireEvent.click(popupButton(TEXT.resolveWithAddress));
    await waitFor(() =>
      expect(callsTo(fetch, 'POST', AVS_EDITOR_API.resolveCantLocate(request.requestId))).toHaveLength(1),
    );
    expect(
      await body(callsTo(fetch, 'POST', AVS_EDITOR_API.resolveCantLocate(request.requestId))[0]),
    ).toEqual({
      version: 1,
      addressId: '501',
    });
    expect((await screen.findByTestId('editor-notice')).textContent).toContain(
      'GRP-2611-000042 resolved: 12 Church Street, Die Boord, Stellenbosch, 7600.',
    );
    expect(screen.queryByTestId('work-item')).toBeNull();
  });

  it('goes to typed GPS co-ordinates and refuses text that is not two numbers', async () => {
    const fetch = answerFetch({ ...meAnswer(operatorUser), ...editorAnswers() });
    renderRemote('/avs/editor');
    const box = await screen.findByRole('textbox', { name: TEXT.gps }, { timeout: 30_000 });
    fireEvent.change(box, { target: { value: 'somewhere' } });
    fireEvent.click(screen.getByRole('button', { name: TEXT.go }));
    expect(await screen.findByText(TEXT.gpsInvalid)).toBeTruthy();
    fireEvent.change(box, { target: { value: `${POINT.lat}, ${POINT.lng}` } });
    fireEvent.click(screen.getByRole('button', { name: TEXT.go }));
    await waitFor(() => expect(field('Suburb')).toBe('Die Boord'));
    expect(callsTo(fetch, 'GET', AVS_EDITOR_API.pointData(POINT.lat, POINT.lng))).toHaveLength(1);
  });

  it('shows the satellite survey at the marker with its date, steps back to an older one, and measures on the map', async () => {
    const surveys: Survey[] = [
      { id: 9, capturedOn: '2025-02-01', kind: 'high_resolution', provider: 'Portal imagery' },
      { id: 7, capturedOn: '2019-06-30', kind: 'ortho', provider: 'Portal imagery' },
    ];
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...editorAnswers(),
      [`GET ${SURVEY_API.surveys}`]: () => json(200, { success: true, surveys }),
    });
    renderRemote(AT_POINT);
    const map = await screen.findByTestId('editor-map', {}, { timeout: 30_000 });
    await waitFor(() =>
      expect(within(map).getByTestId('capture-date').textContent).toBe(
        'Captured 1 February 2025 · Portal imagery',
      ),
    );
    expect(mockTileUrls.at(-1)).toBe('/api/v1.0/tiles/satellite/{z}/{x}/{y}.jpg?survey=9');
    const [asked] = callsTo(fetch, 'GET', SURVEY_API.surveys);
    expect(new URL(asked.url).searchParams.get('lat')).toBe(String(POINT.lat));
    // The timeline: the newest is current; the older one is chosen with the keyboard.
    const timeline = screen.getByTestId('survey-timeline');
    const newest = within(timeline).getByRole('radio', { checked: true });
    expect(newest.textContent).toBe('2025');
    fireEvent.keyDown(newest, { key: 'ArrowRight' });
    await waitFor(() =>
      expect(within(map).getByTestId('capture-date').textContent).toBe(
        'Captured 30 June 2019 · Portal imagery',
      ),
    );
    expect(within(timeline).getByRole('radio', { checked: true }).textContent).toBe('2019');
    expect(mockTileUrls.at(-1)).toBe('/api/v1.0/tiles/satellite/{z}/{x}/{y}.jpg?survey=7');

    // Measuring: a distance of two points placed at the centre cross, the map moved between them.
    const toolbar = within(map).getByTestId('measure-toolbar');
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Distance' }));
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Add point at centre' }));
    const olMap = map.querySelector('[role="application"]') as HTMLElement;
    fireEvent.keyDown(olMap, { key: 'ArrowRight', shiftKey: true });
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Add point at centre' }));
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Finish' }));
    const measured = await screen.findByTestId('measured-list');
    const [, metres] = /^Distance: (\d+\.\d{2}) m$/.exec(
      measured.querySelector('[data-draft-key] .MuiListItemText-primary')!.textContent!,
    )!;
    expect(measured.querySelector('[data-draft-key] .MuiListItemText-secondary')!.textContent).toBe(
      'Survey 30 June 2019 · Not saved yet',
    );
    // 128 screen pixels at zoom 18 (Shift + arrow), at 33.9° S: about 63 m on the ground.
    expect(Number(metres)).toBeGreaterThan(55);
    expect(Number(metres)).toBeLessThan(70);
    fireEvent.click(screen.getByRole('button', { name: TEXT.clearMeasured }));
    expect(screen.queryByTestId('measured-list')).toBeNull();

    // Compare: the two surveys at the marker, the changes between them asked for (older → newer).
    fireEvent.click(screen.getByRole('button', { name: 'Compare surveys' }));
    expect(await screen.findByTestId('imagery-compare')).toBeTruthy();
    await waitFor(() => expect(callsTo(fetch, 'GET', SURVEY_API.changes)).toHaveLength(1));
    const compared = new URL(callsTo(fetch, 'GET', SURVEY_API.changes)[0].url).searchParams;
    expect([compared.get('from'), compared.get('to')]).toEqual(['7', '9']);
    fireEvent.click(screen.getByRole('button', { name: TEXT.closeCompare }));
    await waitFor(() => expect(screen.queryByTestId('imagery-compare')).toBeNull());
  });
});
