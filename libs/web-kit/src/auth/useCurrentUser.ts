import type { SessionUser } from '@portal/contracts';
import { useMeQuery } from '../api/baseApi';
import { useAppSelector } from '../store/store';
import { selectCurrentUser, selectSessionStatus } from './authSlice';

export interface CurrentUser {
  /** The logged-in user, or null (anonymous, or not known yet). */
  user: SessionUser | null;
  /** True until the session has been asked about once. */
  isLoading: boolean;
  isAuthenticated: boolean;
}

/**
 * The current user. Subscribes to GET users/me (fetched once, shared by every caller) and reads the
 * auth slice, which login and log-out update at once.
 */
export function useCurrentUser(): CurrentUser {
  useMeQuery();
  const user = useAppSelector(selectCurrentUser);
  const status = useAppSelector(selectSessionStatus);
  return { user, isLoading: status === 'unknown', isAuthenticated: !!user?.roles.includes('authenticated') };
}
