import { screen } from '@testing-library/react';
import { WEBHOOK_API, type SessionUser } from '@portal/contracts';
import { adminUser, answerFetch, errorAnswer, meAnswer } from '../testing/fetchAnswers';
import { renderRemote } from '../testing/renderRemote';
import { API_KEYS_TEXT, WEBHOOKS_TEXT } from '../texts';

/**
 * The frame of a group's integration pages, through the pages that use it (its who-may and loading states;
 * the pages' own tests try a group's admin on another group's page).
 */

const KEYS = '/api/v1.0/group/g-hvv/api-keys';

/** An administrator in no group of their own. */
const groupless = { ...adminUser, groupID: null, groupName: null } as unknown as SessionUser;

describe('GroupIntegrationPage', () => {
  it("lets an administrator open any group's page, and says why its list failed to load", async () => {
    const calls = answerFetch({
      ...meAnswer(adminUser),
      [`GET ${KEYS}`]: () => errorAnswer(503, 'The database is busy'),
    });
    renderRemote('/services/admin/groups/g-hvv/api-keys');
    expect(await screen.findByText(`${API_KEYS_TEXT.failedToLoad}: The database is busy`)).toBeTruthy();
    expect(calls.mock.calls.some(([request]) => request.url.endsWith(KEYS))).toBe(true);
  });

  it('shows a spinner named after the page while the list loads', async () => {
    answerFetch({
      ...meAnswer(adminUser),
      [`GET ${WEBHOOK_API.groupWebhooks('g-hvv')}`]: () => new Promise<Response>(() => undefined),
    });
    renderRemote('/services/admin/groups/g-hvv/webhooks');
    expect(await screen.findByRole('progressbar', { name: WEBHOOKS_TEXT.title })).toBeTruthy();
  });

  it('tells a user in no group that there is no group to manage', async () => {
    answerFetch(meAnswer(groupless));
    renderRemote('/services/admin/my-group/api-keys');
    expect(await screen.findByText(API_KEYS_TEXT.noGroup)).toBeTruthy();
  });
});
