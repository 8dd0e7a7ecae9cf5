import TileLayer from 'ol/layer/Tile';
import XYZ from 'ol/source/XYZ';
import { type ResolvedBaseLayer } from './baseLayerConfig';

/** A layer whose tile server has answered this many errors without a single tile is treated as down. */
export const TILE_ERRORS_BEFORE_FALLBACK = 3;

/**
 * An XYZ tile layer for a base layer config. Views deeper than `maxNativeZoom` reuse (upscale) the
 * deepest tiles, as Leaflet's maxNativeZoom does. `onUnreachable` fires once if the server seems down.
 */
export function createBaseTileLayer(config: ResolvedBaseLayer, onUnreachable: () => void): TileLayer<XYZ> {
  const source = new XYZ({
    url: config.url,
    tileSize: config.tileSize,
    maxZoom: config.maxNativeZoom,
    attributions: config.attributions,
  });
  let loaded = 0;
  let failed = 0;
  source.on('tileloadend', () => {
    loaded += 1;
  });
  source.on('tileloaderror', () => {
    failed += 1;
    // Only a server that never delivered counts as down; single 404s (sea, no coverage) are normal.
    if (loaded === 0 && failed === TILE_ERRORS_BEFORE_FALLBACK) onUnreachable();
  });
  return new TileLayer({
    source,
    visible: false,
    properties: { baseLayerId: config.id, title: config.title },
  });
}
