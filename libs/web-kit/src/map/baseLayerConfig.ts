import { TILES_API } from '@portal/contracts';
import { MAP_DEFAULTS } from '@portal/domain';

/**
 * One XYZ raster base layer (satellite, street, fallback street, ...).
 *
 * `url` is an XYZ template with `{z}`, `{x}` and `{y}` (or `{-y}` for TMS); `{a-c}` / `{1-4}` pick a
 * host per tile, and Leaflet's `{s}` is accepted as `{a-c}`.
 */
export interface BaseLayerConfig {
  id: string;
  title: string;
  url: string;
  /** Highest zoom the tile server has; deeper views upscale these tiles. Default 17 (spec 01 §9). */
  maxNativeZoom?: number;
  /** Tile edge in pixels. Default 512 (spec 01 §9). */
  tileSize?: number;
  /** Attribution HTML shown in the map's attribution control. */
  attributions?: string;
  /** Id of the layer to show instead when this one's tile server fails (e.g. street -> fallback street). */
  fallback?: string;
}

/** Id of the satellite layer, in the built-in config and in `window.__PORTAL_CONFIG__.baseLayers`. */
export const SATELLITE_LAYER_ID = 'satellite';

/**
 * The portal's own satellite view (services/locator: rendered from its geodata in the ortho imagery's
 * style). Its server draws tile zooms 13–19 and answers 204 below; 512-pixel tiles at tile zoom z are
 * shown at view zoom z + 1.
 */
export const BUILTIN_SATELLITE_LAYER: BaseLayerConfig = {
  id: SATELLITE_LAYER_ID,
  title: 'Satellite',
  url: TILES_API.satellite,
  maxNativeZoom: 19,
  tileSize: 512,
};

export type ResolvedBaseLayer = Required<Omit<BaseLayerConfig, 'attributions' | 'fallback'>> &
  Pick<BaseLayerConfig, 'attributions' | 'fallback'>;

/**
 * Base layers in force: explicit `fromProps` win, then `fromRuntimeConfig` — the `baseLayers` array the
 * gateway may inject as `window.__PORTAL_CONFIG__ = { baseLayers: [...] }` (same shape as
 * BaseLayerConfig) — else none, and no base layer means MapView draws its offline Natural Earth map.
 *
 * The runtime config comes from outside the bundle, so it is validated entry by entry; a bad entry is
 * dropped with a warning rather than breaking every map.
 */
export function resolveBaseLayers(
  fromProps: readonly BaseLayerConfig[] | undefined,
  fromRuntimeConfig: unknown,
): ResolvedBaseLayer[] {
  const source: readonly unknown[] = fromProps ?? runtimeBaseLayerEntries(fromRuntimeConfig);
  const resolved: ResolvedBaseLayer[] = [];
  for (const entry of source) {
    const layer = normaliseBaseLayer(entry);
    if (!layer) {
      console.warn('[MapView] ignoring invalid base layer config', entry);
    } else if (resolved.some((other) => other.id === layer.id)) {
      console.warn(`[MapView] ignoring duplicate base layer id "${layer.id}"`);
    } else {
      resolved.push(layer);
    }
  }
  return resolved;
}

/**
 * `window.__PORTAL_CONFIG__.baseLayers` as injected (unvalidated), or undefined. Read on each call so a
 * config injected after the bundle loaded still counts. Typed loosely on purpose: the global is shared
 * with other parts of the portal and is not declared here.
 */
export function readRuntimeBaseLayers(): unknown {
  const config: unknown = (globalThis as { __PORTAL_CONFIG__?: unknown }).__PORTAL_CONFIG__;
  return isRecord(config) ? config.baseLayers : undefined;
}

/**
 * The layer to show: the requested one (default: the first), following `fallback` links past layers
 * whose tiles failed. `undefined` means "use the offline map" — nothing configured or everything failed.
 */
export function pickBaseLayer(
  layers: readonly ResolvedBaseLayer[],
  requestedId: string | undefined,
  failedIds: ReadonlySet<string>,
): ResolvedBaseLayer | undefined {
  const byId = new Map(layers.map((layer) => [layer.id, layer]));
  let candidate: ResolvedBaseLayer | undefined =
    requestedId === undefined ? layers[0] : (byId.get(requestedId) ?? layers[0]);
  const visited = new Set<string>();
  while (candidate && failedIds.has(candidate.id)) {
    visited.add(candidate.id);
    const next: ResolvedBaseLayer | undefined = candidate.fallback ? byId.get(candidate.fallback) : undefined;
    candidate = next && !visited.has(next.id) ? next : undefined;
  }
  return candidate;
}

function runtimeBaseLayerEntries(fromRuntimeConfig: unknown): readonly unknown[] {
  if (fromRuntimeConfig === undefined || fromRuntimeConfig === null) return [];
  if (Array.isArray(fromRuntimeConfig)) return fromRuntimeConfig;
  console.warn('[MapView] __PORTAL_CONFIG__.baseLayers is not an array; ignoring it');
  return [];
}

function normaliseBaseLayer(entry: unknown): ResolvedBaseLayer | undefined {
  if (!isRecord(entry)) return undefined;
  const { id, title, url, maxNativeZoom, tileSize, attributions, fallback } = entry;
  if (!isNonEmptyString(id) || !isNonEmptyString(url)) return undefined;
  const template = url.replaceAll('{s}', '{a-c}');
  if (!template.includes('{z}') || !template.includes('{x}') || !/\{-?y\}/.test(template)) return undefined;
  return {
    id,
    title: isNonEmptyString(title) ? title : id,
    url: template,
    maxNativeZoom: isPositiveInteger(maxNativeZoom) ? maxNativeZoom : MAP_DEFAULTS.maxNativeZoom,
    tileSize: isPositiveInteger(tileSize) ? tileSize : MAP_DEFAULTS.tileSize,
    ...(isNonEmptyString(attributions) ? { attributions } : {}),
    ...(isNonEmptyString(fallback) && fallback !== id ? { fallback } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
