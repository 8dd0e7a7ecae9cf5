import { useEffect } from 'react';
import { fromLonLat } from 'ol/proj';
import type { LatLng } from '@portal/contracts';
import { useOlMap } from '@portal/web-kit';
import { readGeometry } from './GeometryLayer';
import { ZOOM } from './styles';

export interface MapFocusProps {
  /** Centre here at `zoom` whenever `version` changes (a new selection). */
  point: LatLng | null;
  zoom: number;
  version: number;
  /** Then fit to this geometry once it arrives (never closer than 18). */
  fitTo?: unknown;
  /** Zoom in to this when the map is farther out (a marker's area: spec zoom 10); a closer view is kept. */
  minZoom?: number;
}

/** Applies the spec 01 §9 zoom rules to the map of the enclosing MapView. */
export function MapFocus({ point, zoom, version, fitTo, minZoom }: MapFocusProps) {
  const map = useOlMap();
  const lat = point?.lat;
  const lng = point?.lng;
  useEffect(() => {
    if (lat === undefined || lng === undefined) return;
    const view = map.getView();
    view.setCenter(fromLonLat([lng, lat]));
    view.setZoom(zoom);
    // version: the same point chosen again is centred again.
  }, [map, lat, lng, zoom, version]);

  useEffect(() => {
    const geometry = readGeometry(fitTo);
    if (!geometry) return;
    map.getView().fit(geometry.getExtent(), { maxZoom: ZOOM.fitMax, padding: [40, 40, 40, 40] });
  }, [map, fitTo]);

  useEffect(() => {
    if (minZoom === undefined || lat === undefined || lng === undefined) return;
    const view = map.getView();
    if ((view.getZoom() ?? 0) < minZoom) {
      view.setCenter(fromLonLat([lng, lat]));
      view.setZoom(minZoom);
    }
  }, [map, minZoom, lat, lng]);
  return null;
}
