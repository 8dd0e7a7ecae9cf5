import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import SvgIcon from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import type { Notification } from '@portal/contracts';
import { formatSaDateTime } from '@portal/domain';
import { Link as RouterLink, useNavigate } from '@portal/web-kit';
import {
  useMarkAllNotificationsReadMutation,
  useMarkNotificationsReadMutation,
  useNotificationsQuery,
  useUnreadNotificationsQuery,
} from './notificationsApi';
import { useNotificationSocket } from './useNotificationSocket';

/** The bell's list shows the newest few; the rest are a page further (the API pages them). */
const SHOWN = 10;

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Material's "notifications" bell (Apache 2.0), drawn here: the portal ships no icon package. */
function BellIcon() {
  return (
    <SvgIcon aria-hidden="true">
      <path d="M12 22c1.1 0 2-.9 2-2h-4c0 1.1.89 2 2 2zm6-6v-5c0-3.07-1.64-5.64-4.5-6.32V4c0-.83-.67-1.5-1.5-1.5s-1.5.67-1.5 1.5v.68C7.63 5.36 6 7.92 6 11v5l-2 2v1h16v-1l-2-2z" />
    </SvgIcon>
  );
}

export const bellLabel = (unread: number) =>
  unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;

/**
 * The header's bell (issue 24): the signed-in person's unread count (in the button's name), a menu of the
 * newest notifications (arrow keys move, Enter opens the request and marks it read, Escape closes and
 * gives focus back), "Mark all read" and the settings page. New ones come on the realtime socket and are
 * announced in a polite live region.
 */
export function NotificationBell() {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The menu opens once the list is read afresh, so it opens with the newest one focused (MUI focuses the
  // first item at opening only: a list arriving after would leave focus on 'Mark all read').
  const [listRead, setListRead] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const navigate = useNavigate();
  const { data: count } = useUnreadNotificationsQuery();
  const list = useNotificationsQuery({ limit: SHOWN });
  const page = list.data;
  const [markRead] = useMarkNotificationsReadMutation();
  const [markAllRead] = useMarkAllNotificationsReadMutation();
  useNotificationSocket(true, (notification) => setAnnouncement(`New notification: ${notification.title}`));
  const unread = count?.unread ?? 0;
  const close = () => setAnchor(null);
  const menuOpen = anchor !== null && listRead;
  const openMenu = (button: HTMLElement) => {
    setAnchor(button);
    setListRead(false);
    void Promise.resolve(list.refetch()).finally(() => setListRead(true));
  };

  // A menu's keys (WAI-ARIA menu pattern): arrows move between the enabled items, Home/End to the ends.
  const listRef = useRef<HTMLUListElement>(null);
  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    const items = Array.from(
      event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])'),
    );
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'ArrowDown'
        ? items[(at + 1) % items.length]
        : event.key === 'ArrowUp'
          ? items[(at - 1 + items.length) % items.length]
          : event.key === 'Home'
            ? items[0]
            : event.key === 'End'
              ? items[items.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    next.focus();
  };

  const open = (notification: Notification) => {
    close();
    if (!notification.readAt) void markRead([notification.id]);
    navigate(notification.link);
  };

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={bellLabel(unread)}
        aria-haspopup="menu"
        aria-controls={menuOpen ? menuId : undefined}
        aria-expanded={menuOpen ? 'true' : undefined}
        aria-busy={anchor !== null && !listRead ? 'true' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => openMenu(event.currentTarget)}
        data-testid="notification-bell"
      >
        <Badge badgeContent={unread} color="error" max={99}>
          <BellIcon />
        </Badge>
      </IconButton>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
      {/* Not MUI's Menu/MenuItem: a shared module the shell provides is used by every remote, and the
          shell's MenuItem beside a remote's own Select (its MenuList) broke the remotes' select lists
          ("MUI: MenuListContext is missing"). A popover with a menu-role list and arrow keys instead. */}
      <Popover
        anchorEl={anchor}
        open={menuOpen}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { sx: { width: 360, maxWidth: '100vw' } },
          // As a menu opens: the first enabled item (the newest notification) has the focus.
          transition: {
            onEntered: () =>
              listRef.current
                ?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')
                ?.focus(),
          },
        }}
      >
        <List ref={listRef} id={menuId} role="menu" aria-label="Notifications" onKeyDown={moveFocus} dense>
          {page?.docs.length === 0 && (
            <ListItemButton role="menuitem" disabled>
              <ListItemText primary="No notifications yet." />
            </ListItemButton>
          )}
          {!page && list.isError && (
            <ListItemButton role="menuitem" disabled>
              <ListItemText primary="Your notifications could not be loaded." />
            </ListItemButton>
          )}
          {page?.docs.map((notification) => (
            <ListItemButton
              role="menuitem"
              key={notification.id}
              onClick={() => open(notification)}
              sx={{ whiteSpace: 'normal', alignItems: 'flex-start' }}
              data-testid="notification-item"
            >
              <ListItemText
                primary={
                  <>
                    {!notification.readAt && (
                      <Box component="span" sx={visuallyHidden}>
                        Unread:{' '}
                      </Box>
                    )}
                    <Box component="span" sx={{ fontWeight: notification.readAt ? 400 : 700 }}>
                      {notification.title}
                    </Box>
                  </>
                }
                secondary={formatSaDateTime(notification.createdAt)}
              />
            </ListItemButton>
          ))}
          {page && page.total > page.docs.length && (
            <ListItemButton role="menuitem" disabled>
              <Typography variant="body2">{page.total - page.docs.length} older not shown</Typography>
            </ListItemButton>
          )}
          <Divider />
          <ListItemButton
            role="menuitem"
            disabled={unread === 0}
            onClick={() => {
              void markAllRead();
            }}
          >
            Mark all read
          </ListItemButton>
          <ListItemButton role="menuitem" component={RouterLink} to="/account/notifications" onClick={close}>
            Notification settings
          </ListItemButton>
        </List>
      </Popover>
    </>
  );
}
