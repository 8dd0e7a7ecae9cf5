import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import { ROLE } from '@portal/contracts';
import { useCurrentUser, useParams } from '@portal/web-kit';
import { failureText } from '../api/answers';
import { AdminPage } from '../layout/AdminPage';

/** The group an integration page manages, and whether its user is a portal administrator. */
export interface GroupAccess {
  groupId: string;
  isAdmin: boolean;
}

/**
 * The frame of a group's integration page (its API keys, its webhooks; issue 22): the group is the
 * address's (/services/admin/groups/:groupId/…, from the groups grid) or else the user's own
 * (/services/admin/my-group/…). Administrators manage any group, a group's admin their own; anyone else,
 * or a user in no group, gets a page under `title` that says so (the service answers 403 anyway). The
 * page itself is `children`, given the group.
 */
export function GroupIntegrationPage({
  title,
  noGroup,
  notYourGroup,
  children,
}: {
  title: string;
  /** Said to a user in no group. */
  noGroup: string;
  /** Said to a user who may not manage this group. */
  notYourGroup: string;
  children: (access: GroupAccess) => ReactNode;
}) {
  const { groupId: pathGroupId } = useParams();
  const { user } = useCurrentUser();
  const groupId = pathGroupId ?? user?.groupID ?? null;
  const isAdmin = !!user?.roles.includes(ROLE.admin);
  const allowed =
    !!groupId && (isAdmin || (!!user?.roles.includes(ROLE.groupAdmin) && user?.groupID === groupId));
  if (!groupId || !allowed)
    return (
      <AdminPage title={title}>
        <Alert severity="warning">{groupId ? notYourGroup : noGroup}</Alert>
      </AdminPage>
    );
  return children({ groupId, isAdmin });
}

/** A group's list while it loads (a spinner named `label`) or when it failed (`failedToLoad`, the reason). */
export function ListLoadState({
  label,
  failedToLoad,
  isLoading,
  error,
}: {
  label: string;
  failedToLoad: string;
  isLoading: boolean;
  error: unknown;
}) {
  if (isLoading) return <CircularProgress aria-label={label} />;
  if (error) return <Alert severity="error">{failureText(failedToLoad, error)}</Alert>;
  return null;
}
