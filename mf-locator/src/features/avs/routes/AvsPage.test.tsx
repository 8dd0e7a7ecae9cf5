import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API, AVS_API, REQUEST_API, VALIDATION_API, type RequestForm } from '@portal/contracts';
import { CANT_LOCATE_ERRORS, AVS_TEXT, CSV_TEXT } from '../../../texts';
import {
  answerFetch,
  callsTo,
  errorAnswer,
  json,
  plainUser,
  sessionAnswers,
  text,
  type Answer,
} from '../../../testing/fetchAnswers';
import { GROUP_REFERENCES, notFound, validChurchStreet } from '../../../testing/places';
import { renderRemote } from '../../../testing/renderRemote';

const valid = validChurchStreet();

const parcelGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [18.8612, -33.9366],
      [18.8614, -33.9366],
      [18.8614, -33.9368],
      [18.8612, -33.9366],
    ],
  ],
};

function answer(extra: Record<string, Answer> = {}) {
  return answerFetch({
    ...sessionAnswers(plainUser, ['avs', 'savi']),
    [`GET ${API.myReferences}`]: () => json(200, { claimsUser: false, references: GROUP_REFERENCES }),
    [`POST ${AVS_API.geojson}`]: () =>
      json(200, {
        success: true,
        result: { id: '41', type: 'parcel', name: 'Erf 1234', geometry: parcelGeometry },
      }),
    ...extra,
  });
}

const tab = (name: string) => screen.getByRole('tab', { name });
const field = (name: RegExp) => screen.getByRole('textbox', { name });

describe('/avs access', () => {
  it('sends a user without the avs service home', async () => {
    answerFetch(sessionAnswers(plainUser, ['savi']));
    renderRemote('/avs');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('sends an anonymous visitor home', async () => {
    answerFetch({ [`GET ${API.me}`]: () => errorAnswer(401, 'Authentication required.') });
    renderRemote('/avs');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});

describe('validating a typed address', () => {
  it('shows the standardised address, its parts, parcel and confidence, and fetches the parcel for the map', async () => {
    const calls = answer({
      [`POST ${VALIDATION_API.validate}`]: () => json(200, { success: true, result: valid }),
    });
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });

    fireEvent.change(field(/^Address/), { target: { value: '12 church st stellenbosch' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.validate })));

    const result = await screen.findByTestId('validation-result');
    expect(within(result).getByTestId('standardised-address').textContent).toBe(valid.formatted_address);
    expect(within(result).getByText('Valid')).toBeTruthy();
    expect(within(result).getByText('96 %')).toBeTruthy();
    expect(within(result).getByTestId('validated-parcel').textContent).toBe('Erf 1234');
    expect(within(result).getByText('Church Street')).toBeTruthy();
    expect(within(result).getByText('-33.936612, 18.861299')).toBeTruthy();
    const [sent] = callsTo(calls, 'POST', VALIDATION_API.validate);
    expect(await sent.json()).toEqual({ address: '12 church st stellenbosch' });
    await waitFor(() => expect(callsTo(calls, 'POST', AVS_API.geojson)).toHaveLength(1));
    expect(await callsTo(calls, 'POST', AVS_API.geojson)[0].json()).toEqual({ id: '41', type: 'parcel' });
  });

  it('says not found, and offers a can’t-locate request with the typed text', async () => {
    answer({
      [`POST ${VALIDATION_API.validate}`]: () => json(200, { success: true, result: notFound('Nowhere 1') }),
    });
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });
    fireEvent.change(field(/^Address/), { target: { value: 'Nowhere 1' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.validate })));

    expect(await screen.findByText(AVS_TEXT.notFound)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.logCantLocate })));
    expect(tab(AVS_TEXT.tabs.cantLocate).getAttribute('aria-selected')).toBe('true');
    expect((field(/^Address as you have it/) as HTMLInputElement).value).toBe('Nowhere 1');
  });

  it('shows the service’s message for a refused text', async () => {
    answer({
      [`POST ${VALIDATION_API.validate}`]: () =>
        errorAnswer(400, 'The search text has no letters or digits to search for.'),
    });
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });
    fireEvent.change(field(/^Address/), { target: { value: '--' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.validate })));
    expect(await screen.findByText('The search text has no letters or digits to search for.')).toBeTruthy();
  });
});

