import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, Outlet, useCurrentUser, useLocation } from '@portal/web-kit';
import { PATHS } from '../../../paths';
import { INTEGRATION_TEXT as T } from '../../../texts';

const TABS = [
  { path: PATHS.myGroupApiKeys, label: T.tabs.apiKeys },
  { path: PATHS.myGroupWebhooks, label: T.tabs.webhooks },
  { path: PATHS.myGroupUsage, label: T.tabs.usage },
];

/**
 * /services/admin/my-group (issue 22): a group admin's integration — their own group's API keys, webhooks
 * and usage, one tab each above the page (each tab is a link, so the address says which one is open and
 * the browser's back button works). The pages themselves keep a group's admin to their own group.
 */
export function MyGroupLayout() {
  const { pathname } = useLocation();
  const { user } = useCurrentUser();
  const current =
    TABS.find((tab) => pathname === tab.path || pathname.startsWith(`${tab.path}/`))?.path ?? false;
  return (
    <>
      <Container maxWidth={false} sx={{ pt: 2, maxWidth: 1680 }}>
        {/* MUI's nav tabs: links in a tab list, the open one marked as the current page. */}
        <Box component="nav" aria-label={T.navLabel(user?.groupName)}>
          <Tabs
            value={current}
            aria-label={T.navLabel(user?.groupName)}
            sx={{ borderBottom: 1, borderColor: 'divider' }}
          >
            {TABS.map((tab) => (
              <Tab
                key={tab.path}
                value={tab.path}
                label={tab.label}
                component={RouterLink}
                to={tab.path}
                aria-current={tab.path === current ? 'page' : undefined}
              />
            ))}
          </Tabs>
        </Box>
      </Container>
      <Outlet />
    </>
  );
}
