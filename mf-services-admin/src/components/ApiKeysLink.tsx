import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { AdminGroup } from '@portal/contracts';
import { Link as RouterLink } from '@portal/web-kit';
import { KeyIcon } from '../layout/icons';
import { apiKeysHref } from '../paths';
import { API_KEYS_TEXT } from '../texts';

/** Opens a group's API keys page (the groups grid's row action). */
export function ApiKeysLink({ group }: { group: Pick<AdminGroup, '_id' | 'name'> }) {
  return (
    <Tooltip title={API_KEYS_TEXT.title}>
      <IconButton
        size="small"
        component={RouterLink}
        to={apiKeysHref(group._id)}
        aria-label={API_KEYS_TEXT.groupAction(group.name)}
      >
        <KeyIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