describe('validating a CSV file', () => {
  const chooseFile = async (content: string, name = 'clients.csv') => {
    const input = screen.getByTestId('csv-file-input') as HTMLInputElement;
    await act(async () =>
      fireEvent.change(input, { target: { files: [new File([content], name, { type: 'text/csv' })] } }),
    );
  };

  const echoBatch = (failFirst = 0): Answer => {
    let failures = failFirst;
    return async (request) => {
      if (failures > 0) {
        failures -= 1;
        return errorAnswer(503, 'Service Unavailable');
      }
      const { addresses } = (await request.clone().json()) as { addresses: string[] };
      return json(200, {
        success: true,
        results: addresses.map((address) =>
          address.startsWith('nowhere') ? notFound(address) : { ...valid, query: address },
        ),
      });
    };
  };

  let downloads: Blob[];
  beforeEach(() => {
    downloads = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      downloads.push(blob);
      return `blob:${downloads.length}`;
    });
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const readBlob = (blob: Blob) =>
    new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });

  it('validates in chunks of 100 with progress, sums up and downloads the results', async () => {
    const rows = Array.from({ length: 230 }, (_, i) =>
      i % 10 === 9 ? `nowhere ${i}` : `${i + 1} Church Street`,
    );
    const calls = answer({ [`POST ${VALIDATION_API.batch}`]: echoBatch() });
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });
    await act(async () => fireEvent.click(tab(AVS_TEXT.tabs.batch)));
    await chooseFile(`ref,address\n${rows.map((row, i) => `R${i},"${row}"`).join('\n')}\n`);

    expect((await screen.findByTestId('csv-rows-read')).textContent).toBe(
      AVS_TEXT.rowsRead(230, 'clients.csv'),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.start })));

    await waitFor(() =>
      expect(screen.getByTestId('batch-progress').textContent).toBe(AVS_TEXT.progress(230, 230)),
    );
    const sent = await Promise.all(
      callsTo(calls, 'POST', VALIDATION_API.batch).map(
        async (request) => ((await request.json()) as { addresses: string[] }).addresses,
      ),
    );
    expect(sent.map((chunk) => chunk.length)).toEqual([100, 100, 30]);
    expect(sent.flat()).toEqual(rows);
    const summary = screen.getByTestId('batch-summary');
    expect(summary.querySelector('[data-count="valid"]')!.textContent).toBe('207');
    expect(summary.querySelector('[data-count="not found"]')!.textContent).toBe('23');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.download })));
    expect(downloads).toHaveLength(1);
    const lines = (await readBlob(downloads[0])).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'ref,address,standardised address,suburb,town,postal code,lat,lng,parcel,confidence,verdict',
    );
    expect(lines[1]).toBe(
      'R0,1 Church Street,"12 Church Street, Stellenbosch Central, Stellenbosch, 7600",Stellenbosch Central,Stellenbosch,7600,-33.936612,18.861299,Erf 1234,0.962,valid',
    );
    expect(lines[10]).toBe('R9,nowhere 9,,,,,,,,0.000,not found');
    expect(lines).toHaveLength(232);
  });

  it('keeps the rows done when a chunk keeps failing, and Retry goes on from that chunk', async () => {
    // The first chunk is answered, then the service is down for the second chunk's three tries (the
    // run waits 1 s and 3 s between them), then back.
    const batch = echoBatch();
    let answered = 0;
    let down = false;
    answer({
      [`POST ${VALIDATION_API.batch}`]: (request) => {
        answered += 1;
        if (down) return errorAnswer(502, 'Bad Gateway');
        down = answered === 1;
        return batch(request);
      },
    });
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });
    await act(async () => fireEvent.click(tab(AVS_TEXT.tabs.batch)));
    await chooseFile(
      `address\n${Array.from({ length: 150 }, (_, i) => `${i + 1} Church Street`).join('\n')}\n`,
    );
    await screen.findByTestId('csv-rows-read');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.start })));
    expect(await screen.findByText(AVS_TEXT.chunkFailed(101, 150, 'Bad Gateway'))).toBeTruthy();
    expect(answered).toBe(4);
    expect(screen.getByTestId('batch-progress').textContent).toBe(AVS_TEXT.progress(100, 150));
    // What is done can be downloaded meanwhile.
    expect(screen.getByRole('button', { name: AVS_TEXT.download })).toBeTruthy();

    down = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.retry })));
    await waitFor(() =>
      expect(screen.getByTestId('batch-progress').textContent).toBe(AVS_TEXT.progress(150, 150)),
    );
    expect(answered).toBe(5);
    expect(screen.queryByText(AVS_TEXT.chunkFailed(101, 150, 'Bad Gateway'))).toBeNull();
  });

  it('says what is wrong with a bad file', async () => {
    answer();
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });
    await act(async () => fireEvent.click(tab(AVS_TEXT.tabs.batch)));
    await chooseFile('PK\u0003\u0004\u0000\u0000', 'clients.xlsx');
    expect(await screen.findByText(CSV_TEXT.notCsv)).toBeTruthy();
    await chooseFile('ref,address\n1,\n');
    expect(await screen.findByText(CSV_TEXT.noAddresses)).toBeTruthy();
    expect(screen.queryByRole('button', { name: AVS_TEXT.start })).toBeNull();
  });
});

