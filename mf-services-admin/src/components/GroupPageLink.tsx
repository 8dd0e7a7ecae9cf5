import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { AdminGroup } from '@portal/contracts';
import { Link as RouterLink } from '@portal/web-kit';
import { KeyIcon, WebhookIcon } from '../layout/icons';
import { apiKeysHref, webhooksHref } from '../paths';
import { API_KEYS_TEXT, WEBHOOKS_TEXT } from '../texts';

/** The pages of a group a row action opens: where, its icon, its tooltip and its label. */
const TARGETS = {
  apiKeys: { href: apiKeysHref, Icon: KeyIcon, title: API_KEYS_TEXT.title, label: API_KEYS_TEXT.groupAction },
  webhooks: {
    href: webhooksHref,
    Icon: WebhookIcon,
    title: WEBHOOKS_TEXT.title,
    label: WEBHOOKS_TEXT.groupAction,
  },
} as const;

export type GroupPage = keyof typeof TARGETS;

/** Opens one of a group's pages (its API keys or its webhooks): a row action of the groups grid and list. */
export function GroupPageLink({
  group,
  target,
}: {
  group: Pick<AdminGroup, '_id' | 'name'>;
  target: GroupPage;
}) {
  const { href, Icon, title, label } = TARGETS[target];
  return (
    <Tooltip title={title}>
      <IconButton size="small" component={RouterLink} to={href(group._id)} aria-label={label(group.name)}>
        <Icon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
