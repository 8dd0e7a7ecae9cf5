import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { ADMIN_API, type AdminGroup } from '@portal/contracts';
import { adminUser, answerFetch, callsTo, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { ADMIN_TEXT } from '../../../texts';

const withAdmin: AdminGroup = {
  _id: 'g1',
  name: 'Karoo Mutual Insurance',
  code: 'KMI',
  admin: 'u1',
  adminLabel: 'Thandiwe Nkosi (admin@portal.test)',
  active: true,
  includeVAT: true,
  includeProfessionalFee: true,
  professionalFeePercentage: 12.5,
  extraField: 'Betterments',
  reportNameFormat: '',
  references: [['Policy Number', 'POLICY_NUMBER', 0, true]],
  claimsReferences: [],
  services: ['savi'],
  userCount: 3,
};
const withoutAdmin: AdminGroup = {
  ...withAdmin,
  _id: 'g2',
  name: 'Unassigned Brokers',
  code: 'UNB',
  admin: null,
  adminLabel: '',
};

function answerGroups() {
  return answerFetch({
    ...meAnswer(adminUser),
    [`GET ${ADMIN_API.pageForModel}`]: () => json(200, { docs: [withAdmin, withoutAdmin], total: 2 }),
    [`POST ${ADMIN_API.group('g1')}`]: async (request) =>
      json(200, { success: true, group: { ...withAdmin, ...((await request.clone().json()) as object) } }),
  });
}

describe('groups grid: an edit is saved only with an admin and a code (spec 03 §5)', () => {
  it('saves a change to a group that has both, at once', async () => {
    const calls = answerGroups();
    renderRemote('/services/admin/groups');

    const active = await screen.findByRole('checkbox', { name: 'Active for Karoo Mutual Insurance' });
    await act(async () => fireEvent.click(active));

    await waitFor(() => expect(callsTo(calls, 'POST', ADMIN_API.group('g1'))).toHaveLength(1));
    expect(await callsTo(calls, 'POST', ADMIN_API.group('g1'))[0].json()).toEqual({ active: false });
  });

  it('does not save a group without an admin: the not-saved notice shows for 10 s', async () => {
    const calls = answerGroups();
    renderRemote('/services/admin/groups');

    const vat = await screen.findByRole('checkbox', { name: 'Include VAT for Unassigned Brokers' });
    await act(async () => fireEvent.click(vat));

    expect(await screen.findByText(ADMIN_TEXT.groupNotSaved)).toBeTruthy();
    expect(calls.mock.calls.some(([request]) => request.method === 'POST')).toBe(false);
    // The edit stays on screen, to be saved with the admin once one is chosen.
    expect(
      (screen.getByRole('checkbox', { name: 'Include VAT for Unassigned Brokers' }) as HTMLInputElement)
        .checked,
    ).toBe(false);
  });

  it('asks the server for the page, 20 rows by default, sorted by name', async () => {
    const calls = answerGroups();
    renderRemote('/services/admin/groups');
    await screen.findByText('Karoo Mutual Insurance');

    const url = new URL(callsTo(calls, 'GET', ADMIN_API.pageForModel)[0].url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      modelName: 'groups',
      pageNumber: '1',
      pageSize: '20',
      sort: '[["name","asc"]]',
    });
    // The footer offers all six page sizes, though the MIT grid itself stops at 100.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['10', '20', '50', '100', '500', '1000']);
  });
});
