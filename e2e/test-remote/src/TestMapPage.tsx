import Box from '@mui/material/Box';
import { MapView, useSearchParams } from '@portal/web-kit';

/**
 * web-kit's MapView with the locator's street tiles and parcel overlay, centred where the test says
 * (?lat&lng&zoom): the browser tests check the map draws the portal's own geodata, offline.
 */
export function TestMapPage() {
  const [params] = useSearchParams();
  const lat = Number(params.get('lat') ?? -28.96642);
  const lng = Number(params.get('lng') ?? 24.181142);
  const zoom = Number(params.get('zoom') ?? 6);
  return (
    <Box data-testid="test-map" sx={{ height: 'calc(100vh - 64px)', width: '100%' }}>
      <MapView center={{ lat, lng }} zoom={zoom} parcels />
    </Box>
  );
}
