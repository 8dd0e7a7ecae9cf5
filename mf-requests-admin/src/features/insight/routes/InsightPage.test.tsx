import { act, fireEvent, screen, within } from '@testing-library/react';
import { INSIGHT_API, INSIGHT_CHART_TITLES, type InsightAnswer } from '@portal/contracts';
import { sessionUser } from '@portal/web-kit/testing';
import { answerFetch, callsTo, json, meAnswer, operatorUser, plainUser } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { INSIGHT_TEXT } from '../texts';

const answer = (group: string | null): InsightAnswer => ({
  period: { from: '2026-01-05', to: '2026-01-11', bucket: 'day', buckets: ['2026-01-05', '2026-01-06'] },
  filters: { group, type: null, subtype: null },
  targets: { New: 4, 'QC check': 8 },
  flow: [
    { bucket: '2026-01-05', type: 'SAVI', subtype: 'Replacement Value Estimate', created: 2, finished: 0 },
    { bucket: '2026-01-06', type: 'IRIS', subtype: 'Report', created: 1, finished: 1 },
  ],
  groups: [{ groupId: 'g-kmi', groupName: 'Karoo Mutual Insurance', created: 3, finished: 1 }],
  turnaround: [
    { type: 'All', count: 1, medianHours: 26, p90Hours: 45.2 },
    { type: 'IRIS', count: 1, medianHours: 26, p90Hours: 45.2 },
  ],
  statusTimes: [{ status: 'QC check', stays: 5, medianHours: 2, p90Hours: 8, targetHours: 8, overTarget: 1 }],
  backlog: [
    { bucket: '2026-01-05', status: 'New', count: 2 },
    { bucket: '2026-01-06', status: 'New', count: 1 },
  ],
  sendBacks: [{ userId: null, name: 'Everyone', decisions: 5, sentBack: 1, rate: 0.2 }],
  operators: [{ userId: 'u1', name: 'Op One', started: 2, submitted: 3, approved: 0 }],
  queues: [],
  late: {
    total: 1,
    page: 1,
    pageSize: 25,
    rows: [
      {
        requestID: 'r3',
        gripReference: 'GRP-2601-000003',
        type: 'IRIS',
        subtype: 'Report',
        status: 'Dispatch',
        groupName: 'Highveld Valuers',
        created: '2026-01-06T06:00:00.000Z',
        hoursInStatus: 30,
        targetHours: 24,
        hoursOver: 6,
      },
    ],
  },
});

function answerInsight(user = operatorUser) {
  return answerFetch({
    ...meAnswer(user),
    [`GET ${INSIGHT_API.insight}`]: (request) =>
      json(200, answer(new URL(request.url).searchParams.get('group'))),
  });
}

describe('operations dashboard (issue 24)', () => {
  it('shows the turnaround, the late requests one click from the console, and the charts with their data', async () => {
    answerInsight();
    renderRemote('/requests/insight');
    const median = await screen.findByText(INSIGHT_TEXT.headline.median);
    expect(median.parentElement!.textContent).toContain('26.0 h');
    const late = screen.getByRole('link', { name: INSIGHT_TEXT.lateOpen('GRP-2601-000003') });
    expect(late.getAttribute('href')).toBe('/requests/admin?grip_reference=GRP-2601-000003');
    const turnaround = screen.getByRole('region', { name: INSIGHT_CHART_TITLES.turnaround });
    expect(within(turnaround).getByRole('img', { name: INSIGHT_CHART_TITLES.turnaround })).toBeTruthy();
    const table = within(turnaround).getByRole('table', { hidden: true });
    expect(within(table).getAllByRole('row', { hidden: true })).toHaveLength(3);
    expect(
      within(turnaround)
        .getByRole('link', { name: INSIGHT_TEXT.exportLabel(INSIGHT_CHART_TITLES.turnaround, 'CSV') })
        .getAttribute('href'),
    ).toMatch(
      new RegExp(
        `^${INSIGHT_API.exportCsv}\\?from=\\d{4}-\\d{2}-\\d{2}&to=\\d{4}-\\d{2}-\\d{2}&chart=turnaround$`,
      ),
    );
  });

  it('asks for the picked group, and the exports follow it', async () => {
    const calls = answerInsight();
    renderRemote('/requests/insight');
    await screen.findByText(INSIGHT_TEXT.headline.median);
    await act(async () => fireEvent.mouseDown(screen.getByRole('combobox', { name: INSIGHT_TEXT.group })));
    await act(async () =>
      fireEvent.click(await screen.findByRole('option', { name: 'Karoo Mutual Insurance' })),
    );
    await act(async () =>
      fireEvent.change(screen.getByLabelText(INSIGHT_TEXT.from), { target: { value: '2026-01-05' } }),
    );
    await act(async () =>
      fireEvent.change(screen.getByLabelText(INSIGHT_TEXT.to), { target: { value: '2026-01-11' } }),
    );
    const asked = callsTo(calls, 'GET', INSIGHT_API.insight).map((request) => new URL(request.url).search);
    expect(asked).toContain('?from=2026-01-05&to=2026-01-11&group=g-kmi');
    expect(
      screen
        .getByRole('link', { name: INSIGHT_TEXT.exportLabel(INSIGHT_CHART_TITLES.late, 'xlsx') })
        .getAttribute('href'),
    ).toBe(`${INSIGHT_API.exportXlsx}?from=2026-01-05&to=2026-01-11&group=g-kmi&chart=late`);
    expect(screen.getByRole('combobox', { name: INSIGHT_TEXT.period }).textContent).toBe('Custom');
  });

  it("shows a group's admin their own group, without the group list", async () => {
    answerInsight(
      sessionUser({ roles: ['authenticated', 'groupAdmin'], groupName: 'Karoo Mutual Insurance' }),
    );
    renderRemote('/requests/insight');
    await screen.findByText(INSIGHT_TEXT.headline.median);
    expect((screen.getByLabelText(INSIGHT_TEXT.group) as HTMLInputElement).value).toBe(
      'Karoo Mutual Insurance',
    );
    expect(screen.queryByRole('combobox', { name: INSIGHT_TEXT.group })).toBeNull();
  });

  it('keeps a plain requester out', async () => {
    const calls = answerInsight(plainUser);
    renderRemote('/requests/insight');
    await act(async () => undefined);
    expect(screen.queryByText(INSIGHT_TEXT.title)).toBeNull();
    expect(callsTo(calls, 'GET', INSIGHT_API.insight)).toHaveLength(0);
  });
});
