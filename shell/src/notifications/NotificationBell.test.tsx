import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NOTIFICATION_ROUTES, type Notification } from '@portal/contracts';
import { answerFetch, json, servicesAnswer } from '../testing/fetchAnswers';
import { renderPortal } from '../testing/renderPortal';
import { meAnswer, thandi } from '../testing/session';

// The not-found page's map is web-kit's (OpenLayers): /requests has no remote in these tests.
jest.mock('@portal/web-kit', () => ({
  ...jest.requireActual('@portal/web-kit'),
  NotFoundMap: () => <div data-testid="not-found-map" />,
}));

// The realtime socket stands in here (jsdom has no server): the test hands it a notification as
// services/requests would push it.
const socketHandlers = new Map<string, (payload: unknown) => void>();
jest.mock('socket.io-client', () => ({
  io: () => ({
    on: (event: string, handler: (payload: unknown) => void) => socketHandlers.set(event, handler),
    close: () => undefined,
  }),
}));

const ready: Notification = {
  id: '0b9c1f3e-8f5a-4a55-9d1e-1b2c3d4e5f60',
  kind: 'report.ready',
  requestId: '5a1d2c3b-0000-4000-8000-000000000001',
  gripReference: 'GRP-2611-000123',
  title: 'The report for GRP-2611-000123 is ready.',
  link: '/requests?grip_reference=GRP-2611-000123',
  createdAt: '2026-11-28T05:00:00.000Z',
  readAt: null,
};

function answers(state: { unread: number; docs: Notification[]; marked: string[][] }) {
  answerFetch({
    ...meAnswer(thandi),
    ...servicesAnswer([]),
    [`GET ${NOTIFICATION_ROUTES.unreadCount}`]: () => json(200, { unread: state.unread }),
    [`GET ${NOTIFICATION_ROUTES.list}`]: () =>
      json(200, { total: state.docs.length, unread: state.unread, docs: state.docs }),
    [`POST ${NOTIFICATION_ROUTES.markRead}`]: async (request: Request) => {
      state.marked.push(((await request.json()) as { ids: string[] }).ids);
      state.unread = 0;
      state.docs = state.docs.map((n) => ({ ...n, readAt: '2026-11-28T05:01:00.000Z' }));
      return json(200, { unread: 0 });
    },
  });
}

describe('the notification bell', () => {
  it('says the unread count, announces a pushed one, and opens it from the keyboard, marking it read', async () => {
    const state = { unread: 0, docs: [] as Notification[], marked: [] as string[][] };
    answers(state);
    const { router } = renderPortal({ at: '/' });
    const bell = await screen.findByRole('button', { name: 'Notifications, none unread' });

    state.unread = 1;
    state.docs = [ready];
    act(() => socketHandlers.get('notification')?.(ready));
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    expect(screen.getByRole('status').textContent).toBe(`New notification: ${ready.title}`);

    // A native button: Enter and Space click it.
    fireEvent.click(bell);
    const menu = await screen.findByRole('menu', { name: 'Notifications' });
    const item = await within(menu).findByRole('menuitem', {
      name: /The report for GRP-2611-000123 is ready/,
    });
    expect(item.textContent).toContain('Unread:');
    await waitFor(() => expect(document.activeElement).toBe(item));
    // The menu item (MUI's ButtonBase) opens on Enter.
    fireEvent.keyDown(item, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.search).toBe('?grip_reference=GRP-2611-000123'));
    expect(router.state.location.pathname).toBe('/requests');
    expect(state.marked).toEqual([[ready.id]]);
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('Notifications, none unread'));
  });
});

describe('the notification settings page', () => {
  it('shows each kind, saves a change at once and turns all off', async () => {
    const sent: unknown[] = [];
    let enabled = true;
    const preferences = () =>
      json(200, {
        preferences: [
          { kind: 'report.ready', label: "My request's report is ready", enabled },
          { kind: 'request.queried', label: 'My request is queried or disputed back to me', enabled: true },
        ],
      });
    answerFetch({
      ...meAnswer(thandi),
      [`GET ${NOTIFICATION_ROUTES.unreadCount}`]: () => json(200, { unread: 0 }),
      [`GET ${NOTIFICATION_ROUTES.preferences}`]: preferences,
      [`PUT ${NOTIFICATION_ROUTES.preferences}`]: async (request: Request) => {
        sent.push(await request.json());
        enabled = false;
        return preferences();
      },
    });
    renderPortal({ at: '/account/notifications' });
    const box = await screen.findByRole('checkbox', { name: "My request's report is ready" });
    expect((box as HTMLInputElement).checked).toBe(true);
    await act(async () => fireEvent.click(box));
    expect(await screen.findByText("My request's report is ready: off.")).toBeTruthy();
    expect(sent).toEqual([{ preferences: { 'report.ready': false } }]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Turn all off' })));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ preferences: { 'report.ready': false, 'request.queried': false } });
  });
});
