import { Suspense } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { BUILTIN_SATELLITE_LAYER, MapView, SATELLITE_LAYER_ID } from '@portal/web-kit';
import { QueuePage } from '../../../layout/QueuePage';
import { useChecklistParams } from '../../../hooks/useChecklistParams';
import { RequestMarkers } from '../components/RequestMarkers';

/** The QC launcher's satellite map: the portal's imagery at the request's point, labels over it, zoom 18. */
export function SatelliteMapPage() {
  const { requestID, point } = useChecklistParams();
  const centre = point ?? { lat: -28.96642, lng: 24.181142 };
  return (
    <QueuePage
      title="Satellite map"
      subtitle={point ? `${point.lat.toFixed(6)}, ${point.lng.toFixed(6)}` : undefined}
    >
      <Box sx={{ height: 720 }} data-testid="satellite-map">
        <Suspense fallback={<LinearProgress aria-label="Loading the map" />}>
          <MapView
            center={centre}
            zoom={18}
            baseLayers={[BUILTIN_SATELLITE_LAYER]}
            activeBaseLayerId={SATELLITE_LAYER_ID}
            labelsOverImagery
            parcels
            style={{ height: '100%' }}
          >
            {point && (
              <RequestMarkers
                centre={{
                  requestID,
                  gripReference: '',
                  location: '',
                  lat: point.lat,
                  lng: point.lng,
                  client: null,
                  reference: '',
                  status: '',
                  date: '',
                  dateKind: 'created',
                  finalRve: null,
                  preliminaryRve: null,
                  distance: 0,
                }}
                others={[]}
                onPick={() => undefined}
              />
            )}
          </MapView>
        </Suspense>
      </Box>
    </QueuePage>
  );
}
