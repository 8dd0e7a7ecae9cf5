import { createContext, useContext, useEffect } from 'react';
import type OlMap from 'ol/Map';
import type BaseLayer from 'ol/layer/Base';

/** The OpenLayers map of the nearest MapView; null until the map exists (children render only after). */
export const OlMapContext = createContext<OlMap | null>(null);

/** The map of the enclosing MapView, for children that add layers, overlays or interactions. */
export function useOlMap(): OlMap {
  const map = useContext(OlMapContext);
  if (!map) throw new Error('useOlMap() must be called inside a <MapView> child');
  return map;
}

/**
 * Keeps `layer` on the enclosing map while the calling component is mounted. Pass a stable layer
 * (useState/useMemo): a new object each render would be removed and re-added each render.
 */
export function useMapLayer(layer: BaseLayer | null | undefined): void {
  const map = useOlMap();
  useEffect(() => {
    if (!layer) return undefined;
    map.addLayer(layer);
    return () => {
      map.removeLayer(layer);
    };
  }, [map, layer]);
}

/** Component form of useMapLayer, for JSX children of MapView. */
export function MapLayer({ layer }: { layer: BaseLayer | null | undefined }): null {
  useMapLayer(layer);
  return null;
}
