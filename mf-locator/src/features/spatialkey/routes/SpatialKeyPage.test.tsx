import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { REQUEST_API, type RequestMapAnswer, type RequestMapPoint } from '@portal/contracts';
import { MAP_POINT_LIMIT } from '../../../config';
import { answerFetch, callsTo, json, plainUser, sessionAnswers } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { REQUEST_POPUP_TEXT, SPATIALKEY_TEXT } from '../../../texts';
import { RequestPopup } from '../components/RequestPopup';

const point = (id: string, overrides: Partial<RequestMapPoint> = {}): RequestMapPoint => ({
  id,
  gripReference: `GRP-2611-0000${id}`,
  requestType: 'AVS',
  requestSubType: "Can't Locate",
  status: 'New',
  created: '2026-11-21T08:30:00.000Z',
  address: 'Plot 7, Vaalbank road',
  lat: -25.8,
  lng: 28.7,
  ...overrides,
});

const mapAnswer = (answer: Partial<RequestMapAnswer> = {}) => {
  const points = answer.points ?? [point('1'), point('2', { requestType: 'SAVI', status: 'Finalised' })];
  return json(200, { total: points.length, truncated: false, points, ...answer });
};

const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

async function openSpatialKey(answer: (request: Request) => Response = () => mapAnswer()) {
  const calls = answerFetch({
    ...sessionAnswers(plainUser, ['spatialkey']),
    [`GET ${REQUEST_API.map}`]: answer,
  });
  renderRemote('/spatialkey');
  await screen.findByRole('heading', { name: SPATIALKEY_TEXT.title });
  await waitFor(() => expect(callsTo(calls, 'GET', REQUEST_API.map).length).toBeGreaterThan(0));
  return calls;
}

async function choose(label: string, option: string) {
  await act(async () => fireEvent.mouseDown(screen.getByRole('combobox', { name: label })));
  const listbox = await screen.findByRole('listbox');
  await act(async () => fireEvent.click(within(listbox).getByRole('option', { name: option })));
  await act(async () => fireEvent.keyDown(listbox, { key: 'Escape' }));
}

describe('/spatialkey', () => {
  it('asks for the requests on the map and says how many there are', async () => {
    const calls = await openSpatialKey();
    expect(queryOf(callsTo(calls, 'GET', REQUEST_API.map)[0])).toEqual({ limit: String(MAP_POINT_LIMIT) });
    expect((await screen.findByTestId('request-count')).textContent).toBe(SPATIALKEY_TEXT.count(2, 2));
    expect(screen.queryByTestId('truncated-notice')).toBeNull();
  });

  it('asks again when a status, a type or dates are chosen', async () => {
    const calls = await openSpatialKey();
    await choose(SPATIALKEY_TEXT.status, 'Finalised');
    await choose(SPATIALKEY_TEXT.status, 'New');
    await waitFor(() =>
      expect(queryOf(callsTo(calls, 'GET', REQUEST_API.map).at(-1)!)).toMatchObject({
        status: 'Finalised,New',
      }),
    );
    await choose(SPATIALKEY_TEXT.type, 'AVS');
    fireEvent.change(screen.getByLabelText(SPATIALKEY_TEXT.from), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText(SPATIALKEY_TEXT.to), { target: { value: '2026-11-21' } });
    await waitFor(() =>
      expect(queryOf(callsTo(calls, 'GET', REQUEST_API.map).at(-1)!)).toEqual({
        limit: String(MAP_POINT_LIMIT),
        status: 'Finalised,New',
        type: 'AVS',
        from: '2026-11-01',
        to: '2026-11-21',
      }),
    );

    // Cleared: back to the first look (served from the cache, not asked again).
    const asked = callsTo(calls, 'GET', REQUEST_API.map).length;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: SPATIALKEY_TEXT.clear })));
    expect(screen.getByRole('combobox', { name: SPATIALKEY_TEXT.status }).textContent).toBe(
      SPATIALKEY_TEXT.allStatuses,
    );
    expect(screen.getByRole('combobox', { name: SPATIALKEY_TEXT.type }).textContent).toBe(
      SPATIALKEY_TEXT.allTypes,
    );
    expect((screen.getByLabelText(SPATIALKEY_TEXT.from) as HTMLInputElement).value).toBe('');
    expect(callsTo(calls, 'GET', REQUEST_API.map)).toHaveLength(asked);
    expect((await screen.findByTestId('request-count')).textContent).toBe(SPATIALKEY_TEXT.count(2, 2));
  });

  it('does not ask with a start date after the end date, and says why', async () => {
    const calls = await openSpatialKey();
    fireEvent.change(screen.getByLabelText(SPATIALKEY_TEXT.to), { target: { value: '2026-11-01' } });
    await waitFor(() =>
      expect(queryOf(callsTo(calls, 'GET', REQUEST_API.map).at(-1)!).to).toBe('2026-11-01'),
    );
    const asked = callsTo(calls, 'GET', REQUEST_API.map).length;
    fireEvent.change(screen.getByLabelText(SPATIALKEY_TEXT.from), { target: { value: '2026-11-02' } });
    expect(await screen.findByText(SPATIALKEY_TEXT.datesReversed)).toBeTruthy();
    expect(callsTo(calls, 'GET', REQUEST_API.map)).toHaveLength(asked);
  });

  it('says when the server answered only the newest of more', async () => {
    await openSpatialKey(() => mapAnswer({ total: 5400, truncated: true }));
    expect((await screen.findByTestId('truncated-notice')).textContent).toBe(
      SPATIALKEY_TEXT.truncated(2, 5400),
    );
  });

  it('sends a user without the spatialkey service home', async () => {
    answerFetch(sessionAnswers(plainUser, ['avs', 'savi']));
    renderRemote('/spatialkey');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});

describe('the request popup', () => {
  it('shows the GRiP reference, type and subtype, status, created time (SAST) and address', () => {
    const onClose = jest.fn();
    render(<RequestPopup requests={[point('1')]} onClose={onClose} />);
    const details = screen.getByTestId('request-details');
    expect(within(details).getByText('GRP-2611-00001')).toBeTruthy();
    expect(within(details).getByText("AVS – Can't Locate")).toBeTruthy();
    expect(within(details).getByText('New')).toBeTruthy();
    expect(within(details).getByText(/2026.11.21.*10:30/)).toBeTruthy();
    expect(within(details).getByText('Plot 7, Vaalbank road')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: REQUEST_POPUP_TEXT.close }));
    expect(onClose).toHaveBeenCalled();
  });

  it('lists the requests of a cluster on one property', () => {
    render(<RequestPopup requests={[point('1'), point('2')]} onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: REQUEST_POPUP_TEXT.more(2) })).toBeTruthy();
    expect(screen.getAllByTestId('request-details')).toHaveLength(2);
  });
});
