import { screen, waitFor, within } from '@testing-library/react';
import { REQUEST_API, SURVEY_API, type ChangesAnswer, type Survey } from '@portal/contracts';
import { buildingChange, testSurvey } from '@portal/web-kit/testing';
import {
  answerFetch,
  callsTo,
  errorAnswer,
  json,
  meAnswer,
  operatorUser,
  qcUser,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';
import { changeLines, comparedSurveys, formatAreaM2 } from './components/comparedSurveys';

// Issue 21: the QS and QC checklists' "Changes since the survey before this request", from the locator's
// surveys and changes at the request's point (answered here as the contract says).

const survey = (id: number, capturedOn: string) => testSurvey(id, capturedOn);
const building = buildingChange;

const SURVEYS = [survey(7, '2025-11-14'), survey(5, '2023-03-01'), survey(2, '2019-05-02')];

describe('comparedSurveys: which two surveys the checklists compare', () => {
  it('compares the newest with the newest captured before the request was logged', () => {
    const pair = comparedSurveys(SURVEYS, '2024-06-01T08:00:00.000Z');
    expect([pair?.from.id, pair?.to.id]).toEqual([5, 7]);
  });

  it('counts a survey of the day the request was logged (South African day) as before it', () => {
    // 23:30 UTC on 28 February is 1 March in South Africa.
    expect(comparedSurveys(SURVEYS, '2023-02-28T23:30:00.000Z')?.from.id).toBe(5);
    expect(comparedSurveys(SURVEYS, '2023-02-28T21:30:00.000Z')?.from.id).toBe(2);
  });

  it('takes the survey before the newest when the request is older than every earlier survey', () => {
    expect(comparedSurveys(SURVEYS, '2010-01-01T08:00:00.000Z')?.from.id).toBe(5);
  });

  it('compares the two newest when the request is newer than the newest survey', () => {
    const pair = comparedSurveys(SURVEYS, '2026-01-20T08:00:00.000Z');
    expect([pair?.from.id, pair?.to.id]).toEqual([5, 7]);
  });

  it('orders them itself, passes over a survey of the newest one’s day, and needs two', () => {
    const sameDay = [survey(2, '2019-05-02'), survey(8, '2025-11-14'), survey(7, '2025-11-14')];
    expect(comparedSurveys(sameDay, '2026-01-01T00:00:00Z')).toMatchObject({
      from: { id: 2 },
      to: { id: 8 },
    });
    expect(comparedSurveys([survey(7, '2025-11-14')], '2024-01-01T00:00:00Z')).toBeNull();
    expect(comparedSurveys([], '2024-01-01T00:00:00Z')).toBeNull();
  });

  it('lists added, extended and reduced, removed; areas with 1 decimal', () => {
    const lines = changeLines({
      added: [building('b1', 'pool', null, 32), building('b2', 'cottage', null, 61.25)],
      changed: [building('b3', 'house', 180, 231.56), building('b4', 'garage', 40, 20)],
      removed: [building('b5', 'shed', 12, null)],
    });
    expect(lines.map((line) => [line.kind, line.building.buildingId])).toEqual([
      ['added', 'b2'],
      ['added', 'b1'],
      ['extended', 'b3'],
      ['reduced', 'b4'],
      ['removed', 'b5'],
    ]);
    expect([formatAreaM2(231.56), formatAreaM2(1234.44), formatAreaM2(0.04), formatAreaM2(null)]).toEqual([
      '231.6 m²',
      '1,234.4 m²',
      '0.0 m²',
      '—',
    ]);
  });
});

describe('the checklists: changes since the survey before this request', () => {
  const record = {
    gripReference: 'GRP-2406-000001',
    status: 'New',
    created: '2024-06-01T08:00:00.000Z',
    coordinates: { lat: -33.9321, lng: 18.8602 },
  };
  const changes: ChangesAnswer = {
    success: true,
    from: SURVEYS[1],
    to: SURVEYS[0],
    parcelId: '9001',
    added: [building('b2', 'cottage', null, 61.25)],
    removed: [building('b5', 'shed', 12, null)],
    changed: [building('b3', 'house', 180.04, 231.56)],
  };
  const answering = (user: typeof qcUser, surveys: Survey[], changesAnswer = () => json(200, changes)) =>
    answerFetch({
      ...meAnswer(user),
      [`GET ${REQUEST_API.any('r1')}`]: () => json(200, record),
      [`GET ${SURVEY_API.surveys}`]: () => json(200, { success: true, surveys }),
      [`GET ${SURVEY_API.changes}`]: changesAnswer,
    });
  const panel = async () =>
    (await screen.findByRole('heading', { name: 'Changes since the survey before this request' })).closest(
      'section',
    ) as HTMLElement;

  it('QS checklist: lists the buildings added, extended and removed, with their areas at both capture dates', async () => {
    const fetch = answering(operatorUser, SURVEYS);
    renderRemote('/requests/admin/qs-checklist?requestID=r1&lat=-33.93&lng=18.86');
    const section = await panel();
    const table = await within(section).findByRole('table', {
      name: 'Buildings changed between 2023/03/01 and 2025/11/14',
    });
    expect(
      within(section).getByText('The survey of 2023/03/01 against the survey of 2025/11/14 (the newest).'),
    ).toBeTruthy();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Change', 'Building', 'Area on 2023/03/01', 'Area on 2025/11/14']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Added', 'Cottage', '—', '61.3 m²'],
      ['Extended', 'House', '180.0 m²', '231.6 m²'],
      ['Removed', 'Shed', '12.0 m²', '—'],
    ]);
    // Asked at the request's own point (not the address's rounded one), for the chosen pair.
    const [surveysCall] = callsTo(fetch, 'GET', SURVEY_API.surveys);
    expect(Object.fromEntries(new URL(surveysCall.url).searchParams)).toEqual({
      lat: '-33.9321',
      lng: '18.8602',
    });
    const [changesCall] = callsTo(fetch, 'GET', SURVEY_API.changes);
    expect(Object.fromEntries(new URL(changesCall.url).searchParams)).toEqual({
      lat: '-33.9321',
      lng: '18.8602',
      from: '5',
      to: '7',
    });
    // The checklist is still there below.
    expect(screen.getByRole('group', { name: 'QS checks' })).toBeTruthy();
  });

  it('QC checklist: says so when nothing changed', async () => {
    answering(qcUser, SURVEYS, () => json(200, { ...changes, added: [], removed: [], changed: [] }));
    renderRemote('/requests/admin/qc-checklist?requestID=r1&lat=-33.93&lng=18.86');
    const section = await panel();
    expect(
      await within(section).findByText(
        'No building was added, removed or changed in size between the two surveys.',
      ),
    ).toBeTruthy();
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it('says there is nothing to compare with one survey, and asks for no changes', async () => {
    const fetch = answering(qcUser, [SURVEYS[0]]);
    renderRemote('/requests/admin/qc-checklist?requestID=r1&lat=-33.93&lng=18.86');
    const section = await panel();
    expect(
      await within(section).findByText(
        'Nothing to compare: the survey of 2025/11/14 is the only one at the property.',
      ),
    ).toBeTruthy();
    expect(callsTo(fetch, 'GET', SURVEY_API.changes)).toHaveLength(0);
  });

  it('says so when no survey covers the property, or the point is on no parcel', async () => {
    answering(operatorUser, []);
    const first = renderRemote('/requests/admin/qs-checklist?requestID=r1');
    expect(
      await within(await panel()).findByText('Nothing to compare: no survey covers the property.'),
    ).toBeTruthy();
    first.unmount();
    answering(operatorUser, SURVEYS, () =>
      json(200, { ...changes, parcelId: null, added: [], removed: [], changed: [] }),
    );
    renderRemote('/requests/admin/qs-checklist?requestID=r1');
    expect(
      await within(await panel()).findByText(
        'The property is on no known parcel: there are no buildings to compare.',
      ),
    ).toBeTruthy();
  });

  it('only logs a failed load; the panel says nothing is known and the checklist still works', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      answering(qcUser, SURVEYS, () => errorAnswer(500, 'Internal Server Error'));
      renderRemote('/requests/admin/qc-checklist?requestID=r1');
      const section = await panel();
      expect(await within(section).findByText('Nothing is known about changes in the imagery.')).toBeTruthy();
      expect(screen.getByRole('group', { name: 'QC checks' })).toBeTruthy();
      await waitFor(() =>
        expect(logged).toHaveBeenCalledWith(
          '[requests-admin] the imagery changes could not be loaded',
          record.coordinates,
          expect.anything(),
        ),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
