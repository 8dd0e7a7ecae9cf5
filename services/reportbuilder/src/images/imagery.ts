import type { ImageImagery } from '@portal/contracts';
import type { Storage } from '@portal/server-kit';
import { imageKey, imageStem, type ImageTarget } from './keys';

/**
 * Issue 21: a report image captured from the portal's imagery keeps the survey it came from and its capture
 * date, beside the picture in the storage: `{stem}-base-image.imagery.json` for a target's base image and
 * `{stem}-base-image-cropped.imagery.json` for its crop (and so for its compressed JPEG, which the crop
 * makes). A crop of a base image carries the base's record over; a crop of an upload, or a pasted picture,
 * removes the target's record (the picture is no longer the imagery). The record is never served: the
 * assets route serves .png and .jpg only.
 */

export type ImageryVariant = 'base' | 'cropped';

const SUFFIX: Record<ImageryVariant, string> = {
  base: '-base-image.imagery.json',
  cropped: '-base-image-cropped.imagery.json',
};

/** The record's file name for a target's base image or crop. */
export const imageryRecordName = (target: ImageTarget, variant: ImageryVariant): string =>
  `${imageStem(target)}${SUFFIX[variant]}`;

/** The record as one file of putAll's list (written with the picture, or not at all). */
export const imageryRecordFile = (
  requestID: string,
  target: ImageTarget,
  variant: ImageryVariant,
  imagery: ImageImagery,
) => ({
  key: imageKey(requestID, imageryRecordName(target, variant)),
  data: Buffer.from(JSON.stringify({ surveyId: imagery.surveyId, capturedOn: imagery.capturedOn })),
  contentType: 'application/json',
});

/** The survey a target's base image or crop was captured from, or null (not from the imagery). */
export async function readImageryRecord(
  storage: Storage,
  requestID: string,
  target: ImageTarget,
  variant: ImageryVariant,
): Promise<ImageImagery | null> {
  const file = await storage.get(imageKey(requestID, imageryRecordName(target, variant)));
  if (!file) return null;
  try {
    const record = JSON.parse(file.data.toString('utf8')) as Partial<ImageImagery>;
    return typeof record.surveyId === 'number' &&
      typeof record.capturedOn === 'string' &&
      /^\d{4}-\d{2}-\d{2}$/.test(record.capturedOn)
      ? { surveyId: record.surveyId, capturedOn: record.capturedOn }
      : null;
  } catch {
    return null;
  }
}

/** Removes a target's record (the picture is no longer from the imagery). */
export const removeImageryRecord = (
  storage: Storage,
  requestID: string,
  target: ImageTarget,
  variant: ImageryVariant,
) => storage.delete(imageKey(requestID, imageryRecordName(target, variant)));
