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
// Styles. Two looks from the same tiles: the street map (after the usual street map: white roads with
// grey casings, names along them, place names by rank, grey house numbers) and labels over imagery (a
// "hybrid" map: thin see-through roads, white names with dark halos that read on aerial photographs).
// Style objects are made once and their widths and texts set per feature, as OpenLayers recommends.

/** A text style: `fill` letters with a `halo` outline so they read over whatever lies below. */
function labelStyle({
  font,
  fill,
  halo,
  haloWidth = 3,
  placement,
}: {
  font: string;
  fill: string;
  halo: string;
  haloWidth?: number;
  placement?: 'line';
}): Style {
  return new Style({
    text: new Text({
      font,
      placement,
      fill: new Fill({ color: fill }),
      stroke: new Stroke({ color: halo, width: haloWidth }),
      overflow: false,
    }),
  });
}

/** Road width in pixels at a view zoom: hairlines across a town, carriageways close up. */
export function roadWidthAt(zoom: number): number {
  if (zoom < 13) return 1.2;
  if (zoom < 15) return 2.5;
  if (zoom < 16) return 4;
  if (zoom < 17) return 7;
  return 7 * 2 ** Math.min(zoom - 17, 3);
}

/** Road names are drawn along the roads from this view zoom (shallower, they would not fit). */
export const ROAD_LABEL_MIN_ZOOM = 15;

const roadLine = (color: string) => new Stroke({ color, lineCap: 'round', lineJoin: 'round' });

/**
 * A road style function: `lines` drawn in order (each `width` from the road width at the view zoom) and,
 * from ROAD_LABEL_MIN_ZOOM, the road's name along it in `label`.
 */
function createRoadStyle(
  lines: readonly { stroke: Stroke; width: (roadWidth: number) => number }[],
  label: Style,
): (feature: FeatureLike, resolution: number) => Style[] {
  const lineStyles = lines.map(({ stroke }, index) => new Style({ stroke, zIndex: index }));
  label.setZIndex(lines.length);
  const withLabel = [...lineStyles, label];
  return (feature, resolution) => {
    const zoom = zoomOf(resolution);
    const roadWidth = roadWidthAt(zoom);
    lines.forEach(({ stroke, width }) => stroke.setWidth(width(roadWidth)));
    if (zoom < ROAD_LABEL_MIN_ZOOM) return lineStyles;
    label.getText()?.setText(String(feature.get('name') ?? ''));
    return withLabel;
  };
}

/** Street map: white roads with grey casings (1 px each side), names in dark grey on white. */
export const styleRoad = createRoadStyle(
  [
    { stroke: roadLine('#b8b1a3'), width: (roadWidth) => roadWidth + 2 },
    { stroke: roadLine('#ffffff'), width: (roadWidth) => roadWidth },
  ],
  labelStyle({ font: '11px sans-serif', fill: '#4a4740', halo: '#ffffff', placement: 'line' }),
);

/** Dark outline of the labels over imagery. */
export const IMAGERY_LABEL_HALO = 'rgba(0, 0, 0, 0.75)';

/**
 * Over imagery: roads as thin see-through lines (a third of the street map's width, 1–3 px) that trace
 * the streets without hiding them, names in white with a dark halo.
 */
export const styleImageryRoad = createRoadStyle(
  [
    {
      stroke: roadLine('rgba(255, 255, 255, 0.45)'),
      width: (roadWidth) => Math.min(3, Math.max(1, roadWidth / 3)),
    },
  ],
  labelStyle({ font: 'bold 11px sans-serif', fill: '#ffffff', halo: IMAGERY_LABEL_HALO, placement: 'line' }),
);

const PLACE_TEXT: Record<string, { font: string; colour: string; upper?: boolean }> = {
  country: { font: 'bold 16px sans-serif', colour: '#3d3a33', upper: true },
  province: { font: 'italic 14px sans-serif', colour: '#6b5d7a', upper: true },
  town: { font: 'bold 13px sans-serif', colour: '#2f2c27' },
  suburb: { font: '12px sans-serif', colour: '#5b564c' },
};

/**
 * A place-name style function: the PLACE_TEXT kinds in their fonts (countries and provinces in
 * capitals), coloured by `colours` over a `halo`; kinds it does not know are not drawn.
 */
