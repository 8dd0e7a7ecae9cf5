import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RequestMapPoint } from '@portal/contracts';
import { formatSaNumericDateTime } from '@portal/domain';
import { POPUP_SIZE } from '@portal/web-kit/locator';
import { REQUEST_POPUP_TEXT } from '../../../texts';

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {value}
      </Typography>
    </>
  );
}

/** One request: GRiP reference, type and subtype, status, created (SAST) and address. */
export function RequestDetails({ request }: { request: RequestMapPoint }) {
  return (
    <Box
      component="dl"
      data-testid="request-details"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1.5, rowGap: 0.25, m: 0 }}
    >
      <Row label={REQUEST_POPUP_TEXT.gripReference} value={request.gripReference} />
      <Row
        label={REQUEST_POPUP_TEXT.type}
        value={[request.requestType, request.requestSubType].filter(Boolean).join(' – ')}
      />
      <Row label={REQUEST_POPUP_TEXT.status} value={request.status} />
      <Row label={REQUEST_POPUP_TEXT.created} value={formatSaNumericDateTime(request.created)} />
      <Row label={REQUEST_POPUP_TEXT.address} value={request.address || '—'} />
    </Box>
  );
}

/** The popup's content: the request, or the requests of a cluster on one property. */
export function RequestPopup({ requests, onClose }: { requests: RequestMapPoint[]; onClose: () => void }) {
  return (
    <Paper
      elevation={4}
      role="dialog"
      aria-label={
        requests.length === 1 ? requests[0].gripReference : REQUEST_POPUP_TEXT.more(requests.length)
      }
      sx={{ width: POPUP_SIZE.width, maxHeight: POPUP_SIZE.height, overflow: 'auto', p: 1.5 }}
    >
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="subtitle2">
          {requests.length === 1 ? requests[0].gripReference : REQUEST_POPUP_TEXT.more(requests.length)}
        </Typography>
        <IconButton size="small" aria-label={REQUEST_POPUP_TEXT.close} onClick={onClose}>
          ×
        </IconButton>
      </Stack>
      <Stack spacing={1.5} sx={{ mt: 1 }}>
        {requests.map((request) => (
          <RequestDetails key={request.id} request={request} />
        ))}
      </Stack>
    </Paper>
  );
}
