import sharp, { type Metadata } from 'sharp';
import {
  CROP_ASPECT_RATIO,
  CROP_MIN_HEIGHT,
  CROP_MIN_WIDTH,
  cropBoxValid,
  type CropBox,
} from '@portal/domain';
import { badRequest } from '@portal/server-kit';

/**
 * The report builder's picture work with sharp (spec 02 §5; issue 13): every picture that is kept is decoded
 * (its magic bytes and size checked by decoding, never by its name or declared type) and re-encoded, never
 * stored as sent.
 */

export interface ImageLimits {
  /** Largest upload / pasted picture in bytes. */
  maxBytes: number;
  /** Largest picture in pixels (width × height), refused before it is decoded. */
  maxPixels: number;
}

export const IMAGE_TEXT = {
  notPng: 'Only PNG images can be pasted (spec 02 §5): copy the picture as PNG and paste it again.',
  notImage: 'The file is not a JPEG or PNG image (or it is damaged).',
  badBase64: 'base64Data is not a base64 (or data: URL) PNG image.',
  tooLarge: (maxBytes: number) => `The image is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`,
  tooManyPixels: (maxPixels: number) =>
    `The image has more than ${Math.round(maxPixels / 1e6)} million pixels: make it smaller and try again.`,
  badCrop: (image: { width: number; height: number }) =>
    `The crop box must have an aspect ratio of ${CROP_ASPECT_RATIO} (width twice the height), be at least ` +
    `${CROP_MIN_WIDTH} × ${CROP_MIN_HEIGHT} pixels and lie inside the image (${image.width} × ${image.height}).`,
} as const;

/** The compressed variant of a crop: at most this wide, this JPEG quality. */
export const COMPRESSED_MAX_WIDTH = 1280;
export const COMPRESSED_QUALITY = 80;
/** Thumbnails of uploads: this wide (at most), JPEG of this quality. */
export const THUMBNAIL_WIDTH = 200;
export const THUMBNAIL_QUALITY = 70;

export interface Decoded {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  /** The picture re-encoded (EXIF orientation applied, metadata dropped) in its own format. */
  data: Buffer;
}

/** Decodes a picture of one of `formats`; a 400 with a clear message for anything else. */
export async function decodeImage(
  input: Buffer,
  formats: readonly ('jpeg' | 'png')[],
  limits: ImageLimits,
): Promise<Decoded> {
  if (input.length === 0) throw badRequest(IMAGE_TEXT.notImage);
  if (input.length > limits.maxBytes) throw badRequest(IMAGE_TEXT.tooLarge(limits.maxBytes));
  const notAccepted = formats.length === 1 && formats[0] === 'png' ? IMAGE_TEXT.notPng : IMAGE_TEXT.notImage;
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(notAccepted);
  }
  const format = meta.format === 'jpeg' || meta.format === 'png' ? meta.format : null;
  if (!format || !formats.includes(format)) throw badRequest(notAccepted);
  if (!meta.width || !meta.height) throw badRequest(notAccepted);
  if (meta.width * meta.height > limits.maxPixels)
    throw badRequest(IMAGE_TEXT.tooManyPixels(limits.maxPixels));
  try {
    const image = sharp(input, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate();
    const { data, info } =
      format === 'png'
        ? await image.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true })
        : await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer({ resolveWithObject: true });
    return { format, width: info.width, height: info.height, data };
  } catch {
    throw badRequest(notAccepted);
  }
}

/**
 * The bytes of a pasted picture: plain base64 or a data: URL (image/png only; image/jpeg too with
 * `allowJpeg`, for a picture of the portal's imagery, which the locator serves as JPEG).
 */
export function base64Bytes(base64Data: string, allowJpeg = false): Buffer {
  let text = base64Data.trim();
  const dataUrl = /^data:([^;,]*)(;base64)?,/i.exec(text);
  if (dataUrl) {
    const type = allowJpeg ? /^image\/(png|jpeg)$/i : /^image\/png$/i;
    if (!type.test(dataUrl[1] ?? '')) throw badRequest(allowJpeg ? IMAGE_TEXT.notImage : IMAGE_TEXT.notPng);
    if (!dataUrl[2]) throw badRequest(IMAGE_TEXT.badBase64);
    text = text.slice(dataUrl[0].length);
  }
  text = text.replace(/\s+/g, '');
  if (text === '' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw badRequest(IMAGE_TEXT.badBase64);
  return Buffer.from(text, 'base64');
}

export interface CropResult {
  /** The crop as PNG. */
  png: Buffer;
  /** The crop as JPEG, at most COMPRESSED_MAX_WIDTH wide. */
  jpeg: Buffer;
  width: number;
  height: number;
  compressedWidth: number;
  compressedHeight: number;
}

/**
 * Crops a stored picture (already re-encoded, so trusted) to `box` — checked per spec 02 §5 against the
 * picture's size — into the PNG and its compressed JPEG, both made before anything is written.
 */
export async function cropImage(source: Buffer, box: CropBox, limits: ImageLimits): Promise<CropResult> {
  const meta = await sharp(source, { limitInputPixels: limits.maxPixels }).metadata();
  const size = { width: meta.width ?? 0, height: meta.height ?? 0 };
  const rounded = {
    x: Math.round(box.x),
    y: Math.round(box.y),
    width: Math.round(box.width),
    height: Math.round(box.height),
  };
  if (!cropBoxValid(box, size) || !cropBoxValid(rounded, size)) throw badRequest(IMAGE_TEXT.badCrop(size));
  const region = { left: rounded.x, top: rounded.y, width: rounded.width, height: rounded.height };
  const png = await sharp(source, { limitInputPixels: limits.maxPixels }).extract(region).png().toBuffer();
  const { data: jpeg, info } = await sharp(png)
    .resize({ width: COMPRESSED_MAX_WIDTH, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: COMPRESSED_QUALITY, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return {
    png,
    jpeg,
    width: region.width,
    height: region.height,
    compressedWidth: info.width,
    compressedHeight: info.height,
  };
}

/**
 * A picture of the portal's imagery (issue 21: JPEG or PNG, decoded and checked as any picture) as the PNG a
 * base image is.
 */
export async function imageryPicture(input: Buffer, limits: ImageLimits): Promise<Decoded> {
  const decoded = await decodeImage(input, ['jpeg', 'png'], limits);
  if (decoded.format === 'png') return decoded;
  const data = await sharp(decoded.data, { limitInputPixels: limits.maxPixels })
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { ...decoded, format: 'png', data };
}

/** A small JPEG of a stored picture. */
export async function thumbnail(source: Buffer, limits: ImageLimits): Promise<Buffer> {
  return sharp(source, { limitInputPixels: limits.maxPixels })
    .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: THUMBNAIL_QUALITY })
    .toBuffer();
}
