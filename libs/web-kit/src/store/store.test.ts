import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '@portal/contracts';
import { baseApi, endSession } from '../api/baseApi';
import { selectCurrentUser, userSet } from '../auth/authSlice';
import { notify } from '../notifications/notificationsSlice';
import { createPortalStore, injectSlice } from './store';

// What a remote does: its own slice and its own endpoints, added to the shell's store and api.
const draftSlice = createSlice({
  name: 'requestDraft',
  initialState: { reference: '' },
  reducers: {
    referenceSet(state, action: PayloadAction<string>) {
      state.reference = action.payload;
    },
  },
  selectors: { selectReference: (state) => state.reference },
});

// ...and tells RootState about it, as a remote does.
declare module './store' {
  interface LazyLoadedSlices {
    requestDraft: ReturnType<typeof draftSlice.getInitialState>;
  }
}

const requestsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    requestCount: build.query<number, void>({ query: () => '/api/v1.0/request/count' }),
  }),
});

describe('portal store', () => {
  beforeEach(() => {
    global.fetch = jest.fn(
      async () => new Response('7', { headers: { 'content-type': 'application/json' } }),
    ) as unknown as typeof fetch;
  });

  it('takes a slice injected after the store was made', () => {
    const store = createPortalStore();
    const injected = injectSlice(draftSlice);

    expect(injected.selectors.selectReference(store.getState())).toBe('');
    store.dispatch(draftSlice.actions.referenceSet('CLAIM-42'));
    expect(injected.selectors.selectReference(store.getState())).toBe('CLAIM-42');
  });

  it('runs injected endpoints through the one api', async () => {
    const store = createPortalStore();

    const result = await store.dispatch(requestsApi.endpoints.requestCount.initiate());

    expect(result.data).toBe(7);
    expect(requestsApi.endpoints.requestCount.select()(store.getState()).data).toBe(7);
    expect(requestsApi).toBe(baseApi);
  });

  it('clears every slice, injected ones too, and the api cache when the session ends', async () => {
    const store = createPortalStore();
    const injected = injectSlice(draftSlice);
    store.dispatch(userSet({ _id: 'u1', name: 'Thandi', roles: ['authenticated'] } as SessionUser));
    store.dispatch(draftSlice.actions.referenceSet('CLAIM-42'));
    store.dispatch(notify({ message: 'Saved' }));
    await store.dispatch(requestsApi.endpoints.requestCount.initiate());

    store.dispatch(endSession());

    const state = store.getState();
    expect(selectCurrentUser(state)).toBeNull();
    expect(injected.selectors.selectReference(state)).toBe('');
    expect(state.notifications.queue).toEqual([]);
    expect(requestsApi.endpoints.requestCount.select()(state).data).toBeUndefined();
  });
});
