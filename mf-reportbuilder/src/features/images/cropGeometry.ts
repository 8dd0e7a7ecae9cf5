import { CROP_ASPECT_RATIO, CROP_SMALLEST, clampCropBox, type CropBox } from '@portal/domain';

export interface Size {
  width: number;
  height: number;
}

/** The first box offered: the largest valid one, centred (null when the image is under 800 × 400). */
export function initialCropBox(image: Size): CropBox | null {
  const width = Math.min(image.width, image.height * CROP_ASPECT_RATIO);
  const height = width / CROP_ASPECT_RATIO;
  return clampCropBox({ x: (image.width - width) / 2, y: (image.height - height) / 2, width, height }, image);
}

/** The box moved by (dx, dy) image pixels, kept inside the image. */
export const moveCropBox = (box: CropBox, dx: number, dy: number, image: Size): CropBox =>
  clampCropBox({ ...box, x: box.x + dx, y: box.y + dy }, image) ?? box;

/**
 * The box resized from its top-left corner to `width` (the height follows at ratio 2), at least 800 × 400
 * and inside the image (moved back in when it would stick out).
 */
export const resizeCropBox = (box: CropBox, width: number, image: Size): CropBox =>
  clampCropBox({ ...box, width, height: width / CROP_ASPECT_RATIO }, image) ?? box;

/** True when no valid box fits the image (spec 02 §5: ratio 2, at least 640 × 400 → 800 × 400). */
export const tooSmallToCrop = (image: Size) =>
  Math.min(image.width, image.height * CROP_ASPECT_RATIO) < CROP_SMALLEST.width;
