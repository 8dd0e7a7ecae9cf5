export { MapView, type MapViewProps } from './MapView';
export { useOlMap, useMapLayer, MapLayer, OlMapContext } from './MapContext';
export { NotFoundMap, NOT_FOUND_MARKER_INTERVAL_MS, type NotFoundMapProps } from './NotFoundMap';
export {
  lonLatToView,
  viewToLonLat,
  createMarkerLayer,
  parcelStyle,
  areaStyle,
  markerStyle,
  fitToExtent,
  type MarkerLayer,
} from './layers';
export {
  resolveBaseLayers,
  readRuntimeBaseLayers,
  pickBaseLayer,
  type BaseLayerConfig,
  type ResolvedBaseLayer,
} from './baseLayerConfig';
export { addCapped, randomPointInBbox, SOUTH_AFRICA_BBOX, type LonLatBbox } from './randomMarkers';
export {
  SOUTHERN_AFRICA_COUNTRY_IDS,
  SOUTH_AFRICA_COUNTRY_ID,
  type CountryProperties,
} from './southernAfrica';
export {
  createOfflineBaseLayers,
  DETAILED_OUTLINES_FROM_ZOOM,
  OFFLINE_MAP_TITLE,
  OFFLINE_OCEAN_COLOUR,
  NATURAL_EARTH_ATTRIBUTION,
} from './offlineBaseMap';
export { type LatLng } from './geo';
export {
  createVectorTileLayer,
  createVectorTileSource,
  createStreetMapLayers,
  createImageryLabelLayers,
  createParcelOverlayLayer,
  createPortalTileGrid,
  STREET_MAP_LAYERS,
  VECTOR_LAYER_MIN_ZOOM,
  type PortalVectorLayer,
} from './vectorTiles';
