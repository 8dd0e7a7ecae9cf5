import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';
import type { Dispatch } from '@reduxjs/toolkit';
import {
  API,
  type AuditBody,
  type LoginBody,
  type MenuAnswer,
  type MenuItem,
  type MessageAnswer,
  type NewPasswordBody,
  type PasswordResetCallbackBody,
  type PasswordResetRequestBody,
  type RegisterBody,
  type Service,
  type ServicesAnswer,
  type SessionUser,
} from '@portal/contracts';
import { TEXT } from '@portal/domain';
import { sessionEnded } from '../store/sessionEnded';
import { toPortalError, type PortalError } from './errors';

export const LOGIN_PATH = '/auth/login';

/** How the app gets to the login page after a 401; the shell swaps in its router's navigate. */
export type LoginRedirect = () => void | Promise<void>;
const fullPageLoginRedirect: LoginRedirect = () => window.location.assign(LOGIN_PATH);
let redirectToLogin: LoginRedirect = fullPageLoginRedirect;

export function setLoginRedirect(redirect: LoginRedirect | null): void {
  redirectToLogin = redirect ?? fullPageLoginRedirect;
}

/**
 * Account calls whose 401 is an answer, not an expired session: `me` and `loggedIn` say "anonymous",
 * `login` says "wrong credentials", and the others run on the account pages for anonymous users.
 * Every other 401 ends the session and goes to /auth/login (spec 01 §6).
 */
const ACCOUNT_ENDPOINTS = new Set([
  'me',
  'loggedIn',
  'login',
  'register',
  'logout',
  'forgotPassword',
  'resetByToken',
  'passwordReset',
  'passwordResetCallback',
]);

const fetchWithCookies = fetchBaseQuery({
  credentials: 'include',
  // The spec has answers that are not JSON ('0' from /loggedin, 'created' from PUT /request/).
  responseHandler: 'content-type',
});

/** fetchBaseQuery with the session cookie, the 401 rule and one error shape. */
export const portalBaseQuery: BaseQueryFn<string | FetchArgs, unknown, PortalError> = async (
  args,
  api,
  extra,
) => {
  const result = await fetchWithCookies(args, api, extra);
  if (!result.error) return { data: result.data, meta: result.meta };
  const error = toPortalError(result.error);
  if (error.status === 401 && !ACCOUNT_ENDPOINTS.has(api.endpoint)) {
    // After this call has delivered its error: resetting the cache while it is in flight would drop it.
    setTimeout(() => {
      api.dispatch(endSession());
      void redirectToLogin();
    });
  }
  return { error, meta: result.meta };
};

/**
 * Cache tags shared across the portal; a remote that needs its own adds them with
 * `baseApi.enhanceEndpoints({ addTagTypes: [...] })`.
 */
export const TAG_TYPES = [
  'Me',
  'Menu',
  'Services',
  'Request',
  'Report',
  'User',
  'Group',
  'Rates',
  'IrisReport',
] as const;

/**
 * `GET users/me` started by the shell's entry script, before the app's code has loaded (shell/src/index.ts):
 * the first `me` query answers from it instead of asking again, so the session is known as soon as the
 * code is. Taken once; every later `me` (after a login, a refetch) asks the server.
 */
let earlySession: Promise<Response> | undefined;

export function adoptEarlySession(answer: Promise<Response>): void {
  earlySession = answer;
}

/** The early answer as the `me` query reads it, or undefined to ask the server (none, or it failed). */
async function takeEarlySession(): Promise<{ data: SessionUser | null } | undefined> {
  const answer = earlySession;
  earlySession = undefined;
  if (!answer) return undefined;
  try {
    const response = await answer;
    if (response.status === 401) return { data: null };
    if (!response.ok) return undefined;
    return { data: asSessionUser(await response.json()) };
  } catch {
    return undefined;
  }
}

/** Accepts a user object; anything else (the '0' of /loggedin, an empty body) means "not logged in". */
function asSessionUser(value: unknown): SessionUser | null {
  return typeof value === 'object' && value !== null && typeof (value as SessionUser)._id === 'string'
    ? (value as SessionUser)
    : null;
}

/**
 * The portal's one RTK Query api. The shell's store mounts it; remotes add their calls with
 * `baseApi.injectEndpoints(...)`, one file per endpoint group.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: portalBaseQuery,
  tagTypes: TAG_TYPES,
  endpoints: (build) => ({
    /** The current user, or null for an anonymous visitor (the service answers 401). */
    me: build.query<SessionUser | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const early = await takeEarlySession();
        if (early) return early;
        const result = await baseQuery(API.me);
        if (result.error?.status === 401) return { data: null };
        if (result.error) return { error: result.error };
        return { data: asSessionUser(result.data) };
      },
      providesTags: ['Me'],
    }),
    loggedIn: build.query<SessionUser | null, void>({
      query: () => API.loggedIn,
      transformResponse: asSessionUser,
      providesTags: ['Me'],
    }),
    login: build.mutation<SessionUser, LoginBody>({
      query: (body) => ({ url: API.login, method: 'POST', body }),
      invalidatesTags: ['Me', 'Services'],
    }),
    register: build.mutation<MessageAnswer, RegisterBody>({
      query: (body) => ({ url: API.register, method: 'POST', body }),
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: API.logout, method: 'GET' }),
    }),
    forgotPassword: build.mutation<unknown, { email: string }>({
      query: (body) => ({ url: API.forgotPassword, method: 'POST', body }),
    }),
    resetByToken: build.mutation<MessageAnswer, NewPasswordBody & { tokenId: string }>({
      query: ({ tokenId, ...body }) => ({ url: API.resetByToken(tokenId), method: 'POST', body }),
    }),
    passwordReset: build.mutation<MessageAnswer, PasswordResetRequestBody>({
      query: (body) => ({ url: API.passwordReset, method: 'POST', body }),
    }),
    passwordResetCallback: build.mutation<unknown, PasswordResetCallbackBody>({
      query: (body) => ({ url: API.passwordResetCallback, method: 'POST', body }),
    }),
    /** A named menu's entries (the header menu is 'header'); filter them with canAccess. */
    menu: build.query<MenuItem[], string>({
      query: (name) => API.menu(name),
      transformResponse: (answer: MenuAnswer) => answer.defaultMenu,
      providesTags: (_result, _error, name) => [{ type: 'Menu', id: name }],
    }),
    /** The current user's services (home page tiles). */
    services: build.query<Service[], void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery(API.services);
        if (result.error) return { error: result.error };
        const answer = result.data as ServicesAnswer;
        return answer?.success
          ? { data: answer.services }
          : { error: { status: 200, message: TEXT.failedToLoadServices } };
      },
      providesTags: ['Services'],
    }),
    audit: build.mutation<unknown, AuditBody>({
      query: (body) => ({ url: API.audit, method: 'POST', body }),
    }),
  }),
});

/** Ends the session in the store: every slice back to its initial state and the api cache emptied. */
export const endSession = () => (dispatch: Dispatch) => {
  dispatch(sessionEnded());
  dispatch(baseApi.util.resetApiState());
};

export const {
  useMeQuery,
  useLoggedInQuery,
  useLoginMutation,
  useRegisterMutation,
  useLogoutMutation,
  useForgotPasswordMutation,
  useResetByTokenMutation,
  usePasswordResetMutation,
  usePasswordResetCallbackMutation,
  useMenuQuery,
  useServicesQuery,
  useAuditMutation,
} = baseApi;
