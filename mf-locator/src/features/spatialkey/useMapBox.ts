import { useEffect, useRef } from 'react';
import type OlMap from 'ol/Map';
import { transformExtent } from 'ol/proj';
import { BOX_DEBOUNCE_MS } from '../../config';
import type { Box } from './filters';

/** The visible box of a map in WGS 84, or null while it has no size (not laid out yet). */
export function mapBox(map: OlMap): Box | null {
  const size = map.getSize();
  if (!size || !size[0] || !size[1]) return null;
  const extent = map.getView().calculateExtent(size);
  const [west, south, east, north] = transformExtent(extent, 'EPSG:3857', 'EPSG:4326');
  if (![west, south, east, north].every(Number.isFinite)) return null;
  return { west, south, east, north };
}

/** Calls `onBox` with the map's box once it has rested BOX_DEBOUNCE_MS after each move (and at first). */
export function useMapBox(map: OlMap | null, onBox: (box: Box | null) => void, delayMs = BOX_DEBOUNCE_MS) {
  const onBoxRef = useRef(onBox);
  useEffect(() => {
    onBoxRef.current = onBox;
  });
  useEffect(() => {
    if (!map) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => onBoxRef.current(mapBox(map)), delayMs);
    };
    map.on('moveend', settle);
    return () => {
      clearTimeout(timer);
      map.un('moveend', settle);
    };
  }, [map, delayMs]);
}
