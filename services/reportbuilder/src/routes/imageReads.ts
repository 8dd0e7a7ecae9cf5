import type { FastifySchema } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ImageInfoAnswer, REPORTBUILDER_ROUTES } from '@portal/contracts';
import {
  badRequest,
  type callerHooks,
  fileAnswer,
  notFound,
  type Storage,
  type TypedFastify,
} from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import {
  IMAGES_TEXT,
  IMAGE_ERRORS as ERRORS,
  ImageTargetParams,
  ThumbnailsAnswer,
  thumbnailsAnswer,
} from './imageShared';
import { checkImageRead, uploadsOf } from '../images/access';
import { imageFileName, imageKey, isImageFileName, uploadThumbnailName } from '../images/keys';
import { thumbnail, type ImageLimits } from '../images/process';
import { targetOf } from '../images/targets';
import { contentTypeOf } from '../images/files';
import { readImageryRecord } from '../images/imagery';

/** Browsers keep an image this long, then ask again with If-None-Match (names are reused on a new crop). */
const ASSET_CACHE_CONTROL = 'private, max-age=60, must-revalidate';

/**
 * The report's images read (spec 02 §7.1): thumbnails (a lost one made again from its picture), whether a
 * target's crop exists and its capture record, and the uploads served under
 * /reportbuilder/assets/uploads/{requestID}/{fileName}. The request's owner and staff.
 */
export function imageReadRoutes(
  app: TypedFastify,
  ctx: ReportBuilderContext & { storage: Storage; limits: ImageLimits },
  onRequest: ReturnType<typeof callerHooks>,
): void {
  const { storage, limits, ds } = ctx;

  // ------------------------------------------------------------------------------------------ thumbnails

  app.get(
    REPORTBUILDER_ROUTES.thumbnails,
    {
      onRequest,
      schema: {
        summary: "List a report's images",
        description: 'The thumbnails of every image of a report, with their URLs, targets and sizes.',
        tags: ['Report builder'],
        params: Type.Object({ requestID: Type.String({ maxLength: 64 }) }),
        response: { 200: ThumbnailsAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = await checkImageRead(ds, request.params.requestID, request.caller);
      const uploads = await uploadsOf(ds, id);
      // A thumbnail lost from the storage is made again (once) from its picture.
      for (const name of uploads) {
        const key = imageKey(id, uploadThumbnailName(name));
        if (await storage.exists(key)) continue;
        const picture = await storage.get(imageKey(id, name));
        if (picture)
          await storage.put(key, await thumbnail(picture.data, limits), { contentType: 'image/jpeg' });
      }
      return thumbnailsAnswer(id, uploads);
    },
  );

  // ---------------------------------------------------------------------------------------------- exists

  /** The request and image target a read names (exists, info): a 400 for a target that is no image's. */
  const readableTarget = async (
    { requestID, type, first, second, third }: Static<typeof ImageTargetParams>,
    caller: Parameters<typeof checkImageRead>[2],
  ) => {
    const target = targetOf(type, first, second, third);
    if (!target) throw badRequest(IMAGES_TEXT.badId);
    return { id: await checkImageRead(ds, requestID, caller), target };
  };

  app.get(
    REPORTBUILDER_ROUTES.imageExists,
    {
      onRequest,
      schema: {
        summary: 'Ask whether a report image exists',
        description: 'Whether the cropped image of a target (property, section or building) exists.',
        tags: ['Report builder'],
        params: ImageTargetParams,
        response: { 200: Type.Boolean(), ...ERRORS },
      },
    },
    async (request) => {
      const { id, target } = await readableTarget(request.params, request.caller);
      return storage.exists(imageKey(id, imageFileName(target, 'cropped')));
    },
  );

  // Issue 21: whether the target's crop exists and the survey it was captured from (null: not the imagery).
  app.get(
    REPORTBUILDER_ROUTES.imageInfo,
    {
      onRequest,
      schema: {
        summary: 'Read about a report image',
        description:
          "Whether the target's cropped image exists and, when it was captured from the imagery, its survey and capture date.",
        tags: ['Report builder'],
        params: ImageTargetParams,
        response: { 200: ImageInfoAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { id, target } = await readableTarget(request.params, request.caller);
      const exists = await storage.exists(imageKey(id, imageFileName(target, 'cropped')));
      return { exists, imagery: exists ? await readImageryRecord(storage, id, target, 'cropped') : null };
    },
  );

  // ------------------------------------------------------------------------------------- serving uploads

  // For the API's document only (unknown to the route's types: the answer is a stream, or a 304).
  const ASSET_ANSWERS: FastifySchema['response'] = {
    200: fileAnswer('image/png', 'The image (image/png or image/jpeg).'),
    ...ERRORS,
  };

  app.get(
    REPORTBUILDER_ROUTES.uploadAsset,
    {
      onRequest,
      schema: {
        summary: 'Download a report image',
        description:
          "A report image file by the name its answers gave (PNG or JPEG); the request's owner and staff, cached by its ETag.",
        tags: ['Report builder'],
        response: ASSET_ANSWERS,
        params: Type.Object({
          requestID: Type.String({ maxLength: 64 }),
          fileName: Type.String({ maxLength: 200 }),
        }),
      },
    },
    async (request, reply) => {
      const { requestID, fileName } = request.params;
      // Only names the service makes reach the storage: no '/', no '..', no leading dot, no odd characters.
      if (!isImageFileName(fileName) || !/\.(png|jpg)$/.test(fileName))
        throw badRequest(IMAGES_TEXT.badFileName);
      const id = await checkImageRead(ds, requestID, request.caller);
      const object = await storage.stream(imageKey(id, fileName));
      if (!object) throw notFound(IMAGES_TEXT.noFile);
      reply
        .header('cache-control', ASSET_CACHE_CONTROL)
        .header('etag', object.info.etag)
        .header('x-content-type-options', 'nosniff');
      const ifNoneMatch = request.headers['if-none-match'];
      if (
        ifNoneMatch &&
        ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === object.info.etag)
      ) {
        object.stream.destroy();
        return reply.code(304).send();
      }
      return reply
        .type(object.info.contentType || contentTypeOf(fileName))
        .header('content-length', String(object.info.size))
        .send(object.stream);
    },
  );
}
