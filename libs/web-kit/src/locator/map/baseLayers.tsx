import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { BUILTIN_SATELLITE_LAYER, SATELLITE_LAYER_ID, type MapViewProps } from '@portal/web-kit';

export type BaseLayerChoice = 'street' | 'satellite';
type BaseLayerConfig = NonNullable<MapViewProps['baseLayers']>[number];

export { BUILTIN_SATELLITE_LAYER, SATELLITE_LAYER_ID };
/** View zoom from which the built-in satellite tiles exist (tile zoom 13 of 512-pixel tiles). */
export const BUILTIN_SATELLITE_MIN_VIEW_ZOOM = 14;

/** The deployment's base layers (`window.__PORTAL_CONFIG__.baseLayers`), unvalidated: MapView checks them. */
function runtimeBaseLayers(): BaseLayerConfig[] {
  const config = (globalThis as { __PORTAL_CONFIG__?: { baseLayers?: unknown } }).__PORTAL_CONFIG__;
  const layers = config?.baseLayers;
  return Array.isArray(layers) ? (layers as BaseLayerConfig[]) : [];
}

/**
 * MapView's base layer props for a choice. Street: the deployment's raster street layers if any, else
 * none, so MapView draws its vector street map over Natural Earth. Satellite: the deployment's satellite
 * layer (real imagery) if configured, else the built-in one — which exists only from
 * BUILTIN_SATELLITE_MIN_VIEW_ZOOM, so shallower views keep the street map. When the satellite tiles
 * fail, MapView follows `fallback` to the first street layer, or with none draws the street map.
 */
export function baseLayerProps(
  choice: BaseLayerChoice,
  viewZoom: number,
): Pick<MapViewProps, 'baseLayers' | 'activeBaseLayerId'> {
  const runtime = runtimeBaseLayers();
  const streetLayers = runtime.filter((layer) => layer?.id !== SATELLITE_LAYER_ID);
  if (choice === 'satellite') {
    const configured = runtime.find((layer) => layer?.id === SATELLITE_LAYER_ID);
    if (configured || viewZoom >= BUILTIN_SATELLITE_MIN_VIEW_ZOOM) {
      const satellite = { ...(configured ?? BUILTIN_SATELLITE_LAYER) };
      if (!satellite.fallback && streetLayers[0]) satellite.fallback = streetLayers[0].id;
      return { baseLayers: [satellite, ...streetLayers], activeBaseLayerId: SATELLITE_LAYER_ID };
    }
  }
  return { baseLayers: streetLayers, activeBaseLayerId: streetLayers[0]?.id };
}

export interface BaseLayerSwitchProps {
  value: BaseLayerChoice;
  onChange: (choice: BaseLayerChoice) => void;
}

/** Street / Satellite, over the map's top-left corner (below the zoom buttons). */
export function BaseLayerSwitch({ value, onChange }: BaseLayerSwitchProps) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_event, next: BaseLayerChoice | null) => {
        if (next) onChange(next);
      }}
      aria-label="Base map"
      sx={{ position: 'absolute', top: 64, left: 8, zIndex: 2, bgcolor: 'background.paper', boxShadow: 1 }}
    >
      <ToggleButton value="street">Street</ToggleButton>
      <ToggleButton value="satellite">Satellite</ToggleButton>
    </ToggleButtonGroup>
  );
}
