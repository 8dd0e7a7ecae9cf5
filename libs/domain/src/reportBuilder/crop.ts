/** Spec 02 §5: the report image's crop box (ratio 2, at least 640 × 400, inside the image) and PNG paste. */

/** Spec 02 §5, §9: the crop box's aspect ratio (width / height) and minimum size (px). */
export const CROP_ASPECT_RATIO = 2;
export const CROP_MIN_WIDTH = 640;
export const CROP_MIN_HEIGHT = 400;
/**
 * A box of ratio 2 at least 640 wide and 400 high is at least 800 × 400: the height minimum binds
 * (640 / 400 is 1.6, not 2), so that is the smallest crop there is.
 */
export const CROP_SMALLEST = {
  width: Math.max(CROP_MIN_WIDTH, CROP_MIN_HEIGHT * CROP_ASPECT_RATIO),
  height: Math.max(CROP_MIN_HEIGHT, CROP_MIN_WIDTH / CROP_ASPECT_RATIO),
} as const;

export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Spec 02 §5: a crop box is valid when its ratio is 2 (within one pixel of rounding), it is at least
 * 640 × 400 and, given the image size, it lies inside the image.
 */
export function cropBoxValid(box: CropBox, image?: { width: number; height: number }): boolean {
  const finite = [box.x, box.y, box.width, box.height].every(Number.isFinite);
  if (!finite || box.width < CROP_MIN_WIDTH || box.height < CROP_MIN_HEIGHT) return false;
  if (Math.abs(box.width - box.height * CROP_ASPECT_RATIO) > 1) return false;
  if (!image) return true;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= image.width && box.y + box.height <= image.height;
}

/**
 * The nearest valid crop box: the box's width (at least 800, at most the image's width, and no wider than
 * twice the image's height) sets the height at half of it, in whole even pixels; the box then moves inside
 * the image. Null when the image is smaller than 800 × 400, where no crop can be valid.
 */
export function clampCropBox(box: CropBox, image: { width: number; height: number }): CropBox | null {
  const maxWidth = Math.min(image.width, image.height * CROP_ASPECT_RATIO);
  if (!(maxWidth >= CROP_SMALLEST.width)) return null;
  const wanted = Number.isFinite(box.width) ? box.width : CROP_SMALLEST.width;
  let width = Math.min(Math.max(wanted, CROP_SMALLEST.width), maxWidth);
  width = Math.floor(width / CROP_ASPECT_RATIO) * CROP_ASPECT_RATIO;
  const height = width / CROP_ASPECT_RATIO;
  const clamp = (value: number, max: number) =>
    Math.min(Math.max(Number.isFinite(value) ? value : 0, 0), max);
  return {
    x: Math.round(clamp(box.x, image.width - width)),
    y: Math.round(clamp(box.y, image.height - height)),
    width,
    height,
  };
}

/** Spec 02 §5: clipboard paste accepts PNG images only. */
export const PASTE_MIME_TYPE = 'image/png';

/** True for a PNG's MIME type (any case; parameters such as ';charset' ignored). */
export const isPastableImage = (mimeType: string | null | undefined): boolean =>
  (mimeType ?? '').split(';')[0]!.trim().toLowerCase() === PASTE_MIME_TYPE;
