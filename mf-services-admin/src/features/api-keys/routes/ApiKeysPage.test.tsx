import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { API_KEY_ROUTES, type ApiKey, type ApiKeyList, type SessionUser } from '@portal/contracts';
import { adminUser, answerFetch, callsTo, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { API_KEYS_TEXT as T, SHOWN_ONCE_TEXT } from '../../../texts';

const KEYS = '/api/v1.0/group/g-kmi/api-keys';
const KEY_VALUE = 'ppk_' + 'A'.repeat(43);

/** Johan Botha, the admin of his group (KMI). */
const groupAdmin = {
  ...adminUser,
  _id: 'u6',
  name: 'Johan Botha',
  isAdmin: false,
  groupID: 'g-kmi',
  groupName: 'Karoo Mutual Insurance',
  roles: ['authenticated', 'groupAdmin'],
} as SessionUser;

const key = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  _id: 'k1',
  groupId: 'g-kmi',
  name: 'Policy system',
  prefix: 'ppk_Ab3dE9xZ',
  services: ['savi'],
  scope: 'read',
  roles: [],
  createdBy: 'u1',
  createdByName: 'Thandiwe Nkosi',
  createdAt: '2026-11-20T08:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: '2026-11-27T10:00:00.000Z',
  useCount: 42,
  state: 'active',
  ...overrides,
});

function answerKeys(user: SessionUser, keys: ApiKey[] = [key()]) {
  let list: ApiKeyList = {
    group: { _id: 'g-kmi', name: 'Karoo Mutual Insurance', code: 'KMI', services: ['iris', 'savi'] },
    keys,
    rateLimitPerMinute: 600,
    rateLimitIsDefault: true,
  };
  return answerFetch({
    ...meAnswer(user),
    [`GET ${KEYS}`]: () => json(200, list),
    [`POST ${KEYS}`]: async (request) => {
      const body = (await request.clone().json()) as { name: string; services: string[]; scope: string };
      const created = key({
        _id: 'k2',
        name: body.name,
        services: body.services,
        scope: body.scope,
        prefix: KEY_VALUE.slice(0, 12),
      });
      list = { ...list, keys: [created, ...list.keys] };
      return json(201, { ...created, key: KEY_VALUE });
    },
    [`DELETE ${API_KEY_ROUTES.key.replace(':keyId', 'k1')}`]: () => {
      const revoked = key({ state: 'revoked', revokedAt: '2026-11-28T09:00:00.000Z' });
      list = { ...list, keys: [revoked] };
      return json(200, revoked);
    },
  });
}

const dialog = () => screen.getByRole('dialog');

