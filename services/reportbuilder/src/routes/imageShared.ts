import { Type } from '@sinclair/typebox';
import { ErrorAnswer } from '@portal/contracts';
import { imageUrl, uploadThumbnailName } from '../images/keys';
import { ERRORS as REPORT_ERRORS } from './errors';

// What the image writes (images.ts) and reads (imageReads.ts) share.

/** The image calls' error answers: the report builder's, and 413 for a picture over the limit. */
export const IMAGE_ERRORS = { ...REPORT_ERRORS, 413: ErrorAnswer } as const;

/** An image target in a read's path: image/{exists,info}/{requestID}/{type}/{first}/{second}/{third}. */
export const ImageTargetParams = Type.Object({
  requestID: Type.String({ maxLength: 64 }),
  type: Type.String({ maxLength: 64 }),
  first: Type.String({ maxLength: 64 }),
  second: Type.String({ maxLength: 64 }),
  third: Type.String({ maxLength: 64 }),
});

export const IMAGES_TEXT = {
  sendFile:
    "Send the picture as multipart/form-data: the field 'requestID', then the file in the field 'file'.",
  noSource: (image: string) => `No image '${image.slice(0, 120)}' of this request to crop.`,
  badSource: (image: string) =>
    `'${image.slice(0, 120)}' is not an image of this request: name a base image (…-base-image.png) or an upload.`,
  noTarget: 'Say which image the crop is for: type (e.g. section/3) or a base image as image.',
  nothingToCopy: 'There is no cropped image to copy.',
  badIndex: (count: number) =>
    count === 0
      ? 'This request has no uploaded images to rearrange.'
      : `sourceIndex and destinationIndex must be between 0 and ${count - 1}.`,
  badFileName: 'Not an image name.',
  noFile: 'No such image.',
  badId: 'Identifiers hold only letters, digits, "_" and "-" (1 to 64 characters).',
} as const;

const Thumbnail = Type.Object({
  index: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  thumbnail: Type.String(),
});
export const ThumbnailsAnswer = Type.Object({ requestID: Type.String(), images: Type.Array(Thumbnail) });

/** The uploads of a request as the thumbnails call (and a rearrange) answer them, in their order. */
export const thumbnailsAnswer = (id: string, uploads: string[]) => ({
  requestID: id,
  images: uploads.map((name, index) => ({
    index,
    name,
    url: imageUrl(id, name),
    thumbnail: imageUrl(id, uploadThumbnailName(name)),
  })),
});
