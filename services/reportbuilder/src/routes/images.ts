import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import {
  CopyImageBody,
  CropImageBody,
  ImageBody,
  ImageImagerySchema,
  REPORTBUILDER_ROUTES,
  RearrangeImagesBody,
} from '@portal/contracts';
import {
  HttpError,
  badRequest,
  callerHooks,
  notFound,
  type Storage,
  type TypedFastify,
} from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import { IMAGES_TEXT, IMAGE_ERRORS as ERRORS, ThumbnailsAnswer, thumbnailsAnswer } from './imageShared';
import { imageReadRoutes } from './imageReads';
import { setUploads, uploadsOf, withImageEdit } from '../images/access';
import {
  imageContentType,
  imageFileName,
  imageKey,
  imageUrl,
  isImageFileName,
  isImageId,
  isUploadFileName,
  targetOfBaseName,
  uploadFileName,
  uploadThumbnailName,
  type ImageTarget,
  type ImageVariant,
} from '../images/keys';
import {
  IMAGE_TEXT,
  base64Bytes,
  cropImage,
  decodeImage,
  imageryPicture,
  thumbnail,
  type ImageLimits,
} from '../images/process';
import { parseTargetType, targetOf } from '../images/targets';
import { contentTypeOf, putAll } from '../images/files';
import { imageryRecordFile, readImageryRecord, removeImageryRecord } from '../images/imagery';
import { surveyAtRequest } from '../surveys';

const StoredImage = Type.Object({
  name: Type.String(),
  url: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
});
/** `imagery` (issue 21): the survey the picture was captured from, null when it was not the imagery. */
const Imagery = Type.Optional(Type.Union([Type.Null(), ImageImagerySchema]));
const ImageAnswer = Type.Object({ success: Type.Boolean(), image: StoredImage, imagery: Imagery });
const CropAnswer = Type.Object({
  success: Type.Boolean(),
  image: StoredImage,
  compressed: StoredImage,
  imagery: Imagery,
});
const CopyAnswer = Type.Object({ success: Type.Boolean(), copied: Type.Array(Type.String()) });
const DeleteAnswer = Type.Object({ success: Type.Boolean(), deleted: Type.Array(Type.String()) });

const VARIANTS: ImageVariant[] = ['base', 'cropped', 'compressed'];

/** The source a crop names: a file name or a URL ending in one. */
const sourceName = (image: string) => image.split('?')[0]!.split('/').pop() ?? '';

/**
 * Spec 02 §2.1, §5, §7.1 images (issue 13): paste, upload, crop, copy, rearrange and delete here; the reads
 * (thumbnails, exists, info, the uploads served under /reportbuilder/assets/uploads/{requestID}/{fileName})
 * in imageReads.ts. Names come from
 * images/keys.ts; pictures are decoded and re-encoded with sharp (images/process.ts); writes are staff's in
 * an editable status under the request's row lock (images/access.ts).
 */
