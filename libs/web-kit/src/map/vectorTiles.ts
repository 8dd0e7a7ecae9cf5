import VectorTileLayer from 'ol/layer/VectorTile';
import VectorTileSource from 'ol/source/VectorTile';
import MVT from 'ol/format/MVT';
import { createXYZ } from 'ol/tilegrid';
import type { FeatureLike } from 'ol/Feature';
import { Fill, Stroke, Style, Text } from 'ol/style';
import { TILES_API, type TileLayer } from '@portal/contracts';
import { MAP_DEFAULTS } from '@portal/domain';
import { parcelStyle } from './layers';
import { TILE_ERRORS_BEFORE_FALLBACK } from './tileLayers';

/**
 * The portal's own map from the locator's vector tiles (GET /api/v1.0/tiles/{layer}/{z}/{x}/{y}.mvt):
 * a street map (roads, place names, house numbers) drawn over the Natural Earth countries, and the
 * parcel overlay. The tiles are the product's data and need a session; a layer whose tiles keep failing
 * (no session, locator down) is dropped and the Natural Earth map stays.
 */

/** Same grid as the raster base layers (spec 01 §9): 512-pixel tiles, native up to zoom 17. */
export function createPortalTileGrid() {
  return createXYZ({ tileSize: MAP_DEFAULTS.tileSize, maxZoom: MAP_DEFAULTS.maxNativeZoom });
}

/**
 * Each layer is drawn above this view zoom (OpenLayers' layer minZoom is exclusive): the locator serves
 * roads from tile zoom 11, parcels from 14 and addresses from 16, and a 512-pixel grid asks for tile
 * zoom z at view zoom z + 1, so below these zooms there is nothing to fetch.
 */
export const VECTOR_LAYER_MIN_ZOOM: Record<TileLayer, number> = {
  places: 0,
  roads: 11,
  parcels: 14,
  addresses: 16,
};

/** z-indexes: above the base layers (-100), below what pages add (0). Labels over lines over areas. */
const Z_INDEX: Record<TileLayer, number> = { roads: -90, addresses: -85, places: -80, parcels: -50 };

/** Approximate view zoom of a resolution (metres per pixel, Web Mercator). */
const zoomOf = (resolution: number) => Math.log2(156_543.033_928 / resolution);

export function createVectorTileSource(layer: TileLayer, url: string = TILES_API.template(layer)) {
  return new VectorTileSource({
    format: new MVT(),
    url,
    tileGrid: createPortalTileGrid(),
    // Without this the source would wrap the world and ask for tiles x < 0 at low zoom.
    wrapX: false,
  });
}

// -------------------------------------------------------------------------------------------------
// Street-map styles, after the usual look of a street map: white roads with grey casings, names along
// them, place names by rank, grey house numbers.

const roadCasing = new Stroke({ color: '#b8b1a3', width: 3, lineCap: 'round', lineJoin: 'round' });
const roadFill = new Stroke({ color: '#ffffff', width: 2, lineCap: 'round', lineJoin: 'round' });
const roadCasingStyle = new Style({ stroke: roadCasing, zIndex: 0 });
const roadFillStyle = new Style({ stroke: roadFill, zIndex: 1 });
const roadLabelStyle = new Style({
  text: new Text({
    font: '11px sans-serif',
    placement: 'line',
    fill: new Fill({ color: '#4a4740' }),
    stroke: new Stroke({ color: '#ffffff', width: 3 }),
  }),
  zIndex: 2,
});

/** Road width in pixels at a view zoom: hairlines across a town, carriageways close up. */
export function roadWidthAt(zoom: number): number {
  if (zoom < 13) return 1.2;
  if (zoom < 15) return 2.5;
  if (zoom < 16) return 4;
  if (zoom < 17) return 7;
  return 7 * 2 ** Math.min(zoom - 17, 3);
}

export function styleRoad(feature: FeatureLike, resolution: number): Style[] {
  const zoom = zoomOf(resolution);
  const width = roadWidthAt(zoom);
  roadFill.setWidth(width);
  roadCasing.setWidth(width + 2);
  if (zoom < 15) return [roadCasingStyle, roadFillStyle];
  roadLabelStyle.getText()?.setText(String(feature.get('name') ?? ''));
  return [roadCasingStyle, roadFillStyle, roadLabelStyle];
}

