import { useEffect, useState } from 'react';
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

/** Draws one geometry (a parcel or an area) in the given style while mounted. */
export function GeometryLayer({
  geometry,
  style,
  zIndex,
}: {
  geometry: unknown;
  style: Style;
  zIndex?: number;
}) {
  const [layer] = useState(() => new VectorLayer({ source: new VectorSource(), style }));
  useEffect(() => {
    layer.setStyle(style);
    if (zIndex !== undefined) layer.setZIndex(zIndex);
  }, [layer, style, zIndex]);
  useEffect(() => {
    const source = layer.getSource();
    source?.clear();
    const olGeometry = readGeometry(geometry);
    if (olGeometry) source?.addFeature(new Feature(olGeometry));
  }, [layer, geometry]);
  useMapLayer(layer);
  return null;
}
