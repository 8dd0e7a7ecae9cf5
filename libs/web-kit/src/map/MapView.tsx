import 'ol/ol.css';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import OlMap from 'ol/Map';
import View from 'ol/View';
import type TileLayer from 'ol/layer/Tile';
import type XYZ from 'ol/source/XYZ';
import { defaults as defaultControls } from 'ol/control/defaults';
import { MAP_DEFAULTS } from '@portal/domain';
import { type LatLng } from './geo';
import { lonLatToView, viewToLonLat } from './layers';
import { OlMapContext } from './MapContext';
import {
  pickBaseLayer,
  readRuntimeBaseLayers,
  resolveBaseLayers,
  type BaseLayerConfig,
  type ResolvedBaseLayer,
} from './baseLayerConfig';
import { createBaseTileLayer } from './tileLayers';
import { createOfflineBaseLayers, OFFLINE_OCEAN_COLOUR } from './offlineBaseMap';
import { createImageryLabelLayers, createParcelOverlayLayer, createStreetMapLayers } from './vectorTiles';

/** Base layers sit below everything children add (default zIndex 0), whatever order they arrive in. */
const BASE_LAYER_Z_INDEX = -100;

export interface MapViewProps {
  /** Centre of the view; changing it re-centres the map. Default: spec 01 §9 (-28.96642, 24.181142). */
  center?: LatLng;
  /** Zoom of the view; changing it re-zooms the map. Default 6. */
  zoom?: number;
  /**
   * XYZ base layers (satellite, street, fallback street, ...). When omitted, the runtime config
   * `window.__PORTAL_CONFIG__.baseLayers` is used; when that is absent too, the offline Natural Earth
   * map is drawn. See baseLayerConfig.ts.
   */
  baseLayers?: readonly BaseLayerConfig[];
  /** Id of the base layer to show (default: the first). Lets a layer switcher live outside MapView. */
  activeBaseLayerId?: string;
  /**
   * Draw the locator's vector street map (roads, place names, house numbers) over the offline Natural
   * Earth map when no raster base layer is shown. Default true. The tiles need a session: pass false on
   * pages anonymous users see. When the tiles fail (no session, service down) only Natural Earth stays.
   */
  streetTiles?: boolean;
  /**
   * While a raster base layer (satellite imagery) is shown, draw labels from the same tiles over it: road
   * names and thin see-through roads, place names and house numbers, white on dark halos. Default false.
   * Needs `streetTiles`; off for the map's life once the tiles have failed, as the street map.
   */
  labelsOverImagery?: boolean;
  /** Show the parcel overlay from the locator's tiles (green, opacity 0.5; from view zoom 15). */
  parcels?: boolean;
  /** Called once with the OpenLayers map after it is created (again if StrictMode re-creates it). */
  onMapReady?: (map: OlMap) => void;
  /** A click on the map, in WGS 84. */
  onClick?: (lat: number, lng: number) => void;
  className?: string;
  /** Style of the map container; give it a height (the default fills its parent: 100% x 100%). */
  style?: CSSProperties;
  /** Layer components (MapLayer, useMapLayer, useOlMap); rendered once the map exists. */
  children?: ReactNode;
}

/**
 * The portal's one map: an OpenLayers map created once per mount and exposed to children through
 * useOlMap(). Never blank offline: without a reachable tile server it draws Natural Earth countries.
 */
