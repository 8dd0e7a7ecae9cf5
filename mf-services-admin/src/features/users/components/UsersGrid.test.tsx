import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { ADMIN_API, type AdminUser } from '@portal/contracts';
import { adminUser, answerFetch, callsTo, errorAnswer, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { ADMIN_TEXT } from '../../../texts';

const johan: AdminUser = {
  _id: 'u6',
  name: 'Johan Botha',
  email: 'user@portal.test',
  group: 'g1',
  groupName: 'Karoo Mutual Insurance',
  active: true,
  admin: false,
  ratesEditor: false,
  saviOperator: false,
  saviQC: false,
  claimsUser: false,
  services: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};

function answerUsers(updateAnswer: (request: Request) => Response | Promise<Response>) {
  return answerFetch({
    ...meAnswer(adminUser),
    [`GET ${ADMIN_API.groups}`]: () => json(200, { success: true, groups: [], total: 0 }),
    [`GET ${ADMIN_API.pageForModel}`]: () => json(200, { docs: [johan], total: 1 }),
    [`POST ${ADMIN_API.user('u6')}`]: updateAnswer,
  });
}

const saviOperatorBox = () =>
  screen.findByRole<HTMLInputElement>('checkbox', { name: 'SAVi operator for Johan Botha' });

describe('users grid (spec 03 "Users grid")', () => {
  it('saves a role as soon as its box is ticked', async () => {
    const calls = answerUsers(async () =>
      json(200, { success: true, user: { ...johan, saviOperator: true } }),
    );
    renderRemote('/services/admin/users');

    const box = await saviOperatorBox();
    await act(async () => fireEvent.click(box));

    await waitFor(() => expect(callsTo(calls, 'POST', ADMIN_API.user('u6'))).toHaveLength(1));
    expect(await callsTo(calls, 'POST', ADMIN_API.user('u6'))[0].json()).toEqual({ saviOperator: true });
    expect((await saviOperatorBox()).checked).toBe(true);
  });

  it("puts the row back and says 'Failed to update user' when the save fails", async () => {
    answerUsers(() => errorAnswer(500, 'Internal Server Error'));
    renderRemote('/services/admin/users');

    const box = await saviOperatorBox();
    await act(async () => fireEvent.click(box));

    expect(await screen.findByText(`${ADMIN_TEXT.failedToUpdateUser}: Internal Server Error`)).toBeTruthy();
    await waitFor(async () => expect((await saviOperatorBox()).checked).toBe(false));
  });

  it("heads the claims column 'Santam Claims' and sorts the group column by group name", async () => {
    const calls = answerUsers(() => json(200, { success: true, user: johan }));
    renderRemote('/services/admin/users');

    expect(await screen.findByRole('columnheader', { name: 'Santam Claims' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('columnheader', { name: 'Group' })));

    await waitFor(() => {
      const urls = callsTo(calls, 'GET', ADMIN_API.pageForModel).map((request) => new URL(request.url));
      expect(urls.at(-1)?.searchParams.get('sort')).toBe('[["groupName","asc"]]');
    });
  });
});
