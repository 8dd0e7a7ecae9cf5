import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import { createSvgIcon } from '@mui/material/utils';
import { fromLonLat, toLonLat } from 'ol/proj';
import type { LatLng } from '@portal/contracts';
import { useOlMap } from '@portal/web-kit';

/** The controls' names (tooltips and aria-labels), for the screens' and browser tests. */
export const MARKER_KEYS_TEXT = {
  group: 'Marker from the keyboard',
  placeAtCentre: "Place the marker at the map's centre",
  move: (direction: string) => `Move the marker ${direction}`,
} as const;

/** How far one press moves the marker: this many screen pixels at the map's zoom (a few metres at 18). */
export const MARKER_STEP_PX = 10;

// Material's "CenterFocusStrong" and the arrows (the portal has no icon package).
const CentreIcon = createSvgIcon(
  <path d="M12 8c-2.21 0-4 1.79-4 4s1.79 4 4 4 4-1.79 4-4-1.79-4-4-4m-7 7H3v4c0 1.1.9 2 2 2h4v-2H5zM5 5h4V3H5c-1.1 0-2 .9-2 2v4h2zm14-2h-4v2h4v4h2V5c0-1.1-.9-2-2-2m0 16h-4v2h4c1.1 0 2-.9 2-2v-4h-2z" />,
  'CenterFocusStrong',
);
const ArrowIcon = createSvgIcon(
  <path d="M4 12l1.41 1.41L11 7.83V20h2V7.83l5.58 5.59L20 12l-8-8z" />,
  'ArrowUpward',
);

const DIRECTIONS = [
  { name: 'north', dx: 0, dy: -1, rotate: 0 },
  { name: 'west', dx: -1, dy: 0, rotate: 270 },
  { name: 'east', dx: 1, dy: 0, rotate: 90 },
  { name: 'south', dx: 0, dy: 1, rotate: 180 },
] as const;

export interface MarkerKeyboardControlsProps {
  /** A marker may be placed now (the same rule as a click on the map). */
  placeable: boolean;
  /** The marker, when there is one and it may be dragged: the arrows move it. */
  movable: LatLng | null;
  /** Places (or moves) the marker, as a click or a drag would. */
  onPlace: (lat: number, lng: number) => void;
}

/**
 * The keyboard's way to what the mouse does on the map (issue 24, WCAG 2.1.1): a button that places the
 * marker at the map's centre (pan with the map's own arrow keys or a search first), and four buttons that
 * move the marker a few pixels as a drag would. A child of MapView, drawn below the draw-marker tool.
 */
export function MarkerKeyboardControls({ placeable, movable, onPlace }: MarkerKeyboardControlsProps) {
  const map = useOlMap();
  if (!placeable && !movable) return null;

  const placeAtCentre = () => {
    const centre = map.getView().getCenter();
    if (!centre) return;
    const [lng, lat] = toLonLat(centre);
    onPlace(lat, lng);
  };
  // A step of MARKER_STEP_PX screen pixels in the view's units (screen y grows downwards, the view's north).
  const move = (dx: number, dy: number) => {
    const resolution = map.getView().getResolution();
    if (!movable || !resolution) return;
    const [x, y] = fromLonLat([movable.lng, movable.lat]);
    const step = resolution * MARKER_STEP_PX;
    const [lng, lat] = toLonLat([x + dx * step, y - dy * step]);
    onPlace(lat, lng);
  };

  return (
    <Paper
      role="group"
      aria-label={MARKER_KEYS_TEXT.group}
      sx={{ position: 'absolute', top: 160, left: 8, zIndex: 2, display: 'grid', boxShadow: 1 }}
      data-testid="marker-keyboard-controls"
    >
      {placeable && (
        <Tooltip title={MARKER_KEYS_TEXT.placeAtCentre} placement="right">
          <IconButton size="small" aria-label={MARKER_KEYS_TEXT.placeAtCentre} onClick={placeAtCentre}>
            <CentreIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {movable &&
        DIRECTIONS.map((direction) => (
          <Tooltip key={direction.name} title={MARKER_KEYS_TEXT.move(direction.name)} placement="right">
            <IconButton
              size="small"
              aria-label={MARKER_KEYS_TEXT.move(direction.name)}
              onClick={() => move(direction.dx, direction.dy)}
            >
              <ArrowIcon fontSize="small" sx={{ transform: `rotate(${direction.rotate}deg)` }} />
            </IconButton>
          </Tooltip>
        ))}
    </Paper>
  );
}
