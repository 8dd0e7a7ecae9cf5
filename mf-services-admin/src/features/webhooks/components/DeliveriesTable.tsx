import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { WebhookDelivery, WebhookEndpoint } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { failureText } from '../../../api/answers';
import { PlainTable, whenText as when } from '../../../components/PlainTable';
import { WEBHOOKS_TEXT } from '../../../texts';
import { useRedeliverWebhookMutation, useWebhookDeliveriesQuery } from '../webhooksApi';

const T = WEBHOOKS_TEXT.deliveries;
const STATUS_COLOUR = { pending: 'info', delivered: 'success', failed: 'error' } as const;

/**
 * An endpoint's deliveries, newest first, a page at a time (the service pages them): the event, its
 * status, the last answer's code and duration, the attempts (each attempt's code in the row's title), and
 * a Redeliver button for a finished one.
 */
export function DeliveriesTable({ groupId, endpoint }: { groupId: string; endpoint: WebhookEndpoint }) {
  const [page, setPage] = useState(1);
  const notify = useNotify();
  const deliveries = useWebhookDeliveriesQuery({ groupId, endpointId: endpoint._id, page });
  const [redeliver, redelivering] = useRedeliverWebhookMutation();

  const send = async (delivery: WebhookDelivery) => {
    const result = await redeliver({ groupId, endpointId: endpoint._id, deliveryId: delivery._id });
    notify(
      result.error
        ? { message: failureText(WEBHOOKS_TEXT.failedToRedeliver, result.error), severity: 'error' }
        : { message: WEBHOOKS_TEXT.redelivered, severity: 'success' },
    );
  };

  if (deliveries.isLoading) return <CircularProgress aria-label={T.title(endpoint.url)} />;
  if (deliveries.error) return <Alert severity="error">{WEBHOOKS_TEXT.failedToLoad}</Alert>;
  const data = deliveries.data;
  if (!data || data.total === 0) return <Typography color="text.secondary">{T.none}</Typography>;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <Stack spacing={1}>
      <PlainTable
        label={T.title(endpoint.url)}
        headers={[T.when, T.type, T.event, T.status, T.code, T.duration, T.attempts, T.next, T.redeliver]}
      >
        {data.deliveries.map((delivery) => (
          <TableRow
            key={delivery._id}
            title={delivery.attemptList
              .map(
                (attempt) =>
                  `${when(attempt.at)}: ${attempt.statusCode ?? T.noAnswer} ${attempt.error ?? ''}`,
              )
              .join('\n')}
          >
            <TableCell>{when(delivery.createdAt)}</TableCell>
            <TableCell>{delivery.eventType}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{delivery.eventId}</TableCell>
            <TableCell>
              <Chip
                size="small"
                color={STATUS_COLOUR[delivery.status]}
                label={T.statusText[delivery.status]}
              />
            </TableCell>
            <TableCell>{delivery.lastStatusCode ?? T.noAnswer}</TableCell>
            <TableCell>{delivery.lastDurationMs === null ? '' : T.ms(delivery.lastDurationMs)}</TableCell>
            <TableCell>{T.attemptsLine(delivery.attempts, delivery.lastError)}</TableCell>
            <TableCell>{when(delivery.nextAttemptAt)}</TableCell>
            <TableCell>
              {delivery.status !== 'pending' && (
                <Button
                  size="small"
                  aria-label={T.redeliverLabel(delivery.eventId)}
                  disabled={redelivering.isLoading}
                  onClick={() => void send(delivery)}
                >
                  {T.redeliver}
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </PlainTable>
      {pages > 1 && (
        <Pagination
          count={pages}
          page={page}
          onChange={(_event, next) => setPage(next)}
          aria-label={T.page}
          size="small"
        />
      )}
    </Stack>
  );
}
