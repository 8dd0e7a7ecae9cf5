import type { LatLng, ObliqueCamera, ObliquePicks } from '@portal/contracts';
import { heightFromPicks } from '@portal/domain';
import { formatLength, type MeasurementDraft } from './measureFigures';
import { MEASURE_TEXT } from './texts';

/** Picture pixels one arrow key moves the cross; with Shift, five times as far. */
export const HEIGHT_STEP_PX = 4;
export const HEIGHT_SHIFT_FACTOR = 5;

export type Pixel = [number, number];

export interface HeightPicks {
  base: Pixel | null;
  top: Pixel | null;
  /** The keyboard's cross, picture pixels. */
  cross: Pixel;
}

export const initialPicks = (camera: ObliqueCamera): HeightPicks => ({
  base: null,
  top: null,
  cross: [Math.round(camera.width / 2), Math.round(camera.height / 2)],
});

const clamp = (value: number, max: number) => Math.min(max, Math.max(0, value));

/**
 * The picks after a key: arrows move the cross (Shift further), Enter or Space picks at the cross (the base
 * first, then the top; a third pick starts again from a new base), Escape clears the picks. Null for
 * every other key.
 */
export function picksAfterKey(
  picks: HeightPicks,
  camera: ObliqueCamera,
  key: string,
  shiftKey = false,
): HeightPicks | null {
  const step = shiftKey ? HEIGHT_STEP_PX * HEIGHT_SHIFT_FACTOR : HEIGHT_STEP_PX;
  const [x, y] = picks.cross;
  const move = (dx: number, dy: number): HeightPicks => ({
    ...picks,
    cross: [clamp(x + dx, camera.width - 1), clamp(y + dy, camera.height - 1)],
  });
  switch (key) {
    case 'ArrowLeft':
      return move(-step, 0);
    case 'ArrowRight':
      return move(step, 0);
    case 'ArrowUp':
      return move(0, -step);
    case 'ArrowDown':
      return move(0, step);
    case 'Enter':
    case ' ':
      return pickAt(picks, picks.cross);
    case 'Escape':
      return { ...picks, base: null, top: null };
    default:
      return null;
  }
}

/** A pick (click or key) at a picture pixel: the base, then the top, then a new base. */
export function pickAt(picks: HeightPicks, at: Pixel): HeightPicks {
  // Hundredths of a pixel: a click on a scaled picture falls between pixels, and a whole pixel is ~15 cm
  // of height on the built-in oblique.
  const pixel: Pixel = [Math.round(at[0] * 100) / 100, Math.round(at[1] * 100) / 100];
  if (!picks.base || picks.top) return { base: pixel, top: null, cross: pixel };
  return { ...picks, top: pixel, cross: pixel };
}

/** The height of the picks in metres, or why there is none (null when the top is not picked yet). */
export function heightOfPicks(
  picks: HeightPicks,
  camera: ObliqueCamera,
): { height: number } | { problem: string } | null {
  if (!picks.base || !picks.top) return null;
  try {
    return { height: heightFromPicks({ camera, base: picks.base, top: picks.top }) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The draft of a height read off an oblique: where (the picture's point), the picks, the value. */
export function heightDraft(
  oblique: ObliquePicks,
  value: number,
  {
    point,
    surveyId = null,
    capturedOn = null,
  }: { point: LatLng; surveyId?: number | null; capturedOn?: string | null },
): MeasurementDraft {
  return {
    kind: 'height',
    surveyId,
    capturedOn,
    geometry: { type: 'Point', coordinates: [point.lng, point.lat] },
    oblique,
    value,
    unit: 'm',
    perimeterM: null,
    text: formatLength(value),
    label: MEASURE_TEXT.kind.height,
  };
}
