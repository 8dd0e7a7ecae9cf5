import type { CoverageAnswer, Orientation } from '@portal/contracts';
import { VIEWER_ZOOM } from '../../config';
import { IMAGERY_TEXT } from '../../texts';

/** Which imagery picture view shows. */
export type ImageryMode = 'oblique' | 'ortho';

export type CoverageOutcome =
  { on: true; mode: ImageryMode; alert: string | null } | { on: false; alert: string };

/**
 * Spec 01 §4, picture view on: coverage decides.
 * - success and covered: the imagery (oblique n, e, s, w and ortho);
 * - success, not covered, ortho: ortho only, after the 'not available but satellite is' alert;
 * - success, neither: off, with the 'not available' alert (no imagery exists: 'Oblique Imagery could not
 *   be found.');
 * - not success (or no answer): off, with the service-down alert.
 */
export function coverageOutcome(answer: CoverageAnswer | null | undefined): CoverageOutcome {
  if (!answer?.success) return { on: false, alert: IMAGERY_TEXT.serviceDown };
  if (answer.covered) return { on: true, mode: 'oblique', alert: null };
  if (answer.ortho) return { on: true, mode: 'ortho', alert: IMAGERY_TEXT.notAvailableSatelliteIs };
  return { on: false, alert: IMAGERY_TEXT.obliqueMissing };
}

/** The orientations fetched per mode: the oblique viewer shows n, e, s, w and the ortho view. */
export const ORIENTATIONS_FOR: Record<ImageryMode, readonly Orientation[]> = {
  oblique: ['n', 'e', 's', 'w', 'o'],
  ortho: ['o'],
};

/** Spec 01 §4: RVE and Building Size Calculation need imagery or ortho at the point. */
export const imageryAvailable = (answer: CoverageAnswer | null | undefined) =>
  !!answer?.success && (answer.covered || answer.ortho);

/**
 * Spec 01 §4: a failed imagery fetch (any orientation without success) alerts the user to log the
 * request when coverage or ortho exists there, and that no imagery exists otherwise.
 */
export const imageryFailureAlert = (answer: CoverageAnswer | null | undefined) =>
  imageryAvailable(answer) ? IMAGERY_TEXT.unableToLoad : IMAGERY_TEXT.obliqueMissing;

/** The viewer's zoom after a step, kept within 0.2–4 (spec 01 §9). */
export function stepZoom(
  current: number,
  direction: 1 | -1,
  { step, min, max }: { step: number; min: number; max: number } = VIEWER_ZOOM,
): number {
  const next = Math.round((current + direction * step) * 10) / 10;
  return Math.min(max, Math.max(min, next));
}
