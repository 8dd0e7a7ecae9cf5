import { act, screen, waitFor, within } from '@testing-library/react';
import { API } from '@portal/contracts';
import { ACCOUNT_TEXT, TEXT, TIMING } from '@portal/domain';
import { answerFetch, errorAnswer, json } from '../../testing/fetchAnswers';
import { fillIn, press } from '../../testing/forms';
import { renderPortal } from '../../testing/renderPortal';
import { meAnswer } from '../../testing/session';

async function chooseNewPassword(password = 'Karoo-sunset-7') {
  await fillIn('New Password', password);
  await fillIn('Confirm Password', password);
  await press('Update password');
}

describe('forgot password', () => {
  it('gives the same neutral answer for any address', async () => {
    const calls = answerFetch({
      ...meAnswer(null),
      [`POST ${API.forgotPassword}`]: () => json(200, { message: ACCOUNT_TEXT.resetMailSent }),
    });
    renderPortal({ at: '/forgot-password' });

    await fillIn('Email', 'Nobody@Example.co.za');
    await press('Send reset link');

    expect(await screen.findByText(ACCOUNT_TEXT.resetMailSent)).toBeTruthy();
    const [request] = calls.mock.calls.map(([call]) => call).filter((call) => call.method === 'POST');
    expect(await request.json()).toEqual({ email: 'nobody@example.co.za' });
  });
});

describe('reset by token (/reset/{tokenId})', () => {
  it("turns the service's 'Token invalid or expired' into the spec sentence", async () => {
    answerFetch({
      ...meAnswer(null),
      [`POST ${API.resetByToken('tok-1')}`]: () => errorAnswer(400, TEXT.tokenInvalidOrExpired),
    });
    renderPortal({ at: '/reset/tok-1' });

    await chooseNewPassword();

    expect(await screen.findByText(TEXT.resetInvalidToken)).toBeTruthy();
  });

  it('shows other refusals as validation messages', async () => {
    answerFetch({
      ...meAnswer(null),
      [`POST ${API.resetByToken('tok-1')}`]: () =>
        errorAnswer(400, ACCOUNT_TEXT.commonPassword, [ACCOUNT_TEXT.commonPassword]),
    });
    renderPortal({ at: '/reset/tok-1' });

    await chooseNewPassword('Sunny-Karoo-99');

    expect(await screen.findByText(ACCOUNT_TEXT.commonPassword)).toBeTruthy();
  });

  it('confirms the new password', async () => {
    answerFetch({
      ...meAnswer(null),
      [`POST ${API.resetByToken('tok-1')}`]: () => json(200, { message: ACCOUNT_TEXT.passwordUpdated }),
    });
    renderPortal({ at: '/reset/tok-1' });

    await chooseNewPassword();

    expect(await screen.findByText(ACCOUNT_TEXT.passwordUpdated)).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      '/auth/login',
    );
  });
});

describe('password reset callback (/password-reset?key=…)', () => {
  afterEach(() => jest.useRealTimers());

  it('sends the key with the new password, then goes to /login (the login page) after 4 seconds', async () => {
    jest.useFakeTimers();
    const calls = answerFetch({
      ...meAnswer(null),
      [`POST ${API.passwordResetCallback}`]: () => json(200, { message: ACCOUNT_TEXT.passwordUpdated }),
    });
    const { router } = renderPortal({ at: '/password-reset?key=k-123' });

    await chooseNewPassword();

    expect(await screen.findByText(ACCOUNT_TEXT.passwordUpdated)).toBeTruthy();
    const [request] = calls.mock.calls.map(([call]) => call).filter((call) => call.method === 'POST');
    expect(await request.json()).toEqual({
      key: 'k-123',
      password: 'Karoo-sunset-7',
      confirmPassword: 'Karoo-sunset-7',
    });

    act(() => jest.advanceTimersByTime(TIMING.resetCallbackRedirectMs - 100));
    expect(router.state.location.pathname).toBe('/password-reset');
    act(() => jest.advanceTimersByTime(100));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
  });
});
