import { Suspense, useCallback, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { DUPLICATE_RADIUS_M, type NearRequest } from '@portal/contracts';
import { MapView, errorMessages, useSearchParams } from '@portal/web-kit';
import { useNearRequestsQuery } from '../../../api/requestsApi';
import { QueuePage } from '../../../layout/QueuePage';
import { TEXT } from '../../../texts';
import { NearPopup } from '../components/NearPopup';
import { RequestMarkers } from '../components/RequestMarkers';

/** Spec 02 §9: the duplicate check's map zoom. */
export const DUPLICATE_ZOOM = 16;

const km = (metres: number) =>
  metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;

/** requests/admin/duplicate-check?requestID (spec 03 "Duplicate check"): the requests near a request. */
export function DuplicateCheckPage() {
  const [search] = useSearchParams();
  const requestID = search.get('requestID') ?? '';
  const near = useNearRequestsQuery({ id: requestID, radius: DUPLICATE_RADIUS_M }, { skip: !requestID });
  const [picked, setPicked] = useState<NearRequest | null>(null);
  const pick = useCallback((request: NearRequest) => setPicked(request), []);
  const data = near.data;
  return (
    <QueuePage
      title={TEXT.duplicateTitle}
      subtitle={
        data
          ? `${data.centre.gripReference}, ${data.centre.location}: ${data.requests.length}${data.truncated ? '+' : ''} other requests within ${km(data.radius)}`
          : undefined
      }
    >
      {!requestID && <Alert severity="error">No request was named (requestID).</Alert>}
      {near.isLoading && <LinearProgress aria-label="Loading the requests nearby" />}
      {near.isError && (
        <Alert severity="error">{`${TEXT.loadingError}: ${errorMessages(near.error).join(' ')}`}</Alert>
      )}
      {data && (
        <Box sx={{ display: 'flex', gap: 2, height: 640 }}>
          <Box sx={{ flex: 1, position: 'relative' }} data-testid="duplicate-map">
            <Suspense fallback={<LinearProgress aria-label="Loading the map" />}>
              <MapView
                center={{ lat: data.centre.lat, lng: data.centre.lng }}
                zoom={DUPLICATE_ZOOM}
                style={{ height: '100%' }}
              >
                <RequestMarkers centre={data.centre} others={data.requests} onPick={pick} />
              </MapView>
            </Suspense>
            {picked && <NearPopup request={picked} onClose={() => setPicked(null)} />}
          </Box>
          <Box sx={{ width: 340, overflow: 'auto' }}>
            <Typography variant="subtitle2">Nearest first</Typography>
            <List dense aria-label="Requests nearby">
              <ListItem disablePadding>
                <ListItemButton
                  selected={picked?.requestID === data.centre.requestID}
                  onClick={() => pick(data.centre)}
                >
                  <ListItemText
                    primary={`${data.centre.gripReference} (this request)`}
                    secondary={data.centre.location}
                  />
                </ListItemButton>
              </ListItem>
              {data.requests.map((request) => (
                <ListItem key={request.requestID} disablePadding>
                  <ListItemButton
                    selected={picked?.requestID === request.requestID}
                    onClick={() => pick(request)}
                  >
                    <ListItemText
                      primary={`${request.gripReference} · ${km(request.distance)}`}
                      secondary={`${request.status} · ${request.location}`}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        </Box>
      )}
    </QueuePage>
  );
}
