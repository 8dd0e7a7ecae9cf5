import type OlMap from 'ol/Map';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import type Feature from 'ol/Feature';
import type Point from 'ol/geom/Point';
import { isEmpty, type Extent } from 'ol/extent';
import { fromLonLat, toLonLat } from 'ol/proj';
import type { Coordinate } from 'ol/coordinate';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import { MAP_DEFAULTS } from '@portal/domain';
import { type LatLng } from './geo';

/** The view's projection is OpenLayers' default, Web Mercator (EPSG:3857). */
export function lonLatToView(position: LatLng): Coordinate {
  return fromLonLat([position.lng, position.lat]);
}

export function viewToLonLat(coordinate: Coordinate): LatLng {
  const [lng, lat] = toLonLat(coordinate);
  return { lat, lng };
}

/** Spec 01 §9: parcel style is a green fill at opacity 0.5. */
export const parcelStyle = new Style({
  fill: new Fill({ color: 'rgba(0, 128, 0, 0.5)' }),
  stroke: new Stroke({ color: 'rgb(0, 128, 0)', width: 2 }),
});

/** Spec 01 §9: area style (suburb, postal code, marker area) is a black fill at opacity 0.25. */
export const areaStyle = new Style({
  fill: new Fill({ color: 'rgba(0, 0, 0, 0.25)' }),
  stroke: new Stroke({ color: 'rgb(0, 0, 0)', width: 2 }),
});

export const markerStyle = new Style({
  image: new Circle({
    radius: 6,
    fill: new Fill({ color: '#d32f2f' }),
    stroke: new Stroke({ color: '#ffffff', width: 2 }),
  }),
});

export type MarkerLayer = VectorLayer<VectorSource<Feature<Point>>>;

/** An empty point layer drawn with `markerStyle`; add features to `layer.getSource()`. */
export function createMarkerLayer(style: Style = markerStyle): MarkerLayer {
  return new VectorLayer({ source: new VectorSource<Feature<Point>>(), style });
}

/**
 * Zooms the map to `extent` (view projection), never closer than `maxZoom` (spec 01 §9: 18) so a
 * single point or a tiny parcel does not end up at street-lamp scale. Returns false for an empty extent,
 * which OpenLayers would otherwise reject with an exception.
 */
export function fitToExtent(map: OlMap, extent: Extent, maxZoom: number = MAP_DEFAULTS.fitMaxZoom): boolean {
  if (isEmpty(extent)) return false;
  map.getView().fit(extent, { maxZoom, padding: [24, 24, 24, 24] });
  return true;
}
