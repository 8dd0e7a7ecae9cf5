import { screen, waitFor } from '@testing-library/react';
import { ADMIN_API, type SessionUser } from '@portal/contracts';
import { adminUser, answerFetch, json, meAnswer } from './testing/fetchAnswers';
import { renderRemote } from './testing/renderRemote';

const ratesEditor = {
  ...adminUser,
  _id: 'u4',
  name: 'Sipho Dlamini',
  groupID: 'g1',
  groupName: 'Karoo Mutual Insurance',
  roles: ['authenticated', 'ratesEditor'],
} as SessionUser;

describe('the remote’s guards (spec 03 §2, §6)', () => {
  it.each(['/services/admin', '/services/admin/users', '/services/admin/groups'])(
    'sends a rates editor who is not an admin from %s to /',
    async (path) => {
      answerFetch(meAnswer(ratesEditor));
      const { router } = renderRemote(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    },
  );

  it('opens the rates editor to a rates editor', async () => {
    answerFetch({
      ...meAnswer(ratesEditor),
      [`GET ${ADMIN_API.rates('g1')}`]: () => json(200, { success: true, groupID: 'g1', rates: [] }),
    });
    renderRemote('/services/admin/rates/?groupID=g1');
    expect(await screen.findByText('Rate table of Karoo Mutual Insurance')).toBeTruthy();
  });

  it('shows an admin the services-administration screen', async () => {
    answerFetch({
      ...meAnswer(adminUser),
      [`GET ${ADMIN_API.pageForModel}`]: () => json(200, { docs: [], total: 0 }),
    });
    renderRemote('/services/admin');
    expect(await screen.findByRole('heading', { name: 'Services administration' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rates editor' })).toBeTruthy();
  });
});
