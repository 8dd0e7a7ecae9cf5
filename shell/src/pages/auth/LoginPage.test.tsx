import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { fillIn, press } from '../../testing/forms';
import { API } from '@portal/contracts';
import { ACCOUNT_TEXT, TIMING } from '@portal/domain';
import { answerFetch, errorAnswer, servicesAnswer } from '../../testing/fetchAnswers';
import { renderPortal } from '../../testing/renderPortal';
import { meAnswer, sessionAnswers, thandi } from '../../testing/session';

describe('login page', () => {
  afterEach(() => jest.useRealTimers());

  it('asks for both fields with the spec messages', async () => {
    answerFetch(meAnswer(null));
    renderPortal({ at: '/auth/login' });

    await press('Log in');

    expect(await screen.findByText('Email may not be empty.')).toBeTruthy();
    expect(screen.getByText('Password may not be empty.')).toBeTruthy();
  });

  it('shows a failed login for 2 seconds', async () => {
    jest.useFakeTimers();
    const calls = answerFetch({
      ...meAnswer(null),
      [`POST ${API.login}`]: () => errorAnswer(401, ACCOUNT_TEXT.loginFailed),
    });
    renderPortal({ at: '/auth/login' });

    await fillIn('Email', 'Thandi@Example.co.za');
    await fillIn('Password', 'wrong-password');
    await press('Log in');

    expect(await screen.findByText(ACCOUNT_TEXT.loginFailed)).toBeTruthy();
    const loginCall = calls.mock.calls
      .map(([request]) => request)
      .find((request) => request.method === 'POST');
    expect(await loginCall?.json()).toEqual({ email: 'thandi@example.co.za', password: 'wrong-password' });

    act(() => jest.advanceTimersByTime(TIMING.loginErrorMs - 100));
    expect(screen.getByText(ACCOUNT_TEXT.loginFailed)).toBeTruthy();
    act(() => jest.advanceTimersByTime(100));
    expect(screen.queryByText(ACCOUNT_TEXT.loginFailed)).toBeNull();
  });

  it('sets the user and goes back to the earlier URL', async () => {
    answerFetch({
      ...sessionAnswers(thandi),
      ...servicesAnswer([]),
    });
    const { router } = renderPortal({
      at: { pathname: '/auth/login', state: { from: { pathname: '/', search: '?tab=services' } } },
    });

    await fillIn('Email', 'thandi@example.co.za');
    await fillIn('Password', 'Karoo-sunset-7');
    await press('Log in');

    expect(await screen.findByRole('heading', { name: `Welcome, ${thandi.name}` })).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=services');
    expect(screen.getByTestId('current-user-name').textContent).toBe(thandi.name);
  });

  it('goes to / after logging in when there is no earlier URL', async () => {
    answerFetch({
      ...sessionAnswers(thandi),
      ...servicesAnswer([]),
    });
    const { router } = renderPortal({ at: '/auth/login' });

    await fillIn('Email', 'thandi@example.co.za');
    await fillIn('Password', 'Karoo-sunset-7');
    await press('Log in');

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('links to the request of a reset by e-mail', async () => {
    answerFetch(meAnswer(null));
    const { router } = renderPortal({ at: '/auth/login' });

    fireEvent.click(await screen.findByRole('link', { name: 'Forgot your password?' }));

    expect(await screen.findByRole('heading', { name: 'Forgot password' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/forgot-password');
  });
});
