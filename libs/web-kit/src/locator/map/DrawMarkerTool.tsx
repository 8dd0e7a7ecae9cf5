import { useEffect, useRef } from 'react';
import Draw, { type DrawEvent } from 'ol/interaction/Draw';
import type Point from 'ol/geom/Point';
import { toLonLat } from 'ol/proj';
import ToggleButton from '@mui/material/ToggleButton';
import Tooltip from '@mui/material/Tooltip';
import { createSvgIcon } from '@mui/material/utils';
import { useOlMap } from '@portal/web-kit';
import { MAIN_MARKER_STYLE } from './styles';

/** The button's name (tooltip and aria-label). */
export const DRAW_MARKER_LABEL = 'Draw a marker';

// Material's "AddLocation" (the portal has no icon package).
const AddLocationIcon = createSvgIcon(
  <path d="M12 2C8.14 2 5 5.14 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.86-3.14-7-7-7m4 8h-3v3h-2v-3H8V8h3V5h2v3h3z" />,
  'AddLocation',
);

export interface DrawMarkerToolProps {
  /** The tool is on: the next click on the map draws the marker. */
  active: boolean;
  /** The button was pressed, Escape was pressed, or a marker was drawn (false). */
  onActiveChange: (active: boolean) => void;
  /** A marker was drawn at this point (WGS 84). */
  onDraw: (lat: number, lng: number) => void;
}

/**
 * Spec 01 §2 "drawing a marker": a map button that turns on an OpenLayers Draw interaction for one point
 * (the sketch follows the cursor in the main marker's style). A drawn point is reported through `onDraw`
 * and the tool turns itself off; Escape or the button again cancels. A child of MapView; the parent shows
 * it only while a marker may be placed, and its unmount removes the interaction.
 */
export function DrawMarkerTool({ active, onActiveChange, onDraw }: DrawMarkerToolProps) {
  const map = useOlMap();
  const callbacks = useRef({ onActiveChange, onDraw });
  useEffect(() => {
    callbacks.current = { onActiveChange, onDraw };
  });

  useEffect(() => {
    if (!active) return undefined;
    const draw = new Draw({
      type: 'Point',
      // A function, not the Style itself: Draw (which the shell does not load) comes from this remote's
      // copy of OpenLayers, whose `instanceof Style` rejects the shell's Style class that styles.ts gets.
      style: () => MAIN_MARKER_STYLE,
      // The pointer-up that draws the point must not also reach the map's click listeners (LocatorMap's
      // marker-mode click): one click places the marker once.
      stopClick: true,
    });
    draw.on('drawend', (event: DrawEvent) => {
      const [lng, lat] = toLonLat((event.feature.getGeometry() as Point).getCoordinates());
      callbacks.current.onDraw(lat, lng);
      callbacks.current.onActiveChange(false);
    });
    map.addInteraction(draw);
    const viewport = map.getViewport();
    if (viewport) viewport.style.cursor = 'crosshair';
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') callbacks.current.onActiveChange(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (viewport) viewport.style.cursor = '';
      map.removeInteraction(draw);
      draw.dispose();
    };
  }, [map, active]);

  return (
    <Tooltip title={DRAW_MARKER_LABEL} placement="right">
      <ToggleButton
        value="draw"
        size="small"
        selected={active}
        onChange={() => onActiveChange(!active)}
        aria-label={DRAW_MARKER_LABEL}
        data-testid="draw-marker"
        // Below the Street / Satellite switch (top 64, ~40 px high), in the same corner.
        sx={{
          position: 'absolute',
          top: 112,
          left: 8,
          zIndex: 2,
          bgcolor: 'background.paper',
          boxShadow: 1,
          '&.Mui-selected, &.Mui-selected:hover': { bgcolor: 'primary.main', color: 'primary.contrastText' },
        }}
      >
        <AddLocationIcon fontSize="small" />
      </ToggleButton>
    </Tooltip>
  );
}
