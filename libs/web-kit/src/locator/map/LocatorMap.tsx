import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import type OlMap from 'ol/Map';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { MapView, useCurrentUser } from '@portal/web-kit';
import type { LocatorSearch } from '../useLocatorSearch';
import { BaseLayerSwitch, baseLayerProps, type BaseLayerChoice } from './baseLayers';
import { DrawMarkerTool } from './DrawMarkerTool';
import { GeometryLayer } from './GeometryLayer';
import { MainMarker } from './MainMarker';
import { MapFocus } from './MapFocus';
import { MapPopup } from './MapPopup';
import { MarkerKeyboardControls } from './MarkerKeyboardControls';
import { MarkerPopup } from './MarkerPopup';
import { AREA_STYLE, PARCEL_STYLE, ZOOM } from './styles';
import { isAreaPlace, type PlaceDetails } from './usePlaceDetails';

export interface LocatorMapProps {
  search: LocatorSearch;
  details: PlaceDetails;
  /** False while picture view is on (spec 01 §4). Default true. */
  draggable?: boolean;
  onMapReady?: (map: OlMap) => void;
  /** More layers (children of MapView). */
  children?: ReactNode;
}

/**
 * The locator's map: the parcel overlay, the main marker (placed by a click or the draw tool in marker
 * mode, dragged while draggable), its popup, the selected parcel (parcel style) or area (area style), the zoom rules, and
 * the Street / Satellite switch with labels over the satellite imagery (spec 01 §2).
 */
export function LocatorMap({ search, details, draggable = true, onMapReady, children }: LocatorMapProps) {
  const { user } = useCurrentUser();
  const { state } = search;
  const [baseLayer, setBaseLayer] = useState<BaseLayerChoice>('street');
  // The view's zoom (read when a move ends): the built-in satellite tiles start at view zoom 14.
  const [viewZoom, setViewZoom] = useState(0);
  const handleMapReady = useCallback(
    (map: OlMap) => {
      const readZoom = () => setViewZoom(map.getView().getZoom() ?? 0);
      readZoom();
      map.on('moveend', readZoom);
      onMapReady?.(map);
    },
    [onMapReady],
  );
  // Spec 01 §2: the marker is placed (click, draw) only once a search option is chosen and marker mode
  // is on, and not while picture view holds the map still.
  const markerPlaceable = !!state.option && state.markerMode && draggable;
  const [drawing, setDrawing] = useState(false);
  useEffect(() => {
    if (!markerPlaceable) setDrawing(false);
  }, [markerPlaceable]);
  const selected = state.selected;
  const [popupOpen, setPopupOpen] = useState(true);
  useEffect(() => setPopupOpen(true), [selected?.version]);

  const area = isAreaPlace(selected);
  const parcelGeometry = details.reverse?.parcel?.geometry ?? null;
  const areaGeometry = details.area?.geometry ?? null;
  const isMarker = !!selected && !selected.item;
  // Which parcel the map has drawn: a data attribute for the browser tests and the timing bench.
  const [drawnParcel, setDrawnParcel] = useState<string | null>(null);
  const parcelId = details.reverse?.parcel?.id ?? null;
  useEffect(() => {
    if (!parcelId) setDrawnParcel(null);
  }, [parcelId]);

  return (
    <Box
      sx={{ position: 'relative', width: '100%', height: '100%' }}
      data-testid="locator-map"
      data-parcel-drawn={drawnParcel ?? undefined}
    >
      <Suspense
        fallback={
          <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
            <CircularProgress />
          </Box>
        }
      >
        <BaseLayerSwitch value={baseLayer} onChange={setBaseLayer} />
        <MapView
          parcels
          {...baseLayerProps(baseLayer, viewZoom)}
          // Street names and house numbers over the imagery too (when the satellite tiles are shown).
          labelsOverImagery={baseLayer === 'satellite'}
          onMapReady={handleMapReady}
          onClick={(lat, lng) => {
            // While the draw tool is on it places the marker itself: one placement per click.
            if (markerPlaceable && !drawing) search.placeMarker(lat, lng);
          }}
        >
          {markerPlaceable && (
            <DrawMarkerTool active={drawing} onActiveChange={setDrawing} onDraw={search.placeMarker} />
          )}
          {/* The keyboard's way to place and move the marker (issue 24): what a click or a drag does. */}
          <MarkerKeyboardControls
            placeable={markerPlaceable}
            movable={selected && draggable ? selected.point : null}
            onPlace={search.placeMarker}
          />
          {areaGeometry && <GeometryLayer geometry={areaGeometry} style={AREA_STYLE} zIndex={10} />}
          {parcelGeometry && (
            <GeometryLayer
              geometry={parcelGeometry}
              style={PARCEL_STYLE}
              zIndex={20}
              onDrawn={() => setDrawnParcel(parcelId)}
            />
          )}
          {selected && (
            <>
              <MapFocus
                point={isMarker ? null : selected.point}
                zoom={area ? ZOOM.area : ZOOM.place}
                version={selected.version}
                fitTo={isMarker ? undefined : (parcelGeometry ?? undefined)}
                minZoom={isMarker && areaGeometry ? ZOOM.area : undefined}
              />
              <MainMarker position={selected.point} draggable={draggable} onMove={search.placeMarker} />
              {popupOpen && (
                <MapPopup position={selected.point}>
                  <MarkerPopup
                    point={selected.point}
                    details={details}
                    draggable={draggable}
                    includeIds={!!user?.includeIds}
                    onClose={() => setPopupOpen(false)}
                  />
                </MapPopup>
              )}
            </>
          )}
          {children}
        </MapView>
      </Suspense>
    </Box>
  );
}
