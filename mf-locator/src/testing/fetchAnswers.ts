import { API, type SessionUser } from '@portal/contracts';
import { json, servicesAnswer, type Answer } from '@portal/web-kit/testing';

// The fetch answers, the demo session users and the services are web-kit's; the session of a user with
// some of the locator's services is this remote's.
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
  service,
  type Answer,
} from '@portal/web-kit/testing';

/** The logged-in user with these services active. */
export const sessionAnswers = (user: SessionUser, services: string[]): Record<string, Answer> => ({
  [`GET ${API.me}`]: () => json(200, user),
  ...servicesAnswer(services),
});