const PLACE_TEXT: Record<string, { font: string; colour: string; upper?: boolean }> = {
  country: { font: 'bold 16px sans-serif', colour: '#3d3a33', upper: true },
  province: { font: 'italic 14px sans-serif', colour: '#6b5d7a', upper: true },
  town: { font: 'bold 13px sans-serif', colour: '#2f2c27' },
  suburb: { font: '12px sans-serif', colour: '#5b564c' },
};
const placeStyles = new Map(
  Object.entries(PLACE_TEXT).map(([kind, { font, colour }]) => [
    kind,
    new Style({
      text: new Text({
        font,
        fill: new Fill({ color: colour }),
        stroke: new Stroke({ color: 'rgba(255, 255, 255, 0.9)', width: 3 }),
        overflow: false,
      }),
    }),
  ]),
);

export function stylePlace(feature: FeatureLike): Style | undefined {
  const kind = String(feature.get('kind') ?? '');
  const style = placeStyles.get(kind);
  if (!style) return undefined;
  const name = String(feature.get('name') ?? '');
  style.getText()?.setText(PLACE_TEXT[kind].upper ? name.toUpperCase() : name);
  return style;
}

const houseNumberStyle = new Style({
  text: new Text({
    font: '10px sans-serif',
    fill: new Fill({ color: '#6e6a62' }),
    stroke: new Stroke({ color: 'rgba(255, 255, 255, 0.8)', width: 2 }),
  }),
});

export function styleAddress(feature: FeatureLike): Style {
  houseNumberStyle.getText()?.setText(String(feature.get('house_number') ?? ''));
  return houseNumberStyle;
}

// -------------------------------------------------------------------------------------------------

export type PortalVectorLayer = VectorTileLayer<VectorTileSource>;

/**
 * One layer of the locator's tiles, styled. `onUnreachable` fires once when the server has answered
 * TILE_ERRORS_BEFORE_FALLBACK errors without a single tile (401 without a session, service down).
 */
export function createVectorTileLayer(
  layer: TileLayer,
  { onUnreachable, url }: { onUnreachable?: () => void; url?: string } = {},
): PortalVectorLayer {
  const source = createVectorTileSource(layer, url);
  let loaded = 0;
  let failed = 0;
  source.on('tileloadend', () => {
    loaded += 1;
  });
  source.on('tileloaderror', () => {
    failed += 1;
    if (loaded === 0 && failed === TILE_ERRORS_BEFORE_FALLBACK) onUnreachable?.();
  });
  const style = {
    roads: styleRoad,
    places: stylePlace,
    addresses: styleAddress,
    parcels: parcelStyle,
  }[layer];
  return new VectorTileLayer({
    source,
    style,
    minZoom: VECTOR_LAYER_MIN_ZOOM[layer],
    zIndex: Z_INDEX[layer],
    // Labels must not pile up; roads and parcels draw every feature.
    declutter: layer === 'places' || layer === 'addresses',
    // Keep what was drawn while a new zoom's tiles load, as a base map should.
    renderMode: 'hybrid',
    properties: { tileLayer: layer, title: TILE_LAYER_TITLES[layer] },
  });
}

const TILE_LAYER_TITLES: Record<TileLayer, string> = {
  roads: 'Roads',
  places: 'Place names',
  addresses: 'House numbers',
  parcels: 'Parcels',
};

/** The street map drawn over the Natural Earth countries: roads, house numbers, place names. */
export const STREET_MAP_LAYERS: readonly TileLayer[] = ['roads', 'addresses', 'places'];

export function createStreetMapLayers(onUnreachable?: () => void): PortalVectorLayer[] {
  let reported = false;
  // All three come from one service: the first to give up speaks for the others.
  const once = () => {
    if (reported) return;
    reported = true;
    onUnreachable?.();
  };
  return STREET_MAP_LAYERS.map((layer) => createVectorTileLayer(layer, { onUnreachable: once }));
}

/** The parcel overlay (spec 01 §9: green fill, opacity 0.5), from view zoom 15 where erven are visible. */
export function createParcelOverlayLayer(onUnreachable?: () => void): PortalVectorLayer {
  return createVectorTileLayer('parcels', { onUnreachable });
}
