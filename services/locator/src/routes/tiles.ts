import { Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import {
  errorAnswers,
  LOCATOR_ROUTES,
  METERED_PARCEL_TILE_MIN_ZOOM,
  SurveyId,
  TILE_LAYERS,
  type TileLayer,
} from '@portal/contracts';
import { badRequest, fileAnswer, notFound, type TypedFastify } from '@portal/server-kit';
import type { LocatorContext } from '../context';
import { SATELLITE_MAX_ZOOM, SATELLITE_MIN_ZOOM, SatelliteTiles } from '../imagery/satellite';
import { surveyById } from '../imagery/surveys';
import { MAX_TILE_ZOOM, etagMatches, renderTile, tileEtag, type TileAddress } from '../tiles/render';

export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile';

/**
 * How long a browser keeps a tile before asking again (then with If-None-Match, answered 304 when the
 * content is unchanged). Private: the tiles are the product's data and need a session, so no shared
 * cache may hand them to someone without one. An hour: geodata changes by imports and edits, rarely.
 */
export const TILE_CACHE_CONTROL = 'private, max-age=3600';

// Coordinates arrive as path text and are parsed here, so a bad one gets a message naming the tile rule.
const TileParams = Type.Object({
  layer: Type.String({ maxLength: 40 }),
  z: Type.String({ maxLength: 12 }),
  x: Type.String({ maxLength: 12 }),
  y: Type.String({ maxLength: 12 }),
});

const SatelliteParams = Type.Object({
  z: Type.String({ maxLength: 12 }),
  x: Type.String({ maxLength: 12 }),
  y: Type.String({ maxLength: 12 }),
});

/** `?survey=<id>`: draw the buildings standing at that survey's capture date instead of today's. */
const SatelliteQuery = Type.Object({ survey: Type.Optional(SurveyId) });

const isTileLayer = (layer: string): layer is TileLayer => (TILE_LAYERS as readonly string[]).includes(layer);

/** z, x and y as integers of a real tile (z 0–22, x and y within 0…2^z − 1), or a 400 saying what is wrong. */
export function parseTileAddress(params: { z: string; x: string; y: string }): TileAddress {
  const integer = (text: string) => (/^\d{1,8}$/.test(text) ? Number(text) : NaN);
  const z = integer(params.z);
  if (!Number.isInteger(z) || z > MAX_TILE_ZOOM)
    throw badRequest(`Tile zoom must be an integer from 0 to ${MAX_TILE_ZOOM}, got '${params.z}'.`);
  const size = 2 ** z;
  const x = integer(params.x);
  const y = integer(params.y);
  const problems = [
    ...(Number.isInteger(x) && x < size
      ? []
      : [`x must be an integer from 0 to ${size - 1}, got '${params.x}'`]),
    ...(Number.isInteger(y) && y < size
      ? []
      : [`y must be an integer from 0 to ${size - 1}, got '${params.y}'`]),
  ];
  if (problems.length > 0)
    throw badRequest(`Tile ${z}/${params.x}/${params.y}: ${problems.join('; ')}.`, problems);
  return { z, x, y };
}

/**
 * GET /api/v1.0/tiles/{layer}/{z}/{x}/{y}.mvt: Mapbox vector tiles from PostGIS (places, roads, parcels,
 * addresses; see tiles/layers.ts for what each holds at which zoom). 204 for an empty tile, 304 when the
 * If-None-Match names the tile's content hash, 401 without a session, 400 for an impossible tile, 404
 * for an unknown layer.
 *
 * GET /api/v1.0/tiles/satellite/{z}/{x}/{y}.jpg: the portal's own satellite view, 512-pixel JPEGs drawn
 * top-down from the parcels, streets and buildings in the tile (imagery/satellite.ts), z 13–19; 204 below
 * z 13, beyond z 19 and for a tile with nothing to draw. `?survey=<id>` draws the buildings standing at
 * that survey's capture date (404 for an unknown survey), else today's. Stored like the built-in imagery;
 * same session, cache and ETag rules as the vector tiles.
 */
/**
 * A tile's answers for the API's document. Typed as a plain schema's (unknown): the route's reply types are
 * not held to them (a tile is bytes, 204 or 304).
 */
const tileAnswers = (mediaType: string, description: string): FastifySchema['response'] => ({
  200: fileAnswer(mediaType, description),
  204: { type: 'null', description: 'No tile here (no data, or a zoom without imagery).' },
  304: { type: 'null', description: 'Not modified: the ETag sent in If-None-Match is current.' },
  ...errorAnswers(400, 404),
});

export async function tileRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  const satellite = new SatelliteTiles(ctx.ds, ctx.imageryStorage);
  // Registered before the vector route: the static 'satellite' segment and the .jpg suffix pick it.
  app.get(
    LOCATOR_ROUTES.satelliteTile,
    {
      schema: {
        summary: 'Get a satellite map tile',
        description:
          'A JPEG tile (z/x/y, web mercator) of the aerial imagery, of the newest survey or the one `survey` names; ' +
          '204 where there is no imagery, 304 when If-None-Match names its ETag.',
        tags: ['Maps and imagery'],
        params: SatelliteParams,
        querystring: SatelliteQuery,
        response: tileAnswers('image/jpeg', 'The tile.'),
      },
    },
    async (request, reply) => {
      const tile = parseTileAddress(request.params);
      const survey =
        request.query.survey === undefined ? null : await surveyById(ctx.ds, request.query.survey);
      reply.header('cache-control', TILE_CACHE_CONTROL);
      if (tile.z < SATELLITE_MIN_ZOOM || tile.z > SATELLITE_MAX_ZOOM) return reply.code(204).send();
      const rendered = await satellite.tile(tile, survey);
      if (!rendered) return reply.code(204).send();
      reply.header('etag', rendered.etag);
      if (etagMatches(request.headers['if-none-match'], rendered.etag)) return reply.code(304).send();
      return reply.type('image/jpeg').send(rendered.jpeg);
    },
  );

  app.get(
    LOCATOR_ROUTES.vectorTile,
    {
      // The answer is protobuf bytes: its schema (tileAnswers) only documents it.
      schema: {
        summary: 'Get a vector map tile',
        description:
          'A Mapbox vector tile (z/x/y) of a layer (places, roads, parcels, addresses); 204 when the tile is ' +
          'empty, 304 when If-None-Match names its ETag.',
        tags: ['Maps and imagery'],
        params: TileParams,
        response: tileAnswers(MVT_CONTENT_TYPE, 'The tile.'),
      },
    },
    async (request, reply) => {
      const { layer } = request.params;
      if (!isTileLayer(layer))
        throw notFound(`Unknown tile layer '${layer}'. Layers: ${TILE_LAYERS.join(', ')}.`);
      const tile = parseTileAddress(request.params);
      const bytes = await renderTile(ctx.readDs, layer, tile);
      reply.header('cache-control', TILE_CACHE_CONTROL);
      if (!bytes) return reply.code(204).send();
      const etag = tileEtag(bytes);
      reply.header('etag', etag);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      // Metered: parcel tiles with data at the zooms where parcels are the product (an empty tile and a
      // browser's revalidation are not).
      if (layer === 'parcels' && tile.z >= METERED_PARCEL_TILE_MIN_ZOOM) app.meter(request, 'parcel_tile');
      return reply.type(MVT_CONTENT_TYPE).send(bytes);
    },
  );
}
