import { API, type SessionUser } from '@portal/contracts';

/**
 * A fetch answered by "METHOD /path" for the remotes' screen tests (@portal/web-kit/testing): the screens
 * call the services through web-kit's one RTK Query api, which uses the global fetch.
 */

/** A JSON answer, as the services send them. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A plain-text answer (e.g. PUT /api/v1.0/request/ answers 'created'). */
export const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/** The services' error shape. */
export const errorAnswer = (statusCode: number, message: string, messages?: string[]) =>
  json(statusCode, { statusCode, error: 'Error', message, ...(messages ? { messages } : {}) });

export type Answer = (request: Request) => Response | Promise<Response>;

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

/** GET users/me for the logged-in user. */
export const meAnswer = (user: SessionUser) => ({ [`GET ${API.me}`]: () => json(200, user) });
