import {
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import type OlMap from 'ol/Map';
import type VectorSource from 'ol/source/Vector';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { OlMapContext } from '@portal/web-kit';
import { MAP_MEASURE_KINDS, type MapMeasureKind, type MeasurementDraft } from './measureFigures';
import { useMeasureInteraction } from './useMeasureInteraction';
import { MEASURE_TEXT } from './texts';

export interface MeasureToolbarProps {
  /** The map to measure on; default: the enclosing MapView's (render the toolbar as its child). */
  map?: OlMap | null;
  /** The survey shown (stamped on every draft), and its capture date. */
  surveyId?: number | null;
  capturedOn?: string | null;
  /** Outlines to snap to (parcel and building edges). */
  snapSource?: VectorSource | null;
  /** The tools offered (default distance, length, area). */
  kinds?: readonly MapMeasureKind[];
  /** A measurement was finished or edited (same `key` as before when edited). */
  onMeasured?: (draft: MeasurementDraft & { key: string }) => void;
  /** Controlled tool; without, the toolbar keeps its own. */
  kind?: MapMeasureKind | null;
  onKindChange?: (kind: MapMeasureKind | null) => void;
}

/**
 * Measuring tools for any OpenLayers map: a tool switch (distance, length, area), then Add point (at the
 * centre cross), Undo, Finish and Cancel, a polite live region reading each step and figure, and the keys
 * of measureKeys.ts on the map (which becomes a tab stop while measuring) and on the toolbar. Escape with
 * no sketch turns the tool off. Placed absolutely (top right) over a `position: relative` parent.
 */
export function MeasureToolbar({
  map: givenMap,
  surveyId = null,
  capturedOn = null,
  snapSource = null,
  kinds = MAP_MEASURE_KINDS,
  onMeasured,
  kind: controlledKind,
  onKindChange,
}: MeasureToolbarProps) {
  const contextMap = useContext(OlMapContext);
  const map = givenMap ?? contextMap;
  const [ownKind, setOwnKind] = useState<MapMeasureKind | null>(null);
  const kind = controlledKind !== undefined ? controlledKind : ownKind;
  const setKind = (next: MapMeasureKind | null) => {
    if (controlledKind === undefined) setOwnKind(next);
    onKindChange?.(next);
  };
  const measure = useMeasureInteraction(map, { kind, surveyId, capturedOn, snapSource, onMeasured });

  // Keys reach the controller from the map (a tab stop while measuring) and from the toolbar.
  const onKey = useRef<(event: KeyboardEvent | ReactKeyboardEvent) => void>(() => {});
  onKey.current = (event) => {
    const target = event.target as HTMLElement | null;
    const onButton = !!target?.closest('button');
    // On a button, Space and Enter press it; the arrows stay the map's.
    if (onButton && (event.key === ' ' || event.key === 'Enter')) return;
    if (measure.handleKey(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Escape' && kind) {
      event.preventDefault();
      setKind(null);
    }
  };
  const instructionsId = useId();
  useEffect(() => {
    const element = map?.getTargetElement();
    if (!element || !kind) return undefined;
    const listener = (event: KeyboardEvent) => onKey.current(event);
    const previous = {
      tabIndex: element.getAttribute('tabindex'),
      label: element.getAttribute('aria-label'),
    };
    element.setAttribute('tabindex', '0');
    element.setAttribute('role', 'application');
    element.setAttribute('aria-label', `${MEASURE_TEXT.kind[kind]}: ${MEASURE_TEXT.instructions}`);
    element.addEventListener('keydown', listener);
    return () => {
      element.removeEventListener('keydown', listener);
      element.removeAttribute('role');
      if (previous.tabIndex === null) element.removeAttribute('tabindex');
      else element.setAttribute('tabindex', previous.tabIndex);
      if (previous.label === null) element.removeAttribute('aria-label');
      else element.setAttribute('aria-label', previous.label);
    };
  }, [map, kind]);

  return (
    <>
      {kind && (
        // The cross at the map's centre, where Space adds a point.
        <Box
          aria-hidden
          data-testid="measure-crosshair"
          sx={{
            position: 'absolute',
            left: '50%',
            top: '50%',
            width: 24,
            height: 24,
            ml: '-12px',
            mt: '-12px',
            zIndex: 3,
            pointerEvents: 'none',
            '&::before, &::after': {
              content: '""',
              position: 'absolute',
              bgcolor: '#ffcc33',
              boxShadow: '0 0 0 1px #000',
            },
            '&::before': { left: 11, top: 0, width: 2, height: 24 },
            '&::after': { top: 11, left: 0, height: 2, width: 24 },
          }}
        />
      )}
      <Paper
        elevation={2}
        onKeyDown={(event) => onKey.current(event)}
        sx={{ position: 'absolute', top: 8, right: 8, zIndex: 4, p: 1, maxWidth: 320 }}
        data-testid="measure-toolbar"
      >
        <Stack spacing={1}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={kind}
            onChange={(_event, value: MapMeasureKind | null) => setKind(value)}
            aria-label={MEASURE_TEXT.toolbar}
          >
            {kinds.map((option) => (
              <ToggleButton key={option} value={option}>
                {MEASURE_TEXT.kind[option]}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {kind && (
            <>
              <Typography variant="caption" id={instructionsId}>
                {MEASURE_TEXT.instructions}
              </Typography>
              <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
                <Button size="small" onClick={measure.addVertexAtCentre} aria-describedby={instructionsId}>
                  {MEASURE_TEXT.addPoint}
                </Button>
                <Button size="small" onClick={measure.undo} disabled={!measure.drawing}>
                  {MEASURE_TEXT.undo}
                </Button>
                <Button size="small" onClick={measure.finish} disabled={!measure.drawing}>
                  {MEASURE_TEXT.finish}
                </Button>
                <Button size="small" onClick={measure.cancel} disabled={!measure.drawing}>
                  {MEASURE_TEXT.cancel}
                </Button>
              </Stack>
              {measure.text && (
                <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="measure-live">
                  {measure.text}
                </Typography>
              )}
            </>
          )}
          <Box role="status" aria-live="polite" sx={visuallyHidden}>
            {measure.announcement}
          </Box>
        </Stack>
      </Paper>
    </>
  );
}

/** Read by screen readers, not shown (the figures are shown beside the sketch and in the toolbar). */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
