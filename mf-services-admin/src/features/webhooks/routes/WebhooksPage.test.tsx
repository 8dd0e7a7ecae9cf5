import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  WEBHOOK_API,
  type SessionUser,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '@portal/contracts';
import { adminUser, answerFetch, callsTo, errorAnswer, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { SHOWN_ONCE_TEXT, WEBHOOKS_TEXT as T } from '../../../texts';

const GROUP = 'g-kmi';
const HOOKS = WEBHOOK_API.groupWebhooks(GROUP);
const SECRET = `whsec_${'A'.repeat(43)}=`;

/** Johan Botha, the admin of his group (KMI). */
const groupAdmin = {
  ...adminUser,
  _id: 'u6',
  name: 'Johan Botha',
  isAdmin: false,
  groupID: GROUP,
  groupName: 'Karoo Mutual Insurance',
  roles: ['authenticated', 'groupAdmin'],
} as SessionUser;

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  _id: 'e1',
  groupId: GROUP,
  url: 'https://claims.example.co.za/hooks',
  description: 'Claims system',
  events: ['request.status_changed'],
  enabled: true,
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  createdBy: 'Thandiwe Nkosi',
  createdAt: '2026-11-20T08:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  _id: 'd1',
  eventId: 'msg_0123456789abcdef0123456789abcdef',
  eventType: 'request.status_changed',
  requestId: 'r1',
  status: 'failed',
  attempts: 11,
  lastStatusCode: 500,
  lastError: 'The endpoint answered HTTP 500.',
  lastDurationMs: 87,
  nextAttemptAt: null,
  createdAt: '2026-11-21T08:00:00.000Z',
  deliveredAt: null,
  attemptList: [{ at: '2026-11-21T08:00:00.000Z', statusCode: 500, durationMs: 87, error: 'HTTP 500' }],
  ...overrides,
});

function answerHooks(user: SessionUser) {
  let list: WebhookEndpointList = {
    group: { _id: GROUP, name: 'Karoo Mutual Insurance' },
    endpoints: [endpoint()],
  };
  return answerFetch({
    ...meAnswer(user),
    [`GET ${HOOKS}`]: () => json(200, list),
    [`POST ${HOOKS}`]: async (request) => {
      const body = (await request.clone().json()) as { url: string; events: string[] };
      if (body.url.includes('10.0.0.1'))
        return errorAnswer(
          400,
          'The webhook URL resolves to 10.0.0.1, a private, loopback or link-local address.',
        );
      const created = endpoint({ _id: 'e2', url: body.url, events: body.events });
      list = { ...list, endpoints: [...list.endpoints, created] };
      return json(201, { ...created, secret: SECRET });
    },
    [`PUT ${WEBHOOK_API.endpoint(GROUP, 'e1')}`]: async (request) => {
      const body = (await request.clone().json()) as { enabled?: boolean };
      const changed = endpoint({ enabled: body.enabled ?? true });
      list = { ...list, endpoints: [changed] };
      return json(200, changed);
    },
    [`POST ${WEBHOOK_API.rotateSecret(GROUP, 'e1')}`]: () => json(200, { ...endpoint(), secret: SECRET }),
    [`GET ${WEBHOOK_API.deliveries(GROUP, 'e1')}`]: () =>
      json(200, { deliveries: [delivery()], total: 1, page: 1, pageSize: 25 }),
    [`POST ${WEBHOOK_API.redeliver(GROUP, 'e1', 'd1')}`]: () => json(202, { eventId: delivery().eventId }),
  });
}

const dialog = () => screen.getByRole('dialog');

