import { createSlice, isAnyOf } from '@reduxjs/toolkit';
import type { SessionUser } from '@portal/contracts';
import { baseApi } from '../api/baseApi';
import { sessionEnded } from '../store/sessionEnded';

export interface AuthState {
  /** The logged-in user, or null when anonymous or not known yet. */
  user: SessionUser | null;
  /** 'unknown' until the first answer about the session (GET users/me) arrives. */
  status: 'unknown' | 'known';
}

const initialState: AuthState = { user: null, status: 'unknown' };

/** The current user, fed by the session calls of the base api. */
export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    userSet(state, action: { payload: SessionUser | null }) {
      state.user = action.payload;
      state.status = 'known';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, () => initialState)
      .addMatcher(
        isAnyOf(
          baseApi.endpoints.me.matchFulfilled,
          baseApi.endpoints.loggedIn.matchFulfilled,
          baseApi.endpoints.login.matchFulfilled,
        ),
        (state, action) => {
          state.user = action.payload;
          state.status = 'known';
        },
      )
      // No answer about the session (identity down): treat the visitor as anonymous rather than wait.
      .addMatcher(baseApi.endpoints.me.matchRejected, (state, action) => {
        if (action.meta.condition) return; // skipped because a request is already running
        state.user = null;
        state.status = 'known';
      });
  },
  selectors: {
    selectCurrentUser: (state) => state.user,
    selectSessionKnown: (state) => state.status === 'known',
  },
});

export const { userSet } = authSlice.actions;
export const { selectCurrentUser, selectSessionKnown } = authSlice.selectors;
