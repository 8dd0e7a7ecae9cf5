/**
 * The one place that names a report's images (spec 02 §2.1, §7.1; issue 13). The routes (src/routes/images.ts)
 * and the PDF both import it, so a name is never spelled twice.
 *
 * Every image of a request is one object of the storage interface under
 * `reportbuilder/uploads/{requestID}/{fileName}` and is served at
 * `/reportbuilder/assets/uploads/{requestID}/{fileName}`.
 *
 * An image's target is the property, a section, a building of a section, a floor of a building, or an
 * improvement of a section or of a building. Its stem:
 *
 *   property                                   property
 *   section n                                  section-{n}
 *   building m of section n                    section-{n}-building-{m}
 *   floor k of building m of section n         section-{n}-building-{m}-floor-{k}
 *   improvement i of section n                 section-{n}-improvement-{i}
 *   improvement i of building m of section n   section-{n}-building-{m}-improvement-{i}
 *
 * and its files:
 *
 *   {stem}-base-image.png                      the base image as pasted or picked (re-encoded PNG)
 *   {stem}-base-image-cropped.png              the crop (spec §5: aspect 2, at least 640 × 400)
 *   {stem}-base-image-cropped.compressed.jpg   the crop as a JPEG (at most 1280 px wide), for the PDF
 *
 * Uploaded pictures (the image-upload page) are `upload-{id}.jpg` / `upload-{id}.png` with a server-made id,
 * each with its thumbnail `upload-{id}.thumb.jpg`.
 *
 * Identifiers (request, section, building, floor, improvement) are letters, digits, `_` and `-` (at most
 * 64): anything else is refused (null / throws), so a name never holds a `/`, a `.` or `..`.
 */

/** Storage prefix of all report-builder uploads. */
export const IMAGE_KEY_PREFIX = 'reportbuilder/uploads';
/** Public URL prefix (the gateway routes /reportbuilder/assets/… to the report builder). */
export const IMAGE_URL_PREFIX = '/reportbuilder/assets/uploads';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A file name the service made: safe characters, no leading dot, no `..`. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;

export const isImageId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
export const isImageFileName = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 200 && FILE_NAME.test(value);

export type ImageTarget =
  | { kind: 'property' }
  | { kind: 'section'; section: string }
  | { kind: 'building'; section: string; building: string }
  | { kind: 'floor'; section: string; building: string; floor: string }
  | { kind: 'improvement'; section: string; building?: string; improvement: string };

export type ImageVariant = 'base' | 'cropped' | 'compressed';

function need(value: string): string {
  if (!isImageId(value)) throw new Error(`Invalid image identifier '${String(value).slice(0, 80)}'`);
  return value;
}

/** The stem of a target's image names (see the table above). Throws on an unsafe identifier. */
export function imageStem(target: ImageTarget): string {
  switch (target.kind) {
    case 'property':
      return 'property';
    case 'section':
      return `section-${need(target.section)}`;
    case 'building':
      return `section-${need(target.section)}-building-${need(target.building)}`;
    case 'floor':
      return `section-${need(target.section)}-building-${need(target.building)}-floor-${need(target.floor)}`;
    case 'improvement':
      return target.building === undefined
        ? `section-${need(target.section)}-improvement-${need(target.improvement)}`
        : `section-${need(target.section)}-building-${need(target.building)}-improvement-${need(target.improvement)}`;
  }
}

const SUFFIX: Record<ImageVariant, string> = {
  base: '-base-image.png',
  cropped: '-base-image-cropped.png',
  compressed: '-base-image-cropped.compressed.jpg',
};

/** The file name of a target's image variant, e.g. `section-3-base-image-cropped.png`. */
export const imageFileName = (target: ImageTarget, variant: ImageVariant): string =>
  `${imageStem(target)}${SUFFIX[variant]}`;

/** Content type of a variant. */
export const imageContentType = (variant: ImageVariant): string =>
  variant === 'compressed' ? 'image/jpeg' : 'image/png';

