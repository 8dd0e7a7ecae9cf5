import { Suspense } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { ValidationResult } from '@portal/contracts';
import { MapView } from '@portal/web-kit';
import {
  GeometryLayer,
  MainMarker,
  MapFocus,
  PARCEL_STYLE,
  ZOOM,
  useGeojsonQuery,
} from '@portal/web-kit/locator';

const ignoreMove = () => undefined;

/**
 * The validated point on the portal's map, with its parcel's outline (parcel style) fetched from the
 * address service; the view centres on the point at the spec's zoom for an address and fits the parcel.
 */
export function ValidationMap({ result, version }: { result: ValidationResult | null; version: number }) {
  const parcelId = result?.parcel?.id;
  const { data: parcel } = useGeojsonQuery(parcelId ? { id: parcelId, type: 'parcel' } : skipParcel, {
    skip: !parcelId,
  });
  const geometry = parcelId && parcel?.result.id === parcelId ? parcel.result.geometry : null;
  const point = result?.location ?? null;
  return (
    <Box sx={{ height: { xs: 320, md: 480 }, position: 'relative' }} data-testid="validation-map">
      <Suspense
        fallback={
          <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
            <CircularProgress />
          </Box>
        }
      >
        <MapView parcels>
          {geometry && <GeometryLayer geometry={geometry} style={PARCEL_STYLE} zIndex={20} />}
          {point && (
            <>
              <MapFocus point={point} zoom={ZOOM.place} version={version} fitTo={geometry ?? undefined} />
              <MainMarker position={point} draggable={false} onMove={ignoreMove} />
            </>
          )}
        </MapView>
      </Suspense>
    </Box>
  );
}

const skipParcel = { id: '', type: 'parcel' };