export async function imageRoutes(
  app: TypedFastify,
  ctx: ReportBuilderContext & { storage: Storage; limits: ImageLimits; bodyLimit: number },
): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);
  const { storage, limits, ds } = ctx;
  await app.register(multipart, {
    limits: { fileSize: limits.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 256 },
  });

  const stored = (requestID: string, name: string, size: { width: number; height: number }) => ({
    name,
    url: imageUrl(requestID, name),
    width: size.width,
    height: size.height,
  });

  // ---------------------------------------------------------------------------------- paste (PNG only)

  app.post(
    REPORTBUILDER_ROUTES.image,
    {
      onRequest,
      bodyLimit: ctx.bodyLimit,
      schema: {
        summary: 'Paste an image into a report',
        description:
          "Stores a pasted PNG (base64 in the body) as a section's, building's or the property's image, with the imagery survey it came from when captured from the imagery (staff).",
        tags: ['Report builder'],
        body: ImageBody,
        response: { 200: ImageAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { requestID, base64Data, type, surveyId } = request.body;
      const target = parseTargetType(type);
      // Issue 21: a picture of the portal's imagery (the locator's JPEG) keeps its survey's capture date.
      const fromImagery = surveyId !== undefined;
      const png = fromImagery
        ? await imageryPicture(base64Bytes(base64Data, true), limits)
        : await decodeImage(base64Bytes(base64Data), ['png'], limits);
      const name = imageFileName(target, 'base');
      return withImageEdit(ds, requestID, request.caller, async (em, id) => {
        const survey = fromImagery ? await surveyAtRequest(em, id, surveyId) : null;
        const imagery = survey ? { surveyId: survey.id, capturedOn: survey.capturedOn } : null;
        await putAll(storage, [
          { key: imageKey(id, name), data: png.data, contentType: 'image/png' },
          ...(imagery ? [imageryRecordFile(id, target, 'base', imagery)] : []),
        ]);
        if (!imagery) await removeImageryRecord(storage, id, target, 'base');
        return { success: true, image: stored(id, name, png), imagery };
      });
    },
  );

  // ------------------------------------------------------------------------------ upload (JPEG or PNG)

  app.post(
    REPORTBUILDER_ROUTES.upload,
    {
      onRequest,
      schema: {
        summary: 'Upload an image to a report',
        description:
          'Stores an uploaded JPEG or PNG (multipart: the request id, the target and the file) as a report image (staff).',
        tags: ['Report builder'],
        response: { 200: ImageAnswer, ...ERRORS },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw badRequest(IMAGES_TEXT.sendFile);
      let requestID: string | undefined;
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || file) {
              await part.toBuffer();
              throw badRequest(IMAGES_TEXT.sendFile);
            }
            file = await part.toBuffer();
          } else if (part.fieldname === 'requestID' && typeof part.value === 'string') requestID = part.value;
        }
      } catch (error) {
        if (error instanceof app.multipartErrors.RequestFileTooLargeError)
          throw new HttpError(413, IMAGE_TEXT.tooLarge(limits.maxBytes));
        if (error instanceof HttpError) throw error;
        throw badRequest(IMAGES_TEXT.sendFile);
      }
      if (!requestID || !file) throw badRequest(IMAGES_TEXT.sendFile);
      const picture = await decodeImage(file, ['jpeg', 'png'], limits);
      const thumb = await thumbnail(picture.data, limits);
      const name = uploadFileName(
        randomBytes(12).toString('base64url'),
        picture.format === 'png' ? 'png' : 'jpg',
      );
      return withImageEdit(ds, requestID, request.caller, async (em, id) => {
        const files = [
          { key: imageKey(id, name), data: picture.data, contentType: contentTypeOf(name) },
          { key: imageKey(id, uploadThumbnailName(name)), data: thumb, contentType: 'image/jpeg' },
        ];
        await putAll(storage, files);
        try {
          await setUploads(em, id, [...(await uploadsOf(em, id)), name]);
        } catch (error) {
          await Promise.all(files.map((f) => storage.delete(f.key).catch(() => false)));
          throw error;
        }
        return { success: true, image: stored(id, name, picture) };
      }).catch(async (error: unknown) => {
        // A refused or failed transaction leaves no file behind (the names are new: nothing to restore).
        if (isImageId(requestID))
          await Promise.all(
            [name, uploadThumbnailName(name)].map((n) =>
              storage.delete(imageKey(requestID!.toLowerCase(), n)).catch(() => false),
            ),
          );
        throw error;
      });
    },
  );

  // ------------------------------------------------------------------------------------------------ crop

  app.post(
    REPORTBUILDER_ROUTES.imageCrop,
    {
      onRequest,
      schema: {
        summary: 'Crop a report image',
        description: 'Crops a report image to a rectangle and stores the crop the report prints (staff).',
        tags: ['Report builder'],
        body: CropImageBody,
        response: { 200: CropAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { requestID, image, sectionID, type, x, y, width, height } = request.body;
      const source = sourceName(image);
      if (!isImageFileName(source) || (!isUploadFileName(source) && !targetOfBaseName(source)))
        throw badRequest(IMAGES_TEXT.badSource(image));
      let target: ImageTarget | null = type ? parseTargetType(type) : targetOfBaseName(source);
      if (!target && sectionID !== undefined) {
        target = targetOf('section', sectionID);
        if (!target) throw badRequest(IMAGES_TEXT.badId);
      }
      if (!target) throw badRequest(IMAGES_TEXT.noTarget);
      const goal = target;
      return withImageEdit(ds, requestID, request.caller, async (_em, id) => {
        const original = await storage.get(imageKey(id, source));
        if (!original) throw notFound(IMAGES_TEXT.noSource(image));
        const crop = await cropImage(original.data, { x, y, width, height }, limits);
        const cropped = imageFileName(goal, 'cropped');
        const compressed = imageFileName(goal, 'compressed');
        // A crop of a base image captured from the imagery keeps its survey; a crop of an upload has none.
        const from = targetOfBaseName(source);
        const imagery = from ? await readImageryRecord(storage, id, from, 'base') : null;
        await putAll(storage, [
          { key: imageKey(id, cropped), data: crop.png, contentType: imageContentType('cropped') },
          { key: imageKey(id, compressed), data: crop.jpeg, contentType: imageContentType('compressed') },
          ...(imagery ? [imageryRecordFile(id, goal, 'cropped', imagery)] : []),
        ]);
        if (!imagery) await removeImageryRecord(storage, id, goal, 'cropped');
        return {
          success: true,
          imagery,
          image: stored(id, cropped, crop),
          compressed: stored(id, compressed, {
            width: crop.compressedWidth,
            height: crop.compressedHeight,
          }),
        };
      });
    },
  );

  // ------------------------------------------------------------------------------------------------ copy

  app.post(
    REPORTBUILDER_ROUTES.imageCopy,
    {
      onRequest,
      schema: {
        summary: 'Copy a report image',
        description: 'Copies a report image (and its crop) from one section or building to another (staff).',
        tags: ['Report builder'],
        body: CopyImageBody,
        response: { 200: CopyAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { requestID, sectionID, buildingID } = request.body;
      // With buildingID: the section's image becomes the building's; without: the property's the section's.
      const from = buildingID === undefined ? targetOf('property') : targetOf('section', sectionID);
      const to =
        buildingID === undefined
          ? targetOf('section', sectionID)
          : targetOf('building', sectionID, buildingID);
      if (!from || !to) throw badRequest(IMAGES_TEXT.badId);
      return withImageEdit(ds, requestID, request.caller, async (_em, id) => {
        const sources = await Promise.all(
          VARIANTS.map(async (variant) => ({
            variant,
            object: await storage.get(imageKey(id, imageFileName(from, variant))),
          })),
        );
        if (!sources.find((s) => s.variant === 'cropped')?.object) throw notFound(IMAGES_TEXT.nothingToCopy);
        const files = sources
          .filter((s) => s.object)
          .map((s) => ({
            key: imageKey(id, imageFileName(to, s.variant)),
            data: s.object!.data,
            contentType: imageContentType(s.variant),
          }));
        // The imagery records travel with the pictures (or the target's old ones go).
        const records = await Promise.all(
          (['base', 'cropped'] as const).map(async (variant) => ({
            variant,
            imagery: await readImageryRecord(storage, id, from, variant),
          })),
        );
        const recordFiles = records.flatMap(({ variant, imagery }) =>
          imagery ? [imageryRecordFile(id, to, variant, imagery)] : [],
        );
        await putAll(storage, [...files, ...recordFiles]);
        for (const { variant, imagery } of records)
          if (!imagery) await removeImageryRecord(storage, id, to, variant);
        return { success: true, copied: files.map((f) => imageUrl(id, f.key.split('/').pop()!)) };
      });
    },
  );

  // ------------------------------------------------------------------------------------------- rearrange

  app.post(
    REPORTBUILDER_ROUTES.imageRearrange,
    {
      onRequest,
      schema: {
        summary: "Reorder a report's images",
        description: "Saves the order of a report's images and answers its thumbnails (staff).",
        tags: ['Report builder'],
        body: RearrangeImagesBody,
        response: { 200: ThumbnailsAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { requestID, sourceIndex, destinationIndex } = request.body;
      return withImageEdit(ds, requestID, request.caller, async (em, id) => {
        const uploads = await uploadsOf(em, id);
        if (sourceIndex >= uploads.length || destinationIndex >= uploads.length)
          throw badRequest(IMAGES_TEXT.badIndex(uploads.length));
        const [moved] = uploads.splice(sourceIndex, 1);
        uploads.splice(destinationIndex, 0, moved!);
        await setUploads(em, id, uploads);
        return thumbnailsAnswer(id, uploads);
      });
    },
  );

  // ---------------------------------------------------------------------------------------------- delete

  const IdParams = { requestID: Type.String({ maxLength: 64 }), sectionID: Type.String({ maxLength: 64 }) };
  for (const url of [REPORTBUILDER_ROUTES.deleteSectionImage, REPORTBUILDER_ROUTES.deleteBuildingImage])
    app.delete(
      url,
      {
        onRequest,
        schema: {
          summary:
            url === REPORTBUILDER_ROUTES.deleteBuildingImage
              ? "Delete a building's image"
              : "Delete a section's or the property's image",
          description:
            "Deletes a report image and its crop (staff); the section id 'property' names the property's image.",
          tags: ['Report builder'],
          params: Type.Object({ ...IdParams, buildingID: Type.Optional(Type.String({ maxLength: 64 })) }),
          response: { 200: DeleteAnswer, ...ERRORS },
        },
      },
      async (request) => {
        const { requestID, sectionID, buildingID } = request.params;
        // sectionID 'property' names the property's image.
        const target =
          buildingID !== undefined
            ? targetOf('building', sectionID, buildingID)
            : sectionID === 'property'
              ? targetOf('property')
              : targetOf('section', sectionID);
        if (!target) throw badRequest(IMAGES_TEXT.badId);
        return withImageEdit(ds, requestID, request.caller, async (_em, id) => {
          const deleted: string[] = [];
          for (const variant of VARIANTS) {
            const name = imageFileName(target, variant);
            if (await storage.delete(imageKey(id, name))) deleted.push(name);
          }
          for (const variant of ['base', 'cropped'] as const)
            await removeImageryRecord(storage, id, target, variant);
          return { success: true, deleted };
        });
      },
    );

  imageReadRoutes(app, ctx, onRequest);
}
