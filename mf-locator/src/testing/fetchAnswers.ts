import { API, type Service, type SessionUser } from '@portal/contracts';
import { json, type Answer } from '@portal/web-kit/testing';

// The fetch answers and the demo session users are web-kit's; the services here are the locator screens'.
export {
  json,
  text,
  errorAnswer,
  answerFetch,
  callsTo,
  meAnswer,
  sessionUser,
  plainUser,
  adminUser,
  type Answer,
} from '@portal/web-kit/testing';

/** A service of the user's (spec 01 §2): active unless said otherwise. */
export const service = (identifier: string, active = true): Service => ({
  _id: `s-${identifier}`,
  identifier,
  name: identifier.toUpperCase(),
  description: '',
  url: `/${identifier}`,
  image: '',
  active,
  config: { country: 'ZA', centre: { lat: -29, lng: 24.6 }, zoom: 6 },
});

/** The logged-in user with these services active. */
export const sessionAnswers = (user: SessionUser, services: string[]): Record<string, Answer> => ({
  [`GET ${API.me}`]: () => json(200, user),
  [`GET ${API.services}`]: () => json(200, { success: true, services: services.map((id) => service(id)) }),
});
