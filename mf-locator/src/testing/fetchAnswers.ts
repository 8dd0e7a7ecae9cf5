import { API, type SessionUser } from '@portal/contracts';

/** A JSON answer, as the services send them. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const errorAnswer = (statusCode: number, message: string) =>
  json(statusCode, { statusCode, error: 'Error', message });

type Answer = (request: Request) => Response | Promise<Response>;

/**
 * Replaces fetch with answers by "METHOD /path" (query string ignored); anything else is a 404.
 * Returns the mock, to inspect the calls.
 */
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

export const adminUser = {
  _id: 'u1',
  name: 'Thandiwe Nkosi',
  email: 'admin@portal.test',
  groupID: 'g-ops',
  groupName: 'Portal Operations',
  roles: ['authenticated', 'admin'],
} as SessionUser;

/** GET users/me for the logged-in user. */
export const meAnswer = (user: SessionUser) => ({ [`GET ${API.me}`]: () => json(200, user) });
