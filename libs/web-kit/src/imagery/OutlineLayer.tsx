import { useEffect, useMemo } from 'react';
import GeoJSON from 'ol/format/GeoJSON';
import type Feature from 'ol/Feature';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import type { StyleLike } from 'ol/style/Style';
import { useMapLayer } from '@portal/web-kit';

const geoJson = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: 'EPSG:3857' });

/** One outline to draw: a GeoJSON geometry (lng/lat) and what it is. */
export interface Outline {
  geometry: unknown;
  /** Stored on the feature (e.g. `change: 'added'`, `buildingId`). */
  properties?: Record<string, unknown>;
}

/** Features in the map's projection from GeoJSON geometries; unreadable ones are left out with a warning. */
export function outlineFeatures(outlines: readonly Outline[]): Feature[] {
  return outlines.flatMap(({ geometry, properties }) => {
    if (!geometry) return [];
    try {
      const feature = geoJson.readFeature({
        type: 'Feature',
        geometry,
        properties: properties ?? {},
      }) as Feature;
      return [feature];
    } catch (error) {
      console.warn('[imagery] an unreadable outline was not drawn', error);
      return [];
    }
  });
}

export interface OutlineLayerProps {
  /** The source to fill (the caller keeps it, e.g. to snap to it); a new one when omitted. */
  source?: VectorSource;
  outlines: readonly Outline[];
  style: StyleLike;
  zIndex?: number;
  title?: string;
}

/** Draws outlines (parcel, buildings, changes) on the enclosing MapView while mounted. */
export function OutlineLayer({ source: given, outlines, style, zIndex = 20, title }: OutlineLayerProps) {
  const source = useMemo(() => given ?? new VectorSource(), [given]);
  const layer = useMemo(() => {
    const created = new VectorLayer({ source, style, zIndex });
    if (title) created.set('title', title);
    return created;
  }, [source, style, zIndex, title]);
  useMapLayer(layer);
  useEffect(() => {
    source.clear();
    source.addFeatures(outlineFeatures(outlines));
  }, [source, outlines]);
  return null;
}
