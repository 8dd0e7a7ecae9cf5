import { lazy } from 'react';

export {
  baseApi,
  portalBaseQuery,
  endSession,
  setLoginRedirect,
  adoptEarlySession,
  LOGIN_PATH,
  TAG_TYPES,
  type LoginRedirect,
} from './api/baseApi';
export {
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
} from './api/baseApi';
export { toPortalError, isPortalError, errorMessages, type PortalError } from './api/errors';

export {
  authSlice,
  userSet,
  selectCurrentUser,
  selectSessionStatus,
  type AuthState,
  type SessionStatus,
} from './auth/authSlice';
export { useCurrentUser, type CurrentUser } from './auth/useCurrentUser';
export {
  RequireRole,
  RequireAnonymous,
  RequireService,
  SessionPending,
  useReturnTo,
  type ReturnToState,
} from './auth/guards';
export { useLogout } from './auth/useLogout';

export {
  rootReducer,
  createPortalStore,
  injectSlice,
  useAppDispatch,
  useAppSelector,
  type LazyLoadedSlices,
  type RootState,
  type PortalStore,
  type AppDispatch,
} from './store/store';
export { sessionEnded } from './store/sessionEnded';

export {
  notificationsSlice,
  notify,
  dismissed,
  NOTIFY_DURATION,
  type NotifyRequest,
  type NotificationSeverity,
  type PortalNotification,
} from './notifications/notificationsSlice';
export { NotificationHost, useNotify } from './notifications/NotificationHost';

export { portalTheme } from './theme/theme';
export * from './router';
export * from './state';
export { PortalProviders } from './PortalProviders';

// The maps bring OpenLayers (and the offline base map's data): loaded on first use, never with the
// login page. Render them inside <Suspense>.
export const MapView = lazy(() => import('./map').then((map) => ({ default: map.MapView })));
export const NotFoundMap = lazy(() => import('./map').then((map) => ({ default: map.NotFoundMap })));
export type { MapViewProps, NotFoundMapProps, LatLng } from './map';
// Plain data (no OpenLayers): the built-in satellite base layer, for every map that offers imagery.
export { BUILTIN_SATELLITE_LAYER, SATELLITE_LAYER_ID } from './map/baseLayerConfig';
// For layer components of remotes (children of MapView): the map's context. Types-only imports of
// OpenLayers, so this adds no map code to the first page.
export { useOlMap, useMapLayer, MapLayer, OlMapContext } from './map/MapContext';

export { useDebouncedValue } from './hooks/useDebouncedValue';
export { newIdempotencyKey } from './hooks/newIdempotencyKey';
