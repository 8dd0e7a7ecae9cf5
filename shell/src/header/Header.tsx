import { NavLink, Link as RouterLink, useLocation } from '@portal/web-kit';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { canAccess, HEADER_MENU } from '@portal/domain';
import { useCurrentUser, useLogout, useMenuQuery, type ReturnToState } from '@portal/web-kit';
import { NotificationBell } from '../notifications/NotificationBell';

/**
 * The frame's top bar: the header menu (GET /admin/menu/header, filtered by the user's roles; spec 03),
 * the notification bell (issue 24), the user's name and Log out, or Log in / Register for an anonymous visitor.
 */
export function Header() {
  const { user, isLoading } = useCurrentUser();
  // Until (or unless) the menu service answers, the spec's own header menu stands in.
  const { data: menu = HEADER_MENU } = useMenuQuery('header');
  const entries = menu.filter((entry) => canAccess(user, entry.roles));

  return (
    <AppBar position="sticky" color="primary">
      <Toolbar sx={{ gap: 2 }}>
        <Typography
          component={RouterLink}
          to="/"
          variant="h6"
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, whiteSpace: 'nowrap' }}
        >
          Property Portal
        </Typography>
        <Box
          component="nav"
          aria-label="Main"
          sx={{ display: 'flex', gap: 0.5, flexGrow: 1, overflowX: 'auto' }}
        >
          {entries.map((entry) => (
            <Button
              key={entry.path}
              component={NavLink}
              to={entry.path}
              end={entry.path === '/'}
              color="inherit"
              sx={{ whiteSpace: 'nowrap', '&.active': { bgcolor: 'rgba(255, 255, 255, 0.14)' } }}
            >
              {entry.label}
            </Button>
          ))}
        </Box>
        {!isLoading && (user ? <UserActions name={user.name} /> : <AnonymousActions />)}
      </Toolbar>
    </AppBar>
  );
}

function UserActions({ name }: { name: string }) {
  const logout = useLogout();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      <NotificationBell />
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }} data-testid="current-user-name">
        {name}
      </Typography>
      <Button color="inherit" variant="outlined" size="small" onClick={() => void logout()}>
        Log out
      </Button>
    </Box>
  );
}

function AnonymousActions() {
  const location = useLocation();
  // Come back here after logging in; from one account page to another, keep the page to come back to.
  const state = isAccountPage(location.pathname)
    ? (location.state as ReturnToState | null)
    : { from: location };
  return (
    <Box sx={{ display: 'flex', gap: 1 }}>
      <Button
        component={RouterLink}
        to="/auth/login"
        state={state}
        color="inherit"
        variant="outlined"
        size="small"
      >
        Log in
      </Button>
      <Button component={RouterLink} to="/auth/register" state={state} color="inherit" size="small">
        Register
      </Button>
    </Box>
  );
}

const ACCOUNT_PAGES = ['/auth', '/forgot-password', '/reset', '/password-reset'];
const isAccountPage = (pathname: string) =>
  ACCOUNT_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`));
