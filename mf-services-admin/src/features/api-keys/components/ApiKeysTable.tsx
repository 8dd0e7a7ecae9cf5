import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ApiKey } from '@portal/contracts';
import { PlainTable, whenText as when } from '../../../components/PlainTable';
import { API_KEYS_TEXT as T } from '../../../texts';

const STATE_COLOUR = { active: 'success', expired: 'warning', revoked: 'default' } as const;

/** A group's keys, newest first: a plain table (a handful of rows), each live key with its Revoke button. */
export function ApiKeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  if (keys.length === 0) return <Typography color="text.secondary">{T.noKeys}</Typography>;
  const c = T.columns;
  return (
    <PlainTable
      label={T.title}
      headers={[c.name, c.prefix, c.services, c.scope, c.created, c.expires, c.lastUsed, c.useCount, c.state]}
      hiddenHeader={c.actions}
    >
      {keys.map((key) => (
        <TableRow key={key._id}>
          <TableCell>{key.name}</TableCell>
          <TableCell sx={{ fontFamily: 'monospace' }}>{key.prefix}…</TableCell>
          <TableCell>{key.services.join(', ')}</TableCell>
          <TableCell>
            {T.scopes[key.scope as 'read' | 'write'] ?? key.scope}
            {key.roles.length > 0 && ` (${key.roles.join(', ')})`}
          </TableCell>
          <TableCell>{T.createdBy(key.createdByName, when(key.createdAt, ''))}</TableCell>
          <TableCell>{when(key.expiresAt, T.noExpiry)}</TableCell>
          <TableCell>{when(key.lastUsedAt, T.never)}</TableCell>
          <TableCell align="right">{key.useCount}</TableCell>
          <TableCell>
            <Chip size="small" label={T.states[key.state]} color={STATE_COLOUR[key.state]} />
          </TableCell>
          <TableCell>
            {key.state !== 'revoked' && (
              <Button
                size="small"
                color="error"
                aria-label={T.revokeLabel(key.name)}
                onClick={() => onRevoke(key)}
              >
                {T.revoke}
              </Button>
            )}
          </TableCell>
        </TableRow>
      ))}
    </PlainTable>
  );
}
