import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { canAccess } from '@portal/domain';
import { useAppSelector } from '../store/store';
import { selectSessionStatus } from './authSlice';
import { useServicesQuery } from '../api/baseApi';
import { useCurrentUser } from './useCurrentUser';

/** Router state the portal passes along: where to go back to after logging in. */
export interface ReturnToState {
  from?: { pathname: string; search?: string; hash?: string };
}

/** The earlier URL kept in the location state, or '/'. */
export function useReturnTo(): string {
  const { state } = useLocation() as { state: ReturnToState | null };
  const from = state?.from;
  return from ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '/';
}

/** Shown while the session is being asked about. */
export function SessionPending() {
  return (
    <Box sx={{ maxWidth: 320, mx: 'auto', py: 8 }}>
      <LinearProgress aria-label="Checking your session" />
    </Box>
  );
}

/**
 * Lets the user in when they hold one of `roles` ('authenticated' for any logged-in user, 'anonymous'
 * for anyone; see canAccess); everyone else goes to '/' (spec 03 §2). A UI courtesy: the services
 * enforce the same roles.
 */
export function RequireRole({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const status = useAppSelector(selectSessionStatus);
  // A page that was open when the session ended (log-out, 401) is being left for the login page:
  // sending the user to '/' as well would cancel that. A page opened afterwards is guarded as usual.
  const [openBeforeSessionEnded] = useState(status !== 'ended');
  if (isLoading || (status === 'ended' && openBeforeSessionEnded)) return <SessionPending />;
  if (!canAccess(user, roles)) return <Navigate to="/" replace />;
  return children;
}

/**
 * The account pages are refused to a logged-in user (spec 01 §2), who goes back to the page they came
 * from, or '/'. So a successful login lands on the earlier URL from here.
 */
export function RequireAnonymous({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const returnTo = useReturnTo();
  if (isLoading) return <SessionPending />;
  if (user) return <Navigate to={returnTo} replace />;
  return children;
}

/**
 * Lets a logged-in user in when one of their services (their own and their group's, GET
 * /api/v1.0/services) with one of `identifiers` is active; everyone else goes to '/' (spec 01 §2: "redirects
 * to home if the user is not authenticated or no service is active"; spec 03 §2). A UI courtesy: the
 * services check the session on every call.
 */
export function RequireService({
  identifiers,
  children,
}: {
  identifiers: readonly string[];
  children: ReactNode;
}) {
  const { user, isLoading } = useCurrentUser();
  const services = useServicesQuery(undefined, { skip: !user });
  if (isLoading || (user && services.isLoading)) return <SessionPending />;
  if (!user) return <Navigate to="/" replace />;
  const active = (services.data ?? []).some(
    (service) => service.active && identifiers.includes(service.identifier),
  );
  if (!active) return <Navigate to="/" replace />;
  return children;
}