export function MapView({
  center = MAP_DEFAULTS.centre,
  zoom = MAP_DEFAULTS.zoom,
  baseLayers,
  activeBaseLayerId,
  streetTiles = true,
  labelsOverImagery = false,
  parcels = false,
  onMapReady,
  onClick,
  className,
  style,
  children,
}: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<OlMap | null>(null);

  // Callbacks and the initial view are read through refs so new props never re-create the map.
  const initialViewRef = useRef({ center, zoom });
  const onClickRef = useRef(onClick);
  const onMapReadyRef = useRef(onMapReady);
  useEffect(() => {
    onClickRef.current = onClick;
    onMapReadyRef.current = onMapReady;
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return undefined;
    const olMap = new OlMap({
      target: container,
      controls: defaultControls({ attributionOptions: { collapsible: true } }),
      view: new View({
        center: lonLatToView(initialViewRef.current.center),
        zoom: initialViewRef.current.zoom,
        maxZoom: MAP_DEFAULTS.maxZoom,
      }),
    });
    olMap.on('click', (event) => {
      const { lat, lng } = viewToLonLat(event.coordinate);
      onClickRef.current?.(lat, lng);
    });
    setMap(olMap);
    onMapReadyRef.current?.(olMap);
    return () => {
      setMap(null);
      olMap.setTarget(undefined);
      olMap.dispose();
    };
  }, []);

  const { lat, lng } = center;
  useEffect(() => {
    if (!map) return;
    const view = map.getView();
    view.setCenter(lonLatToView({ lat, lng }));
    view.setZoom(zoom);
  }, [map, lat, lng, zoom]);

  const configuredLayers = useStableBaseLayers(baseLayers);
  const [failedLayerIds, setFailedLayerIds] = useState<ReadonlySet<string>>(() => new Set());
  const [tileLayers, setTileLayers] = useState<ReadonlyMap<string, TileLayer<XYZ>>>(() => new Map());

  useEffect(() => {
    if (!map) return undefined;
    const created = new Map<string, TileLayer<XYZ>>();
    for (const config of configuredLayers) {
      const layer = createBaseTileLayer(config, () =>
        setFailedLayerIds((previous) => new Set(previous).add(config.id)),
      );
      layer.setZIndex(BASE_LAYER_Z_INDEX);
      map.addLayer(layer);
      created.set(config.id, layer);
    }
    setFailedLayerIds(new Set());
    setTileLayers(created);
    return () => {
      created.forEach((layer) => {
        map.removeLayer(layer);
        layer.dispose();
      });
    };
  }, [map, configuredLayers]);

  const shownLayer = pickBaseLayer(configuredLayers, activeBaseLayerId, failedLayerIds);
  const shownLayerId = shownLayer?.id;
  useEffect(() => {
    tileLayers.forEach((layer, id) => layer.setVisible(id === shownLayerId));
  }, [tileLayers, shownLayerId]);

  const offline = shownLayer === undefined;
  useEffect(() => {
    if (!map || !offline) return undefined;
    // Its outline files are fetched by the layers themselves, at the zooms that need them.
    const offlineLayers = createOfflineBaseLayers();
    offlineLayers.forEach((layer) => {
      layer.setZIndex(BASE_LAYER_Z_INDEX);
      map.addLayer(layer);
    });
    return () => {
      offlineLayers.forEach((layer) => {
        map.removeLayer(layer);
        layer.dispose();
      });
    };
  }, [map, offline]);

  // The street map from the locator's tiles, over Natural Earth, while the offline map is shown; the
  // labels over imagery from the same tiles while a raster base layer is. Once those tiles have failed
  // (no session, service down) both stay off for this map's life.
  const [streetTilesFailed, setStreetTilesFailed] = useState(false);
  const streetMapShown = offline && streetTiles && !streetTilesFailed;
  const imageryLabelsShown = !offline && labelsOverImagery && streetTiles && !streetTilesFailed;
  const tileOverlay = streetMapShown ? 'street map' : imageryLabelsShown ? 'imagery labels' : null;
  useEffect(() => {
    if (!map || !tileOverlay) return undefined;
    const create = tileOverlay === 'street map' ? createStreetMapLayers : createImageryLabelLayers;
    const layers = create(() => setStreetTilesFailed(true));
    layers.forEach((layer) => map.addLayer(layer));
    return () => {
      layers.forEach((layer) => {
        map.removeLayer(layer);
        layer.dispose();
      });
    };
  }, [map, tileOverlay]);

  const [parcelTilesFailed, setParcelTilesFailed] = useState(false);
  const parcelsShown = parcels && !parcelTilesFailed;
  useEffect(() => {
    if (!map || !parcelsShown) return undefined;
    const layer = createParcelOverlayLayer(() => {
      console.warn('[MapView] parcel tiles could not be loaded; the parcel overlay is off');
      setParcelTilesFailed(true);
    });
    map.addLayer(layer);
    return () => {
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map, parcelsShown]);

  const containerStyle: CSSProperties = {
    width: '100%',
    height: '100%',
    ...(offline ? { background: OFFLINE_OCEAN_COLOUR } : {}),
    ...style,
  };

  return (
    <>
      <div
        ref={containerRef}
        className={className}
        style={containerStyle}
        data-offline-map={offline || undefined}
        data-street-map={streetMapShown || undefined}
        data-imagery-labels={imageryLabelsShown || undefined}
      />
      <OlMapContext.Provider value={map}>{map ? children : null}</OlMapContext.Provider>
    </>
  );
}

/**
 * Resolved base layers, re-resolved only when the inputs' content changes: an inline
 * `baseLayers={[...]}` prop must not rebuild the tile layers (or repeat config warnings) every render.
 */
function useStableBaseLayers(baseLayers: readonly BaseLayerConfig[] | undefined): ResolvedBaseLayer[] {
  const inputKey = JSON.stringify([baseLayers ?? null, readRuntimeBaseLayers() ?? null]);
  return useMemo(() => {
    const [fromProps, fromRuntimeConfig] = JSON.parse(inputKey) as [BaseLayerConfig[] | null, unknown];
    return resolveBaseLayers(fromProps ?? undefined, fromRuntimeConfig ?? undefined);
  }, [inputKey]);
}
