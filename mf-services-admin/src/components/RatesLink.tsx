import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { AdminGroup } from '@portal/contracts';
import { RatesIcon } from '../layout/icons';
import { ratesHref } from '../paths';

/** Opens a group's rates editor in a new browser tab (spec 03 §2). */
export function RatesLink({ group }: { group: Pick<AdminGroup, '_id' | 'name'> }) {
  return (
    <Tooltip title="Rates editor (new tab)">
      <IconButton
        size="small"
        component="a"
        href={ratesHref(group._id)}
        target="_blank"
        rel="noopener"
        aria-label={`Rates of ${group.name}`}
      >
        <RatesIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
