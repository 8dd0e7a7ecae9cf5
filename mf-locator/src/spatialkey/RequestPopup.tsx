import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RequestMapPoint } from '@portal/contracts';
import { POPUP_SIZE } from '@portal/web-kit/locator';
import { formatCreated } from './filters';
import { SPATIALKEY_TEXT } from './texts';

const T = SPATIALKEY_TEXT.popup;

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
      <Row label={T.gripReference} value={request.gripReference} />
      <Row label={T.type} value={[request.requestType, request.requestSubType].filter(Boolean).join(' – ')} />
      <Row label={T.status} value={request.status} />
      <Row label={T.created} value={formatCreated(request.created)} />
      <Row label={T.address} value={request.address || '—'} />
    </Box>
  );
}

/** The popup's content: the request, or the requests of a cluster on one property. */
export function RequestPopup({ requests, onClose }: { requests: RequestMapPoint[]; onClose: () => void }) {
  return (
    <Paper
      elevation={4}
      role="dialog"
      aria-label={requests.length === 1 ? requests[0].gripReference : T.more(requests.length)}
      sx={{ width: POPUP_SIZE.width, maxHeight: POPUP_SIZE.height, overflow: 'auto', p: 1.5 }}
    >
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="subtitle2">
          {requests.length === 1 ? requests[0].gripReference : T.more(requests.length)}
        </Typography>
        <IconButton size="small" aria-label={T.close} onClick={onClose}>
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
