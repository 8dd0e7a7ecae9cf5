import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN_API, USAGE_ROUTES, WEBHOOK_API, type ApiKeyList } from '@portal/contracts';
import { sessionUser } from '@portal/web-kit/testing';
import { adminUser, answerFetch, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { API_KEYS_TEXT, INTEGRATION_TEXT, USAGE_TEXT, WEBHOOKS_TEXT } from '../../../texts';

const GROUP = 'g-kmi';
const KMI = { _id: GROUP, name: 'Karoo Mutual Insurance', code: 'KMI', services: ['avs', 'savi'] };

/** Lerato Mokoena, KMI's admin (not a portal admin). */
const groupAdmin = sessionUser({
  _id: 'u5',
  name: 'Lerato Mokoena',
  email: 'claims@portal.test',
  claimsUser: true,
  roles: ['authenticated', 'groupAdmin'],
});

function answerIntegration(user = groupAdmin) {
  const keys: ApiKeyList = { group: KMI, keys: [], rateLimitPerMinute: 600, rateLimitIsDefault: true };
  return answerFetch({
    ...meAnswer(user),
    [`GET /api/v1.0/group/${GROUP}/api-keys`]: () => json(200, keys),
    [`GET ${WEBHOOK_API.groupWebhooks(GROUP)}`]: () =>
      json(200, { group: { _id: GROUP, name: KMI.name }, endpoints: [] }),
    [`GET ${USAGE_ROUTES.usage}`]: () =>
      json(200, { month: '2026-03', groupId: GROUP, days: [], rows: [], totals: {} }),
    [`GET ${ADMIN_API.pageForModel}`]: () => json(200, { docs: [], total: 0 }),
  });
}

const tabs = () => screen.getByRole('navigation', { name: INTEGRATION_TEXT.navLabel(KMI.name) });

describe("a group admin's integration page (issue 22)", () => {
  it('opens on the API keys tab, and its tabs lead to the webhooks and the usage of the own group', async () => {
    answerIntegration();
    const { router } = renderRemote('/services/admin/my-group');
    await waitFor(() => expect(router.state.location.pathname).toBe('/services/admin/my-group/api-keys'));
    expect(await screen.findByRole('heading', { name: API_KEYS_TEXT.title })).toBeTruthy();
    expect(within(tabs()).getByRole('tab', { name: API_KEYS_TEXT.title }).getAttribute('aria-current')).toBe(
      'page',
    );

    await act(async () => fireEvent.click(within(tabs()).getByRole('tab', { name: WEBHOOKS_TEXT.title })));
    expect(router.state.location.pathname).toBe('/services/admin/my-group/webhooks');
    expect(await screen.findByText(WEBHOOKS_TEXT.noEndpoints)).toBeTruthy();
    expect(screen.getByText(WEBHOOKS_TEXT.subtitle(KMI.name))).toBeTruthy();

    await act(async () => fireEvent.click(within(tabs()).getByRole('tab', { name: USAGE_TEXT.title })));
    expect(router.state.location.pathname).toBe('/services/admin/my-group/usage');
    expect(await screen.findByText(USAGE_TEXT.nothing('2026-03'))).toBeTruthy();
    expect(within(tabs()).getByRole('tab', { name: USAGE_TEXT.title }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('is no way in for a user who is not a group admin', async () => {
    answerIntegration(sessionUser());
    const { router } = renderRemote('/services/admin/my-group/webhooks');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('gives administrators the usage of every group from the overview', async () => {
    answerIntegration(adminUser);
    renderRemote('/services/admin');
    expect((await screen.findByRole('link', { name: USAGE_TEXT.title })).getAttribute('href')).toBe(
      '/services/admin/usage',
    );
  });
});
