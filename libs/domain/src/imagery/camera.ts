import type { ObliqueCamera, ObliquePicks, Orientation } from '@portal/contracts';

/**
 * The built-in renderer's camera (services/locator's imagery), written once so that the renderer draws
 * with it, the locator hands it out with each oblique, and the screens and services/requests read heights
 * off a picture with it.
 */

/** Ground width every built-in picture shows, whatever its pixel size. */
export const BUILTIN_VIEW_WIDTH_M = 110;
/** The built-in obliques look down at 45°. */
export const BUILTIN_TILT_DEGREES = 45;
/** Where the camera stands, as a compass bearing from the location (the view looks the other way). */
export const CAMERA_BEARING_DEGREES: Record<Exclude<Orientation, 'o'>, number> = {
  n: 0,
  e: 90,
  s: 180,
  w: 270,
};

/** The built-in renderer's camera for a picture of `width` × `height` pixels seen from `orientation`. */
export function builtinCamera(orientation: Orientation, width: number, height: number): ObliqueCamera {
  return {
    orientation,
    width,
    height,
    metresAcross: BUILTIN_VIEW_WIDTH_M,
    tiltDegrees: orientation === 'o' ? 90 : BUILTIN_TILT_DEGREES,
    bearingDegrees: orientation === 'o' ? 0 : CAMERA_BEARING_DEGREES[orientation],
  };
}

/** Picture pixels per metre of ground across the picture. */
export const pixelsPerMetre = (camera: ObliqueCamera) => camera.width / camera.metresAcross;

/**
 * The height of a vertical edge whose base and top were picked on an oblique: the camera's projection
 * lifts a point h metres up by h × cos(tilt) × pixelsPerMetre pixels, straight up the picture, whatever
 * its place on the ground — so only the upright distance between the picks counts. Metres, 2 decimals.
 * Straight down (tilt 90°) heights cannot be seen: a RangeError.
 */
export function heightFromPicks({ camera, base, top }: ObliquePicks): number {
  const cosTilt = Math.cos((camera.tiltDegrees * Math.PI) / 180);
  if (camera.orientation === 'o' || cosTilt < 1e-6)
    throw new RangeError('Heights are read off an oblique picture, not the ortho.');
  const upright = base[1] - top[1];
  if (upright <= 0) throw new RangeError('The top must be above the base on the picture.');
  return Math.round((upright / (cosTilt * pixelsPerMetre(camera))) * 100) / 100;
}

/** Where a point h metres above the location appears on the picture (the inverse, for tests and overlays). */
export function pictureOffsetOfHeight(camera: ObliqueCamera, heightM: number): number {
  return heightM * Math.cos((camera.tiltDegrees * Math.PI) / 180) * pixelsPerMetre(camera);
}
