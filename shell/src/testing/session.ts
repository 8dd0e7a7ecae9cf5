import { API, type SessionUser } from '@portal/contracts';
import { errorAnswer, json } from './fetchAnswers';

export const thandi = {
  _id: 'u1',
  name: 'Thandi Nkosi',
  email: 'thandi@example.co.za',
  roles: ['authenticated'],
} as SessionUser;

export const admin = {
  ...thandi,
  _id: 'u2',
  name: 'Pieter Admin',
  roles: ['authenticated', 'admin'],
} as SessionUser;

/** The answers of GET users/me for a user, or for an anonymous visitor (401). */
export const meAnswer = (user: SessionUser | null) => ({
  [`GET ${API.me}`]: () => (user ? json(200, user) : errorAnswer(401, 'You need to log in to do that.')),
});

/**
 * A session as identity keeps it: anonymous until `login` or `register` succeeds (identity sets the
 * cookie on both), then GET users/me answers the user.
 */
export function sessionAnswers(user: SessionUser) {
  let loggedIn = false;
  const startSession = (answer: Response) => {
    loggedIn = true;
    return answer;
  };
  return {
    [`GET ${API.me}`]: () =>
      loggedIn ? json(200, user) : errorAnswer(401, 'You need to log in to do that.'),
    [`POST ${API.login}`]: () => startSession(json(200, user)),
    [`POST ${API.register}`]: () => startSession(json(201, { message: 'Registration successful. Welcome!' })),
  };
}
