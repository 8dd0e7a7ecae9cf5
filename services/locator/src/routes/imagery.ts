import type { FastifyInstance, FastifySchema } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import {
  CoverageAnswer,
  CoverageQuery,
  ErrorAnswer,
  LOCATOR_ROUTES,
  ImageUrlAnswer,
  ImageUrlQuery,
  errorAnswers,
  type Orientation,
} from '@portal/contracts';
import { Type } from '@sinclair/typebox';
import { fileAnswer, isValidStorageKey, notFound, badRequest, type TypedFastify } from '@portal/server-kit';
import type { LocatorContext } from '../context';
import { etagMatches } from '../tiles/render';
import { assertInSouthAfrica } from '../imagery/location';
import type { ImageSize } from '../imagery/render';

/**
 * Stored images never change under their key (the key carries a hash of what was drawn), so browsers
 * may keep them for a year. Private: they show the product's data to signed-in users only.
 */
export const IMAGE_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** Request headers never passed on to the oblique viewer: the portal's session is not its business. */
const PRIVATE_HEADERS = ['cookie', 'authorization'];

/**
 * What the document says of a picture download. Typed as a plain schema: the answer is a stream (or a 304),
 * not a body the route's types should be held to.
 */
const IMAGE_SCHEMA: FastifySchema = {
  summary: 'Download an aerial picture',
  description:
    'A picture whose URL idanImageUrl or idanSmallImageUrl answered (its key is the rest of the path); ' +
    'cached by its ETag (304 when If-None-Match names it).',
  tags: ['Maps and imagery'],
  params: Type.Object({ '*': Type.String() }),
  response: { 200: fileAnswer('image/jpeg', 'The picture.'), ...errorAnswers(400, 404) },
};

/**
 * Imagery (spec 01 §7): coverage and image URLs from the configured provider — from the newest survey at
 * the point, or the one `survey=<id>` names (a 404 when it does not cover the point) — the built-in
 * provider's stored images, and the oblique viewer proxy. Every call needs a session (the route table's
 * gate). The survey calls (list, changes, buildings) are routes/surveys.ts.
 */
export async function imageryRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  const { imagery: provider, imageryStorage: storage } = ctx;

  app.get(
    LOCATOR_ROUTES.coverage,
    {
      schema: {
        summary: 'Ask for the imagery coverage at a point',
        description:
          'Whether a point in South Africa has high-resolution oblique and ortho imagery, ortho only, or none, and the newest capture date.',
        tags: ['Maps and imagery'],
        querystring: CoverageQuery,
        response: { 200: CoverageAnswer, 400: ErrorAnswer },
      },
    },
    async (request) => {
      await assertInSouthAfrica(ctx.ds, request.query);
      const coverage = await provider.coverage(request.query);
      return { success: true, ...coverage };
    },
  );

  const imageUrlRoute = (path: string, size: ImageSize) =>
    app.get(
      path,
      {
        schema: {
          summary: size === 'full' ? 'Get a picture of a point' : 'Get a small picture of a point',
          description:
            `The URL of ${size === 'full' ? 'an' : 'a thumbnail'} aerial picture of a point (an oblique from the north, ` +
            'west, south or east, or the ortho) of the newest survey or the one asked for, with its capture date.',
          tags: ['Maps and imagery'],
          querystring: ImageUrlQuery,
          response: { 200: ImageUrlAnswer, ...errorAnswers(400, 401, 404, 502) },
        },
      },
      async (request) => {
        const { lat, lng, orientation, survey } = request.query;
        await assertInSouthAfrica(ctx.ds, { lat, lng });
        const image = await provider.imageUrl({ lat, lng }, orientation as Orientation, size, survey);
        if (!image) return { success: false, url: null, capturedOn: null, surveyId: null, camera: null };
        app.meter(request, 'imagery_picture');
        return {
          success: true,
          url: image.url,
          capturedOn: image.survey?.capturedOn ?? null,
          surveyId: image.survey?.id ?? null,
          camera: image.camera,
        };
      },
    );
  imageUrlRoute(LOCATOR_ROUTES.imageUrl, 'full');
  imageUrlRoute(LOCATOR_ROUTES.smallImageUrl, 'small');

  app.get(LOCATOR_ROUTES.images, { schema: IMAGE_SCHEMA }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (!key.startsWith('idan/') || !isValidStorageKey(key))
      throw badRequest(`'${key.slice(0, 120)}' is not an imagery image key.`);
    const stored = await storage.stream(key);
    if (!stored) throw notFound(`No image '${key}': ask for its URL again (/api/idanImageUrl).`);
    reply.header('cache-control', IMAGE_CACHE_CONTROL).header('etag', stored.info.etag);
    if (etagMatches(request.headers['if-none-match'], stored.info.etag)) {
      stored.stream.destroy();
      return reply.code(304).send();
    }
    return reply
      .type(stored.info.contentType)
      .header('content-length', String(stored.info.size))
      .send(stored.stream);
  });

  await app.register(async (scope: FastifyInstance) => pictometryProxy(scope, ctx));
}

/**
 * /api/pictometry/proxy/*: forwards to the configured oblique viewer (PICTOMETRY_PROXY_TARGET, its path
 * kept as the upstream prefix) without the portal's cookies; a 404 saying so when none is configured.
 */
async function pictometryProxy(scope: FastifyInstance, ctx: LocatorContext): Promise<void> {
  const prefix = LOCATOR_ROUTES.pictometryProxy;
  const target = ctx.config.pictometryProxyTarget;
  if (!target) {
    const answer = async () => {
      throw notFound(
        'No oblique imagery viewer is configured: set PICTOMETRY_PROXY_TARGET to forward /api/pictometry/proxy.',
      );
    };
    scope.all(prefix, answer);
    scope.all(`${prefix}/*`, answer);
    return;
  }
  const upstream = new URL(target);
  // The proxy passes bodies through with parsers of its own; server-kit's depth-checked JSON parser in this
  // scope would make their registration fail (the gateway does the same for its proxy).
  for (const type of ['application/json', 'text/plain'])
    if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
  await scope.register(httpProxy, {
    upstream: upstream.origin,
    prefix,
    rewritePrefix: upstream.pathname.replace(/\/$/, ''),
    replyOptions: {
      rewriteRequestHeaders: (_request, headers) =>
        Object.fromEntries(Object.entries(headers).filter(([name]) => !PRIVATE_HEADERS.includes(name))),
    },
  });
}