describe('API keys page (issue 22)', () => {
  it("lists a group's keys with their prefix, creator, last use, calls and state", async () => {
    answerKeys(adminUser);
    renderRemote('/services/admin/groups/g-kmi/api-keys');
    const row = (await screen.findByRole('cell', { name: 'Policy system' })).closest('tr')!;
    const cells = within(row as HTMLElement);
    expect(cells.getByText('ppk_Ab3dE9xZ…')).toBeTruthy();
    expect(cells.getByText(/by Thandiwe Nkosi/)).toBeTruthy();
    expect(cells.getByText('42')).toBeTruthy();
    expect(cells.getByText('Active')).toBeTruthy();
    expect(screen.getByText(T.subtitle('Karoo Mutual Insurance'))).toBeTruthy();
    // An administrator edits the limit.
    expect(screen.getByRole('spinbutton', { name: T.rateLimit })).toBeTruthy();
  });

  it('creates a key with the group’s services and shows it once, with Copy', async () => {
    const calls = answerKeys(groupAdmin);
    renderRemote('/services/admin/my-group/api-keys');
    await screen.findByRole('cell', { name: 'Policy system' });
    // A group's admin sees the limit, and gives no staff roles.
    expect(screen.queryByRole('spinbutton', { name: T.rateLimit })).toBeNull();
    expect(screen.getByText(`${T.rateLimit}: ${T.rateLimitDefault(600)}`)).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.createKey })));
    expect(within(dialog()).queryByRole('group', { name: T.roles })).toBeNull();
    // Only the group's services are offered.
    expect(within(dialog()).getByRole('checkbox', { name: 'iris' })).toBeTruthy();
    expect(within(dialog()).queryByRole('checkbox', { name: 'avs' })).toBeNull();

    fireEvent.change(within(dialog()).getByRole('textbox', { name: /Name/ }), {
      target: { value: 'Claims intake' },
    });
    fireEvent.click(within(dialog()).getByRole('checkbox', { name: 'iris' }));
    fireEvent.click(within(dialog()).getByRole('radio', { name: T.write }));
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: T.create })));

    expect(await screen.findByText(T.newKeyWarning)).toBeTruthy();
    expect((screen.getByDisplayValue(KEY_VALUE) as HTMLInputElement).readOnly).toBe(true);
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: SHOWN_ONCE_TEXT.copy })));
    expect(writeText).toHaveBeenCalledWith(KEY_VALUE);
    const [post] = callsTo(calls, 'POST', KEYS);
    expect(await post.json()).toEqual({
      name: 'Claims intake',
      services: ['iris'],
      scope: 'write',
      expiresAt: null,
    });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: SHOWN_ONCE_TEXT.done })));
    await waitFor(() => expect(screen.queryByDisplayValue(KEY_VALUE)).toBeNull());
    // The list shows the new key by its prefix, never the key.
    expect(await screen.findByRole('cell', { name: 'Claims intake' })).toBeTruthy();
    expect(screen.queryByText(KEY_VALUE)).toBeNull();
  });

  it('says what is missing before creating, and refuses a past expiry', async () => {
    const calls = answerKeys(adminUser);
    renderRemote('/services/admin/groups/g-kmi/api-keys');
    await screen.findByRole('cell', { name: 'Policy system' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.createKey })));
    fireEvent.change(within(dialog()).getByLabelText(T.expires), { target: { value: '2020-01-01' } });
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: T.create })));
    expect(within(dialog()).getByText(T.nameRequired)).toBeTruthy();
    expect(within(dialog()).getByText(T.servicesRequired)).toBeTruthy();
    expect(within(dialog()).getByText(T.expiryPast)).toBeTruthy();
    expect(callsTo(calls, 'POST', KEYS)).toHaveLength(0);
    // An administrator may give staff roles.
    expect(within(dialog()).getByRole('checkbox', { name: 'saviOperator' })).toBeTruthy();
  });

  it('revokes a key after confirming', async () => {
    const calls = answerKeys(adminUser);
    renderRemote('/services/admin/groups/g-kmi/api-keys');
    await screen.findByRole('cell', { name: 'Policy system' });
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: T.revokeLabel('Policy system') })),
    );
    expect(within(dialog()).getByText(T.revokeBody('Policy system', 'ppk_Ab3dE9xZ'))).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: T.revoke })));
    expect(await screen.findByText('Revoked')).toBeTruthy();
    expect(callsTo(calls, 'DELETE', API_KEY_ROUTES.key.replace(':keyId', 'k1'))).toHaveLength(1);
    expect(screen.queryByRole('button', { name: T.revokeLabel('Policy system') })).toBeNull();
  });

  it("keeps a group's admin out of another group's keys", async () => {
    const calls = answerKeys(groupAdmin);
    renderRemote('/services/admin/groups/g-other/api-keys');
    expect(await screen.findByText(T.notYourGroup)).toBeTruthy();
    expect(calls.mock.calls.some(([request]) => request.url.includes('api-keys'))).toBe(false);
  });

  it('sends a group’s admin away from the admin grids', async () => {
    answerKeys(groupAdmin);
    const { router } = renderRemote('/services/admin/groups');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
