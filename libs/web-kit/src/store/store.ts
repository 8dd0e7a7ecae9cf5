import {
  combineSlices,
  configureStore,
  type Slice,
  type SliceCaseReducers,
  type SliceSelectors,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { baseApi } from '../api/baseApi';
import { authSlice } from '../auth/authSlice';
import { notificationsSlice } from '../notifications/notificationsSlice';
import { sessionEnded } from './sessionEnded';

/**
 * Slices that remotes inject at run time. A remote declares its slice's state here so RootState knows it:
 *
 *     declare module '@portal/web-kit' {
 *       interface LazyLoadedSlices { requestsAdmin: RequestsAdminState }
 *     }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

/** The one root reducer of the portal; remotes add to it with injectSlice (or slice.injectInto). */
export const rootReducer = combineSlices(
  baseApi,
  authSlice,
  notificationsSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/**
 * sessionEnded returns every slice except the api cache to its initial state (injected slices included,
 * without each having to handle the action); the api cache is reset by its own action, which its
 * middleware must see too (see endSession).
 */
function portalReducer(state: RootState | undefined, action: UnknownAction): RootState {
  if (state && sessionEnded.match(action)) {
    return rootReducer({ [baseApi.reducerPath]: state[baseApi.reducerPath] }, action);
  }
  return rootReducer(state, action);
}

/** Creates the store (the shell makes one; tests make one each). */
export function createPortalStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: portalReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(baseApi.middleware),
  });
}

export type PortalStore = ReturnType<typeof createPortalStore>;
export type AppDispatch = PortalStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/**
 * Adds a remote's slice to the one store and returns it with selectors that accept RootState (they
 * answer the initial state until the slice's first action).
 */
export function injectSlice<
  State,
  CaseReducers extends SliceCaseReducers<State>,
  Name extends string,
  ReducerPath extends string,
  Selectors extends SliceSelectors<State>,
>(slice: Slice<State, CaseReducers, Name, ReducerPath, Selectors>) {
  return slice.injectInto(rootReducer);
}
