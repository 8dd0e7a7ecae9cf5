import { Type } from '@sinclair/typebox';
import { errorAnswers, LOCATOR_ROUTES, TILE_LAYERS, TileJson, type TileLayer } from '@portal/contracts';
import { notFound, type TypedFastify } from '@portal/server-kit';
import type { LocatorContext } from '../context';
import { tileJson } from '../tiles/tilejson';
import { TILE_CACHE_CONTROL } from './tiles';

const TileJsonParams = Type.Object({ layer: Type.String({ maxLength: 40 }) });

const isTileLayer = (layer: string): layer is TileLayer => (TILE_LAYERS as readonly string[]).includes(layer);

/**
 * GET /api/v1.0/tiles/{layer}.json: the layer's TileJSON 3.0.0 document, what QGIS, MapLibre and GDAL read
 * to show the vector tiles (docs/gis.md). The tile template is absolute (PUBLIC_URL); the bounds are the
 * layer's data extent, read once per process.
 */
export async function tileJsonRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  app.get(
    LOCATOR_ROUTES.tileJson,
    {
      schema: {
        summary: 'Get a vector tile layer as TileJSON',
        description:
          'The TileJSON 3.0.0 document of a vector tile layer (places, roads, parcels, addresses): its tile URL ' +
          'template, zooms, data bounds and the fields each feature carries, for GIS tools such as QGIS.',
        tags: ['Maps and imagery'],
        params: TileJsonParams,
        response: { 200: TileJson, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const { layer } = request.params;
      if (!isTileLayer(layer))
        throw notFound(`Unknown tile layer '${layer}'. Layers: ${TILE_LAYERS.join(', ')}.`);
      reply.header('cache-control', TILE_CACHE_CONTROL);
      return tileJson(layer, ctx.config.publicUrl, ctx.extents);
    },
  );
}