describe('the can’t-locate request', () => {
  const openForm = async () => {
    renderRemote('/avs');
    await screen.findByRole('heading', { name: AVS_TEXT.title });
    await act(async () => fireEvent.click(tab(AVS_TEXT.tabs.cantLocate)));
    await screen.findByRole('textbox', { name: /^Policy Number/ });
  };

  const fillIn = () => {
    fireEvent.change(field(/^Address as you have it/), {
      target: { value: 'Plot 7, Vaalbank road, near Bronkhorstspruit' },
    });
    fireEvent.change(field(/^Comments/), { target: { value: 'Smallholding behind the farm stall' } });
    fireEvent.change(field(/^Policy Number/), { target: { value: 'KM123456' } });
  };

  it('requires the address, comments and the group’s required references, with their messages', async () => {
    const calls = answer();
    await openForm();
    // Hidden references are not asked for; optional ones say so.
    expect(screen.queryByRole('textbox', { name: /Underwriting Batch/ })).toBeNull();
    expect(field(/^Broker Name \(optional\)/)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.submit })));
    expect(screen.getByText(AVS_TEXT.required(AVS_TEXT.cantLocateAddress))).toBeTruthy();
    expect(screen.getByText(AVS_TEXT.required(AVS_TEXT.comments))).toBeTruthy();
    expect(screen.getByText(GROUP_REFERENCES[0][5] as string)).toBeTruthy();
    fireEvent.change(field(/^Policy Number/), { target: { value: 'nope' } });
    expect(screen.getByText(GROUP_REFERENCES[0][5] as string)).toBeTruthy();
    expect(callsTo(calls, 'PUT', REQUEST_API.create)).toHaveLength(0);
  });

  it('logs an AVS request of subtype Can’t Locate with an idempotency key, and shows its GRiP reference', async () => {
    const calls = answer({
      [`PUT ${REQUEST_API.create}`]: () =>
        text(201, 'created', { 'X-Grip-Reference': 'GRP-2611-00042', Location: '/api/v1.0/request/r1/any' }),
    });
    await openForm();
    fillIn();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.submit })));

    expect((await screen.findByTestId('grip-reference')).textContent).toBe('GRP-2611-00042');
    const [put] = callsTo(calls, 'PUT', REQUEST_API.create);
    const body = (await put.json()) as RequestForm;
    expect(body).toMatchObject({
      requestType: 'AVS',
      requestSubType: "Can't Locate",
      cantlocate: true,
      query: 'Plot 7, Vaalbank road, near Bronkhorstspruit',
      additional: 'Smallholding behind the farm stall',
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    // The key travels as the Idempotency-Key header, as every request form sends it (the shared creation call).
    expect(put.headers.get('Idempotency-Key')!.length).toBeGreaterThanOrEqual(8);
  });

  it('shows the spec’s registration error, and a retry sends the same idempotency key', async () => {
    let attempts = 0;
    const calls = answer({
      [`PUT ${REQUEST_API.create}`]: () => {
        attempts += 1;
        return attempts === 1
          ? errorAnswer(500, 'boom')
          : text(201, 'created', { 'X-Grip-Reference': 'GRP-1' });
      },
    });
    await openForm();
    fillIn();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.submit })));
    expect((await screen.findByTestId('cant-locate-error')).textContent).toBe(
      CANT_LOCATE_ERRORS.registration,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.submit })));
    expect((await screen.findByTestId('grip-reference')).textContent).toBe('GRP-1');
    const keys = callsTo(calls, 'PUT', REQUEST_API.create).map((request) =>
      request.headers.get('Idempotency-Key'),
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('says the request is null when the reply is not created, and the result is null without a reference', async () => {
    let reply = 'failed';
    answer({
      [`PUT ${REQUEST_API.create}`]: () => text(200, reply),
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await openForm();
    fillIn();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.submit })));
    expect((await screen.findByTestId('cant-locate-error')).textContent).toBe(
      CANT_LOCATE_ERRORS.registration + CANT_LOCATE_ERRORS.requestNull,
    );
    reply = 'created';
    await act(async () => fireEvent.click(screen.getByRole('button', { name: AVS_TEXT.submit })));
    await waitFor(() =>
      expect(screen.getByTestId('cant-locate-error').textContent).toBe(
        CANT_LOCATE_ERRORS.registration + CANT_LOCATE_ERRORS.nullResult,
      ),
    );
  });
});
