import { useCallback, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import { NOT_FOUND_MAX_MARKERS } from '@portal/domain';
import { type LatLng } from './geo';
import { createMarkerLayer, lonLatToView } from './layers';
import { MapLayer } from './MapContext';
import { MapView, type MapViewProps } from './MapView';
import { addCapped, randomPointInBbox, SOUTH_AFRICA_BBOX } from './randomMarkers';

export const NOT_FOUND_MARKER_INTERVAL_MS = 300;

export interface NotFoundMapProps {
  /** Milliseconds between random markers. Default 300. */
  intervalMs?: number;
  /** Markers kept; the oldest goes when one more arrives. Default NOT_FOUND_MAX_MARKERS (spec 03: 100). */
  maxMarkers?: number;
  /** Passed to MapView; by default the runtime config or the offline map. */
  baseLayers?: MapViewProps['baseLayers'];
}

/**
 * Body of the not-found page (spec 03): a heading, a way home, and a map of South Africa that keeps
 * sprouting random markers (a click adds one where clicked), never more than `maxMarkers` at a time.
 * The map container carries data-testid="not-found-map" and data-marker-count for the e2e test.
 */
export function NotFoundMap({
  intervalMs = NOT_FOUND_MARKER_INTERVAL_MS,
  maxMarkers = NOT_FOUND_MAX_MARKERS,
  baseLayers,
}: NotFoundMapProps) {
  const [markerLayer] = useState(() => createMarkerLayer());
  const markersRef = useRef<Feature<Point>[]>([]);
  const [markerCount, setMarkerCount] = useState(0);

  const addMarker = useCallback(
    (position: LatLng) => {
      const marker = new Feature(new Point(lonLatToView(position)));
      const { kept, dropped } = addCapped(markersRef.current, marker, maxMarkers);
      markersRef.current = kept;
      const source = markerLayer.getSource();
      if (dropped.length > 0) source?.removeFeatures(dropped.filter((feature) => feature !== marker));
      if (kept.includes(marker)) source?.addFeature(marker);
      setMarkerCount(kept.length);
    },
    [markerLayer, maxMarkers],
  );

  useEffect(() => {
    const timer = setInterval(() => addMarker(randomPointInBbox(SOUTH_AFRICA_BBOX)), intervalMs);
    return () => clearInterval(timer);
  }, [addMarker, intervalMs]);

  const addMarkerAtClick = useCallback((lat: number, lng: number) => addMarker({ lat, lng }), [addMarker]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, p: 2 }}>
      <Box>
        <Typography variant="h4" component="h1" gutterBottom>
          Page not found
        </Typography>
        <Typography variant="body1">
          The page you asked for does not exist or has moved. <Link href="/">Go to the home page</Link>.
        </Typography>
      </Box>
      <Box
        data-testid="not-found-map"
        data-marker-count={markerCount}
        sx={{ height: '60vh', minHeight: 320, borderRadius: 1, overflow: 'hidden' }}
      >
        {/* Anonymous visitors see this page and the locator's tiles need a session: Natural Earth only. */}
        <MapView baseLayers={baseLayers} streetTiles={false} onClick={addMarkerAtClick}>
          <MapLayer layer={markerLayer} />
        </MapView>
      </Box>
    </Box>
  );
}