function createPlaceStyle(
  colours: (kind: string, streetMapColour: string) => string,
  halo: string,
): (feature: FeatureLike) => Style | undefined {
  const styles = new Map(
    Object.entries(PLACE_TEXT).map(([kind, { font, colour }]) => [
      kind,
      labelStyle({ font, fill: colours(kind, colour), halo }),
    ]),
  );
  return (feature) => {
    const kind = String(feature.get('kind') ?? '');
    const style = styles.get(kind);
    if (!style) return undefined;
    const name = String(feature.get('name') ?? '');
    style.getText()?.setText(PLACE_TEXT[kind].upper ? name.toUpperCase() : name);
    return style;
  };
}

export const stylePlace = createPlaceStyle((_kind, colour) => colour, 'rgba(255, 255, 255, 0.9)');
/** Over imagery: white names (provinces a soft lilac, as their street-map colour) on a dark halo. */
export const styleImageryPlace = createPlaceStyle(
  (kind) => (kind === 'province' ? '#e6dcf0' : '#ffffff'),
  IMAGERY_LABEL_HALO,
);

/** A house-number style function: the number in `fill` over a `halo`. */
function createAddressStyle(fill: string, halo: string): (feature: FeatureLike) => Style {
  const style = labelStyle({ font: '10px sans-serif', fill, halo, haloWidth: 2 });
  return (feature) => {
    style.getText()?.setText(String(feature.get('house_number') ?? ''));
    return style;
  };
}

export const styleAddress = createAddressStyle('#6e6a62', 'rgba(255, 255, 255, 0.8)');
export const styleImageryAddress = createAddressStyle('#ffffff', IMAGERY_LABEL_HALO);

// -------------------------------------------------------------------------------------------------

export type PortalVectorLayer = VectorTileLayer<VectorTileSource>;

/**
 * One layer of the locator's tiles, styled. `onUnreachable` fires once when the server has answered
 * TILE_ERRORS_BEFORE_FALLBACK errors without a single tile (401 without a session, service down).
 */
export function createVectorTileLayer(
  layer: TileLayer,
  {
    onUnreachable,
    url,
    look = 'street',
  }: {
    onUnreachable?: () => void;
    url?: string;
    /** 'imagery': the labels-over-imagery styles (roads, places, addresses; parcels look the same). */
    look?: 'street' | 'imagery';
  } = {},
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
  const style = (look === 'imagery' ? IMAGERY_STYLES : STREET_STYLES)[layer];
  return new VectorTileLayer({
    source,
    style,
    minZoom: VECTOR_LAYER_MIN_ZOOM[layer],
    zIndex: Z_INDEX[layer],
    // Labels must not pile up; roads and parcels draw every feature.
    declutter: layer === 'places' || layer === 'addresses',
    // Keep what was drawn while a new zoom's tiles load, as a base map should.
    renderMode: 'hybrid',
    properties: {
      tileLayer: layer,
      look,
      title: look === 'imagery' ? `${TILE_LAYER_TITLES[layer]} (over imagery)` : TILE_LAYER_TITLES[layer],
    },
  });
}

const STREET_STYLES = { roads: styleRoad, places: stylePlace, addresses: styleAddress, parcels: parcelStyle };
const IMAGERY_STYLES = {
  roads: styleImageryRoad,
  places: styleImageryPlace,
  addresses: styleImageryAddress,
  parcels: parcelStyle,
};

const TILE_LAYER_TITLES: Record<TileLayer, string> = {
  roads: 'Roads',
  places: 'Place names',
  addresses: 'House numbers',
  parcels: 'Parcels',
};

/** The street map drawn over the Natural Earth countries: roads, house numbers, place names. */
export const STREET_MAP_LAYERS: readonly TileLayer[] = ['roads', 'addresses', 'places'];

export function createStreetMapLayers(onUnreachable?: () => void): PortalVectorLayer[] {
  return createLayerSet('street', onUnreachable);
}

/**
 * Labels over a raster (satellite) base layer, from the street map's tiles: thin see-through roads with
 * their names, place names and house numbers, white on dark halos.
 */
export function createImageryLabelLayers(onUnreachable?: () => void): PortalVectorLayer[] {
  return createLayerSet('imagery', onUnreachable);
}

function createLayerSet(look: 'street' | 'imagery', onUnreachable?: () => void): PortalVectorLayer[] {
  let reported = false;
  // All three come from one service: the first to give up speaks for the others.
  const once = () => {
    if (reported) return;
    reported = true;
    onUnreachable?.();
  };
  return STREET_MAP_LAYERS.map((layer) => createVectorTileLayer(layer, { onUnreachable: once, look }));
}

/** The parcel overlay (spec 01 §9: green fill, opacity 0.5), from view zoom 15 where erven are visible. */
export function createParcelOverlayLayer(onUnreachable?: () => void): PortalVectorLayer {
  return createVectorTileLayer('parcels', { onUnreachable });
}
