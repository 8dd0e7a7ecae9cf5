import { API, type SessionUser } from '@portal/contracts';
import { TEXT } from '@portal/domain';
import { adoptEarlySession, baseApi, setLoginRedirect } from './baseApi';
import { createPortalStore } from '../store/store';
import { selectCurrentUser, userSet } from '../auth/authSlice';

const user = {
  _id: 'u1',
  name: 'Thandi',
  email: 'thandi@example.co.za',
  roles: ['authenticated'],
} as SessionUser;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers fetch by "METHOD path"; anything else is a 404. */
function answerFetch(answers: Record<string, () => Response>) {
  global.fetch = jest.fn(async (request: Request) => {
    const key = `${request.method} ${new URL(request.url).pathname}`;
    return answers[key]?.() ?? json(404, { statusCode: 404, error: 'Not Found', message: 'Not found' });
  }) as unknown as typeof fetch;
}

const testApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    requestsPage: build.query<unknown, void>({ query: () => '/api/v1.0/request/pager/' }),
  }),
});

describe('base api', () => {
  const redirect = jest.fn();
  beforeEach(() => setLoginRedirect(redirect));
  afterEach(() => {
    setLoginRedirect(null);
    redirect.mockReset();
  });

  it('sends a 401 from any call to the login page and ends the session', async () => {
    answerFetch({
      'GET /api/v1.0/request/pager/': () =>
        json(401, { statusCode: 401, error: 'Unauthorized', message: 'Expired' }),
    });
    const store = createPortalStore();
    store.dispatch(userSet(user));

    const result = await store.dispatch(testApi.endpoints.requestsPage.initiate());

    expect(result.error).toEqual({ status: 401, message: 'Expired' });
    await new Promise((settled) => setTimeout(settled));
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(selectCurrentUser(store.getState())).toBeNull();
  });

  it('reads a 401 from users/me as "anonymous", without a redirect', async () => {
    answerFetch({
      [`GET ${API.me}`]: () => json(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }),
    });
    const store = createPortalStore();

    const result = await store.dispatch(baseApi.endpoints.me.initiate());

    expect(result.data).toBeNull();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('does not redirect on a failed login (wrong credentials are a 401 too)', async () => {
    answerFetch({
      [`POST ${API.login}`]: () =>
        json(401, { statusCode: 401, error: 'Unauthorized', message: 'Incorrect' }),
    });
    const store = createPortalStore();

    const result = await store.dispatch(baseApi.endpoints.login.initiate({ email: 'a@b.co', password: 'x' }));

    expect(result.error).toEqual({ status: 401, message: 'Incorrect' });
    expect(redirect).not.toHaveBeenCalled();
  });

  it('turns every error into {status, message, messages?}', async () => {
    answerFetch({
      [`POST ${API.register}`]: () =>
        json(400, {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Name may not be empty.',
          messages: ['Name may not be empty.', 'Email must be a valid email address.'],
        }),
      [`GET ${API.services}`]: () =>
        new Response('upstream down', { status: 502, headers: { 'content-type': 'text/plain' } }),
    });
    const store = createPortalStore();

    const register = await store.dispatch(
      baseApi.endpoints.register.initiate({ name: '', email: 'x', password: 'p', confirmPassword: 'p' }),
    );
    const services = await store.dispatch(baseApi.endpoints.services.initiate());

    expect(register.error).toEqual({
      status: 400,
      message: 'Name may not be empty.',
      messages: ['Name may not be empty.', 'Email must be a valid email address.'],
    });
    expect(services.error).toEqual({ status: 502, message: 'upstream down' });
  });

  it('reports a network failure as status 0 with the spec text', async () => {
    global.fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const store = createPortalStore();

    const result = await store.dispatch(baseApi.endpoints.services.initiate());

    expect(result.error).toEqual({ status: 0, message: TEXT.unknownError });
  });

  it("reads /loggedin's '0' as not logged in", async () => {
    answerFetch({
      [`GET ${API.loggedIn}`]: () => new Response('0', { headers: { 'content-type': 'text/plain' } }),
    });
    const store = createPortalStore();

    const result = await store.dispatch(baseApi.endpoints.loggedIn.initiate());

    expect(result.data).toBeNull();
  });
  describe('the session asked for by the entry script', () => {
    it('answers the first users/me from it, and asks the server for the next', async () => {
      answerFetch({ [`GET ${API.me}`]: () => json(200, { ...user, name: 'From the server' }) });
      adoptEarlySession(Promise.resolve(json(200, user)));
      const store = createPortalStore();

      const first = await store.dispatch(baseApi.endpoints.me.initiate());
      expect(first.data).toEqual(user);
      expect(selectCurrentUser(store.getState())).toEqual(user);
      expect(global.fetch).not.toHaveBeenCalled();

      const again = await store.dispatch(baseApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
      expect(again.data).toEqual({ ...user, name: 'From the server' });
      expect(global.fetch).toHaveBeenCalledTimes(1);
    });

    it('reads its 401 as anonymous', async () => {
      answerFetch({});
      adoptEarlySession(Promise.resolve(json(401, { statusCode: 401, message: 'No session' })));
      const store = createPortalStore();

      const result = await store.dispatch(baseApi.endpoints.me.initiate());

      expect(result.data).toBeNull();
      expect(global.fetch).not.toHaveBeenCalled();
    });

    it('asks the server when the early call failed', async () => {
      answerFetch({ [`GET ${API.me}`]: () => json(200, user) });
      adoptEarlySession(Promise.reject(new TypeError('Failed to fetch')));
      const store = createPortalStore();

      const result = await store.dispatch(baseApi.endpoints.me.initiate());

      expect(result.data).toEqual(user);
      expect(global.fetch).toHaveBeenCalledTimes(1);
    });
  });
});
