/** A JSON answer, as the services send them. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const errorAnswer = (statusCode: number, message: string, messages?: string[]) =>
  json(statusCode, { statusCode, error: 'Error', message, ...(messages ? { messages } : {}) });

type Answer = (request: Request) => Response | Promise<Response>;

/**
 * Replaces fetch with answers by "METHOD /path" (later answers for the same key replace earlier ones).
 * Anything not listed is a 404. Returns the mock, to inspect the calls.
 */
export function answerFetch(answers: Record<string, Answer>) {
  const mock = jest.fn(async (request: Request) => {
    const answer = answers[`${request.method} ${new URL(request.url).pathname}`];
    return answer ? answer(request) : errorAnswer(404, 'Not found');
  });
  global.fetch = mock as unknown as typeof fetch;
  return mock;
}
