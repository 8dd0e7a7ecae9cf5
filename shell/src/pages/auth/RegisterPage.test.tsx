import { act, screen, waitFor } from '@testing-library/react';
import { API } from '@portal/contracts';
import { ACCOUNT_TEXT, TIMING } from '@portal/domain';
import { answerFetch, errorAnswer, servicesAnswer } from '../../testing/fetchAnswers';
import { fillIn, press } from '../../testing/forms';
import { renderPortal } from '../../testing/renderPortal';
import { meAnswer, sessionAnswers, thandi } from '../../testing/session';

async function fillInForm(values: {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}) {
  await fillIn('Name', values.name);
  await fillIn('Email', values.email);
  await fillIn('Password', values.password);
  await fillIn('Confirm Password', values.confirmPassword);
}

describe('register page', () => {
  afterEach(() => jest.useRealTimers());

  it('shows the spec message of every empty field', async () => {
    answerFetch(meAnswer(null));
    renderPortal({ at: '/auth/register' });

    await press('Register');

    for (const message of [
      'Name may not be empty.',
      'Email may not be empty.',
      'Password may not be empty.',
      'Confirm Password may not be empty.',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
  });

  it('checks the e-mail, the password length and the confirmation', async () => {
    answerFetch(meAnswer(null));
    renderPortal({ at: '/auth/register' });

    await fillInForm({
      name: 'Thandi',
      email: 'not-an-address',
      password: 'short',
      confirmPassword: 'other',
    });
    await press('Register');

    expect(await screen.findByText('Email must be a valid email address.')).toBeTruthy();
    expect(screen.getByText('Password must be between 8-30 characters long.')).toBeTruthy();
    expect(screen.getByText('Confirm Password must be equal to Password.')).toBeTruthy();
  });

  it("lists the service's messages when it refuses", async () => {
    answerFetch({
      ...meAnswer(null),
      [`POST ${API.register}`]: () =>
        errorAnswer(400, 'Please correct the highlighted fields.', ['First problem.', 'Second problem.']),
    });
    renderPortal({ at: '/auth/register' });

    await fillInForm({
      name: 'Thandi',
      email: 'thandi@example.co.za',
      password: 'Karoo-sunset-7',
      confirmPassword: 'Karoo-sunset-7',
    });
    await press('Register');

    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['First problem.', 'Second problem.']);
  });

  it('shows a single message as it is', async () => {
    answerFetch({
      ...meAnswer(null),
      [`POST ${API.register}`]: () => errorAnswer(409, ACCOUNT_TEXT.emailTaken),
    });
    renderPortal({ at: '/auth/register' });

    await fillInForm({
      name: 'Thandi',
      email: 'thandi@example.co.za',
      password: 'Karoo-sunset-7',
      confirmPassword: 'Karoo-sunset-7',
    });
    await press('Register');

    expect(await screen.findByText(ACCOUNT_TEXT.emailTaken)).toBeTruthy();
  });

  it('shows the message, then goes to the earlier URL after 2 seconds', async () => {
    jest.useFakeTimers();
    answerFetch({
      ...sessionAnswers(thandi),
      ...servicesAnswer([]),
    });
    const { router } = renderPortal({
      at: { pathname: '/auth/register', state: { from: { pathname: '/', search: '?after=register' } } },
    });

    await fillInForm({
      name: 'Thandi',
      email: 'Thandi@Example.co.za',
      password: 'Karoo-sunset-7',
      confirmPassword: 'Karoo-sunset-7',
    });
    await press('Register');

    expect(await screen.findByText(ACCOUNT_TEXT.registered)).toBeTruthy();
    act(() => jest.advanceTimersByTime(TIMING.registerRedirectMs - 100));
    expect(router.state.location.pathname).toBe('/auth/register');

    act(() => jest.advanceTimersByTime(100));
    await waitFor(() => expect(router.state.location.search).toBe('?after=register'));
    expect(router.state.location.pathname).toBe('/');
  });
});
