import { act, fireEvent, screen, within } from '@testing-library/react';
import { ADMIN_API, USAGE_ROUTES, type UsageAnswer } from '@portal/contracts';
import { sessionUser } from '@portal/web-kit/testing';
import { adminUser, answerFetch, callsTo, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { USAGE_TEXT } from '../../../texts';

const days = Array.from({ length: 31 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);

const answer = (groupId: string | null): UsageAnswer => ({
  month: '2026-03',
  groupId,
  days,
  rows: [
    {
      day: '2026-03-01',
      groupId: 'g-kmi',
      service: 'locator',
      metric: 'geocode',
      source: 'k1',
      sourceName: 'Policy system (ppk_AbCdEfGh)',
      count: 120,
    },
    {
      day: '2026-03-01',
      groupId: 'g-kmi',
      service: 'locator',
      metric: 'geocode',
      source: 'session',
      sourceName: null,
      count: 5,
    },
    {
      day: '2026-03-02',
      groupId: 'g-kmi',
      service: 'locator',
      metric: 'geocode',
      source: 'session',
      sourceName: null,
      count: 7,
    },
    {
      day: '2026-03-15',
      groupId: 'g-kmi',
      service: 'iris',
      metric: 'iris_report',
      source: 'session',
      sourceName: null,
      count: 2,
    },
  ],
  totals: { geocode: 132, iris_report: 2, search: 0 },
});

function answerUsage(user = adminUser) {
  return answerFetch({
    ...meAnswer(user),
    [`GET ${ADMIN_API.groups}`]: () =>
      json(200, {
        success: true,
        groups: [{ _id: 'g-kmi', name: 'Karoo Mutual Insurance', code: 'KMI' }],
        total: 1,
      }),
    [`GET ${USAGE_ROUTES.usage}`]: (request) =>
      json(200, answer(new URL(request.url).searchParams.get('groupId'))),
  });
}

describe('usage page (issue 22)', () => {
  it("charts each used metric over the month's days and lists the totals per source", async () => {
    answerUsage();
    renderRemote('/services/admin/usage');
    const geocodes = await screen.findByRole('figure', { name: 'Geocodes: 132' });
    expect(geocodes.querySelectorAll('rect.bar')).toHaveLength(31);
    expect(geocodes.querySelector('rect[data-day="2026-03-01"]')!.getAttribute('data-value')).toBe('125');
    expect(screen.getByRole('figure', { name: 'IRiS reports: 2' })).toBeTruthy();
    expect(screen.queryByRole('figure', { name: /Searches/ })).toBeNull();

    const table = screen.getByRole('table', { name: USAGE_TEXT.tableLabel('2026-03') });
    const lines = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(lines).toEqual([
      ['Geocodes', 'locator', USAGE_TEXT.session, '12'],
      ['Geocodes', 'locator', 'Policy system (ppk_AbCdEfGh)', '120'],
      ['IRiS reports', 'iris', USAGE_TEXT.session, '2'],
    ]);
  });

  it('asks for the picked group and month, and the exports follow them', async () => {
    const calls = answerUsage();
    renderRemote('/services/admin/usage');
    await screen.findByRole('figure', { name: 'Geocodes: 132' });

    await act(async () => fireEvent.mouseDown(screen.getByRole('combobox', { name: USAGE_TEXT.group })));
    await act(async () =>
      fireEvent.click(await screen.findByRole('option', { name: 'Karoo Mutual Insurance (KMI)' })),
    );
    await act(async () =>
      fireEvent.change(screen.getByLabelText(USAGE_TEXT.month), { target: { value: '2026-03' } }),
    );
    await screen.findByRole('figure', { name: 'Geocodes: 132' });

    const asked = callsTo(calls, 'GET', USAGE_ROUTES.usage).map((request) => new URL(request.url).search);
    expect(asked).toContain('?month=2026-03&groupId=g-kmi');
    expect(screen.getByRole('link', { name: USAGE_TEXT.exportXlsx }).getAttribute('href')).toBe(
      `${USAGE_ROUTES.exportXlsx}?month=2026-03&groupId=g-kmi`,
    );
    expect(screen.getByRole('link', { name: USAGE_TEXT.exportCsv }).getAttribute('href')).toBe(
      `${USAGE_ROUTES.exportCsv}?month=2026-03&groupId=g-kmi`,
    );
  });

  it("shows a group's admin their own group, without the group list", async () => {
    const calls = answerUsage(sessionUser({ roles: ['authenticated', 'groupAdmin'] }));
    renderRemote('/services/admin/usage');
    await screen.findByRole('figure', { name: 'Geocodes: 132' });
    expect((screen.getByLabelText(USAGE_TEXT.group) as HTMLInputElement).value).toBe(
      'Karoo Mutual Insurance',
    );
    expect(callsTo(calls, 'GET', ADMIN_API.groups)).toHaveLength(0);
    expect(new URL(callsTo(calls, 'GET', USAGE_ROUTES.usage)[0]!.url).searchParams.get('groupId')).toBe(
      'g-kmi',
    );
  });

  it('says so when nothing was used', async () => {
    answerFetch({
      ...meAnswer(adminUser),
      [`GET ${ADMIN_API.groups}`]: () => json(200, { success: true, groups: [], total: 0 }),
      [`GET ${USAGE_ROUTES.usage}`]: () =>
        json(200, { month: '2026-03', groupId: null, days, rows: [], totals: {} }),
    });
    renderRemote('/services/admin/usage');
    expect(await screen.findByText(USAGE_TEXT.nothing('2026-03'))).toBeTruthy();
  });
});
