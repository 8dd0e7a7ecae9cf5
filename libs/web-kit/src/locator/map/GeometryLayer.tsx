import { useEffect, useRef, useState } from 'react';
import { unByKey } from 'ol/Observable';
import Feature from 'ol/Feature';
import GeoJSON from 'ol/format/GeoJSON';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import type { Geometry } from 'ol/geom';
import type { Style } from 'ol/style';
import { useMapLayer } from '@portal/web-kit';

const geoJson = new GeoJSON();

/** A GeoJSON geometry (WGS 84, as the address service answers it) in the map's projection. */
export function readGeometry(geometry: unknown): Geometry | null {
  if (!geometry || typeof geometry !== 'object') return null;
  try {
    return geoJson.readGeometry(geometry, { dataProjection: 'EPSG:4326', featureProjection: 'EPSG:3857' });
  } catch (error) {
    console.warn('[locator] an unreadable geometry was not drawn', error);
    return null;
  }
}

export interface GeometryLayerProps {
  geometry: unknown;
  style: Style;
  zIndex?: number;
  /** Called once the map has rendered the geometry (each new geometry): what a user sees as "drawn". */
  onDrawn?: () => void;
}

/** Draws one geometry (a parcel or an area) in the given style while mounted. */
export function GeometryLayer({ geometry, style, zIndex, onDrawn }: GeometryLayerProps) {
  const [layer] = useState(() => new VectorLayer({ source: new VectorSource(), style }));
  useEffect(() => {
    layer.setStyle(style);
    if (zIndex !== undefined) layer.setZIndex(zIndex);
  }, [layer, style, zIndex]);
  const onDrawnRef = useRef(onDrawn);
  useEffect(() => {
    onDrawnRef.current = onDrawn;
  });
  useEffect(() => {
    const source = layer.getSource();
    source?.clear();
    const olGeometry = readGeometry(geometry);
    if (!olGeometry) return undefined;
    source?.addFeature(new Feature(olGeometry));
    const key = layer.once('postrender', () => onDrawnRef.current?.());
    return () => unByKey(key);
  }, [layer, geometry]);
  useMapLayer(layer);
  return null;
}