/** The property's, a section's, a building's, a floor's and an improvement's names, spelled out. */
export const propertyImageName = (variant: ImageVariant) => imageFileName({ kind: 'property' }, variant);
export const sectionImageName = (section: string, variant: ImageVariant) =>
  imageFileName({ kind: 'section', section }, variant);
export const buildingImageName = (section: string, building: string, variant: ImageVariant) =>
  imageFileName({ kind: 'building', section, building }, variant);
export const floorImageName = (section: string, building: string, floor: string, variant: ImageVariant) =>
  imageFileName({ kind: 'floor', section, building, floor }, variant);
export const improvementImageName = (
  section: string,
  improvement: string,
  variant: ImageVariant,
  building?: string,
) => imageFileName({ kind: 'improvement', section, building, improvement }, variant);

/** The storage key of a request's image: `reportbuilder/uploads/{requestID}/{fileName}`. */
export function imageKey(requestID: string, fileName: string): string {
  if (!isImageId(requestID)) throw new Error(`Invalid request ID for an image key`);
  if (!isImageFileName(fileName))
    throw new Error(`Invalid image file name '${String(fileName).slice(0, 80)}'`);
  return `${IMAGE_KEY_PREFIX}/${requestID}/${fileName}`;
}

/** The public URL of a request's image: `/reportbuilder/assets/uploads/{requestID}/{fileName}`. */
export function imageUrl(requestID: string, fileName: string): string {
  imageKey(requestID, fileName);
  return `${IMAGE_URL_PREFIX}/${requestID}/${fileName}`;
}

/** Key and URL of a target's variant (what the PDF reads: `imageKey`, `imageFileName(t, 'compressed')`). */
export const targetImageKey = (requestID: string, target: ImageTarget, variant: ImageVariant) =>
  imageKey(requestID, imageFileName(target, variant));
export const targetImageUrl = (requestID: string, target: ImageTarget, variant: ImageVariant) =>
  imageUrl(requestID, imageFileName(target, variant));

// ---- uploads (the image-upload page's pictures) ----

const UPLOAD = /^upload-([A-Za-z0-9_-]{8,64})\.(jpg|png)$/;

/** The name of an uploaded picture (`id` server-made, `ext` from the re-encoded format). */
export const uploadFileName = (id: string, ext: 'jpg' | 'png') => `upload-${need(id)}.${ext}`;
/** Its thumbnail (a small JPEG made once). */
export const uploadThumbnailName = (uploadName: string) => uploadName.replace(/\.(jpg|png)$/, '.thumb.jpg');
/** True for an uploaded picture's name (not a thumbnail, not a target's image). */
export const isUploadFileName = (name: string): boolean => UPLOAD.test(name);

/**
 * The target a base image's file name belongs to (the inverse of `imageFileName(t, 'base')`), or null.
 * The crop call names its source by file name or URL.
 */
export function targetOfBaseName(name: string): ImageTarget | null {
  const m = /^(.*)-base-image\.png$/.exec(name);
  if (!m) return null;
  return parseStem(m[1]!);
}

/** Parses a stem (`property`, `section-3`, `section-3-building-2-floor-1`, …), or null. */
export function parseStem(stem: string): ImageTarget | null {
  if (stem === 'property') return { kind: 'property' };
  const id = '([A-Za-z0-9_]{1,64})';
  let m = new RegExp(`^section-${id}$`).exec(stem);
  if (m) return { kind: 'section', section: m[1]! };
  m = new RegExp(`^section-${id}-building-${id}$`).exec(stem);
  if (m) return { kind: 'building', section: m[1]!, building: m[2]! };
  m = new RegExp(`^section-${id}-building-${id}-floor-${id}$`).exec(stem);
  if (m) return { kind: 'floor', section: m[1]!, building: m[2]!, floor: m[3]! };
  m = new RegExp(`^section-${id}-improvement-${id}$`).exec(stem);
  if (m) return { kind: 'improvement', section: m[1]!, improvement: m[2]! };
  m = new RegExp(`^section-${id}-building-${id}-improvement-${id}$`).exec(stem);
  if (m) return { kind: 'improvement', section: m[1]!, building: m[2]!, improvement: m[3]! };
  return null;
}
