import { API, type Service, type SessionUser } from '@portal/contracts';

/**
 * Fetch answered by "METHOD /path" for the locator remote's screen tests (as mf-services-admin's): the
 * session, the user's services and whatever the screen calls.
 */

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

export const errorAnswer = (statusCode: number, message: string, messages?: string[]) =>
  json(statusCode, { statusCode, error: 'Error', message, ...(messages ? { messages } : {}) });

export type Answer = (request: Request) => Response | Promise<Response>;

/** Replaces fetch with answers by "METHOD /path" (query string ignored); anything else is a 404. */
export function answerFetch(answers: Record<string, Answer>) {
  const mock = jest.fn(async (request: Request) => {
    const answer = answers[`${request.method} ${new URL(request.url).pathname}`];
    return answer ? answer(request) : errorAnswer(404, 'Not found');
  });
  global.fetch = mock as unknown as typeof fetch;
  return mock;
}

/** The requests made to "METHOD /path", in order. */
export const callsTo = (mock: ReturnType<typeof answerFetch>, method: string, path: string) =>
  mock.mock.calls
    .map(([request]) => request)
    .filter((request) => request.method === method && new URL(request.url).pathname === path);

export const plainUser = {
  _id: 'u-user',
  name: 'Johan Botha',
  email: 'user@portal.test',
  groupID: 'g-kmi',
  groupName: 'Khumalo Mutual Insurance',
  roles: ['authenticated'],
} as SessionUser;

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
