import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '@portal/contracts';
import { baseApi } from '../api/baseApi';
import { sessionEnded } from '../store/sessionEnded';

/**
 * - 'unknown': the session has not been asked about yet;
 * - 'known': the answer is in (`user`, or null for an anonymous visitor);
 * - 'ended': this tab ended the session (log-out, or a 401) and is on its way to the login page.
 */
export type SessionStatus = 'unknown' | 'known' | 'ended';

export interface AuthState {
  /** The logged-in user, or null. */
  user: SessionUser | null;
  status: SessionStatus;
}

const initialState: AuthState = { user: null, status: 'unknown' };

/** The current user, fed by the session calls of the base api. */
export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    userSet(state, action: PayloadAction<SessionUser | null>) {
      state.user = action.payload;
      state.status = 'known';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, () => ({ user: null, status: 'ended' }))
      .addMatcher(baseApi.endpoints.login.matchFulfilled, (state, action) => {
        state.user = action.payload;
        state.status = 'known';
      })
      .addMatcher(
        isAnyOf(baseApi.endpoints.me.matchFulfilled, baseApi.endpoints.loggedIn.matchFulfilled),
        (state, action) => {
          state.user = action.payload;
          // "Anonymous" is no news after the session ended here; a user (another tab logged in) is.
          if (action.payload || state.status !== 'ended') state.status = 'known';
        },
      )
      // No answer about the session (identity down): treat the visitor as anonymous rather than wait.
      .addMatcher(baseApi.endpoints.me.matchRejected, (state, action) => {
        if (action.meta.condition) return; // skipped because a request is already running
        state.user = null;
        if (state.status === 'unknown') state.status = 'known';
      });
  },
  selectors: {
    selectCurrentUser: (state) => state.user,
    selectSessionStatus: (state) => state.status,
  },
});

export const { userSet } = authSlice.actions;
export const { selectCurrentUser, selectSessionStatus } = authSlice.selectors;
