import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { WebhookEndpoint } from '@portal/contracts';
import { PlainTable, whenText as when } from '../../../components/PlainTable';
import { WEBHOOKS_TEXT as T } from '../../../texts';

export type EndpointAction = keyof typeof T.actions;

function StateChip({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.enabled)
    return <Chip size="small" label={T.state.disabled} title={endpoint.disabledReason ?? undefined} />;
  if (endpoint.failingSince)
    return (
      <Chip
        size="small"
        color="warning"
        label={T.state.failing}
        title={T.failingSince(when(endpoint.failingSince))}
      />
    );
  return <Chip size="small" color="success" label={T.state.enabled} />;
}

/** One endpoint's actions: Deliveries at hand, the rest in a menu (arrow keys move in it, Escape closes). */
function Actions({
  endpoint,
  onAction,
}: {
  endpoint: WebhookEndpoint;
  onAction: (action: EndpointAction) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = `endpoint-actions-${endpoint._id}`;
  const pick = (action: EndpointAction) => {
    setAnchor(null);
    onAction(action);
  };
  const items: EndpointAction[] = [
    'edit',
    'test',
    'rotate',
    endpoint.enabled ? 'disable' : 'enable',
    'delete',
  ];
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      <Button size="small" onClick={() => onAction('deliveries')}>
        {T.actions.deliveries}
      </Button>
      <Button
        size="small"
        aria-label={T.actionsFor(endpoint.url)}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        …
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {items.map((action) => (
          <MenuItem key={action} onClick={() => pick(action)}>
            {T.actions[action]}
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}

/** A group's endpoints: URL, description, events, state (enabled, failing since, disabled and why). */
export function EndpointsTable({
  endpoints,
  onAction,
}: {
  endpoints: WebhookEndpoint[];
  onAction: (endpoint: WebhookEndpoint, action: EndpointAction) => void;
}) {
  if (endpoints.length === 0) return <Typography color="text.secondary">{T.noEndpoints}</Typography>;
  const c = T.columns;
  return (
    <PlainTable
      label={T.title}
      headers={[c.url, c.description, c.events, c.state, c.created]}
      hiddenHeader={c.actions}
    >
      {endpoints.map((endpoint) => (
        <TableRow key={endpoint._id}>
          <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{endpoint.url}</TableCell>
          <TableCell>{endpoint.description}</TableCell>
          <TableCell>
            <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
              {endpoint.events.map((event) => (
                <Chip key={event} size="small" variant="outlined" label={event} />
              ))}
            </Stack>
          </TableCell>
          <TableCell>
            <StateChip endpoint={endpoint} />
            {!endpoint.enabled && endpoint.disabledReason && (
              <Typography variant="caption" component="div" color="text.secondary">
                {endpoint.disabledReason}
              </Typography>
            )}
          </TableCell>
          <TableCell>{when(endpoint.createdAt)}</TableCell>
          <TableCell>
            <Actions endpoint={endpoint} onAction={(action) => onAction(endpoint, action)} />
          </TableCell>
        </TableRow>
      ))}
    </PlainTable>
  );
}