describe('webhooks page (issue 22)', () => {
  it("lists a group's endpoints and adds one, showing its secret once with Copy", async () => {
    const calls = answerHooks(adminUser);
    renderRemote(`/services/admin/groups/${GROUP}/webhooks`);
    expect(await screen.findByRole('cell', { name: 'https://claims.example.co.za/hooks' })).toBeTruthy();
    expect(screen.getByText(T.subtitle('Karoo Mutual Insurance'))).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.addEndpoint })));
    fireEvent.change(within(dialog()).getByRole('textbox', { name: /URL/ }), {
      target: { value: 'https://policy.example.co.za/hook' },
    });
    // Every event is ticked at first; one unticked.
    fireEvent.click(within(dialog()).getByRole('checkbox', { name: /report\.ready/ }));
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: T.form.create })));

    expect(await screen.findByText(T.secret.warning)).toBeTruthy();
    expect((screen.getByDisplayValue(SECRET) as HTMLInputElement).readOnly).toBe(true);
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: SHOWN_ONCE_TEXT.copy })));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    const [post] = callsTo(calls, 'POST', HOOKS);
    expect(await post.json()).toEqual({
      url: 'https://policy.example.co.za/hook',
      description: '',
      events: ['request.created', 'request.status_changed'],
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: SHOWN_ONCE_TEXT.done })));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());
    expect(await screen.findByRole('cell', { name: 'https://policy.example.co.za/hook' })).toBeTruthy();
  });

  it("shows the service's refusal of a private target in the dialog", async () => {
    answerHooks(adminUser);
    renderRemote(`/services/admin/groups/${GROUP}/webhooks`);
    await screen.findByRole('cell', { name: 'https://claims.example.co.za/hooks' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.addEndpoint })));
    fireEvent.change(within(dialog()).getByRole('textbox', { name: /URL/ }), {
      target: { value: 'http://10.0.0.1/hook' },
    });
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: T.form.create })));
    expect(await within(dialog()).findByText(/private, loopback or link-local/)).toBeTruthy();
  });

  it('disables an endpoint and rotates its secret from its actions menu', async () => {
    const calls = answerHooks(groupAdmin);
    renderRemote(`/services/admin/groups/${GROUP}/webhooks`);
    await screen.findByRole('cell', { name: 'https://claims.example.co.za/hooks' });
    const menu = () =>
      screen.getByRole('button', { name: T.actionsFor('https://claims.example.co.za/hooks') });
    await act(async () => fireEvent.click(menu()));
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: T.actions.disable })));
    expect(await screen.findByText(T.state.disabled)).toBeTruthy();
    const [put] = callsTo(calls, 'PUT', WEBHOOK_API.endpoint(GROUP, 'e1'));
    expect(await put.json()).toEqual({ enabled: false });

    await act(async () => fireEvent.click(menu()));
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: T.actions.rotate })));
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: T.rotate })));
    expect(await screen.findByText(T.secret.rotatedTitle)).toBeTruthy();
    expect(screen.getByDisplayValue(SECRET)).toBeTruthy();
  });

  it('lists the deliveries with status, code and duration, and redelivers one', async () => {
    const calls = answerHooks(adminUser);
    renderRemote(`/services/admin/groups/${GROUP}/webhooks`);
    await screen.findByRole('cell', { name: 'https://claims.example.co.za/hooks' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: T.actions.deliveries })));
    const table = await screen.findByRole('table', {
      name: T.deliveries.title('https://claims.example.co.za/hooks'),
    });
    const cells = within(table);
    expect(cells.getByText('Failed')).toBeTruthy();
    expect(cells.getByText('500')).toBeTruthy();
    expect(cells.getByText('87 ms')).toBeTruthy();
    await act(async () =>
      fireEvent.click(cells.getByRole('button', { name: T.deliveries.redeliverLabel(delivery().eventId) })),
    );
    await waitFor(() =>
      expect(callsTo(calls, 'POST', WEBHOOK_API.redeliver(GROUP, 'e1', 'd1'))).toHaveLength(1),
    );
  });

  it("keeps a group's admin out of another group's webhooks", async () => {
    const calls = answerHooks(groupAdmin);
    renderRemote('/services/admin/groups/g-other/webhooks');
    expect(await screen.findByText(T.notYourGroup)).toBeTruthy();
    expect(calls.mock.calls.some(([request]) => request.url.includes('webhooks'))).toBe(false);
  });
});
