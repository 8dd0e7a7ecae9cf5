import {
  CRS84,
  errorAnswers,
  LOCATOR_ROUTES,
  OGC_API,
  OGC_COLLECTIONS,
  OGC_CONFORMANCE,
  OGC_STAFF_COLLECTIONS,
  OgcCollection,
  OgcCollectionParams,
  OgcCollections,
  OgcConformance,
  OgcFeature,
  OgcFeatureCollection,
  OgcFormatQuery,
  OgcItemParams,
  OgcItemsQuery,
  OgcLanding,
  type OgcCollectionId,
  type OgcLink,
} from '@portal/contracts';
import { notFound, STAFF_ROLES, type TypedFastify } from '@portal/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LocatorContext } from '../context';
import { COLLECTIONS, readInterval, readItem, readItems, type FeatureRow } from '../ogc/features';
import { checkFormat, checkItemsParameters, parseItemsQuery, type ItemsRequest } from '../ogc/params';

const JSON_TYPE = 'application/json';
const GEOJSON_TYPE = 'application/geo+json';
const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.0';
/** The portal's merged API document (the gateway's). */
const OPENAPI_PATH = '/api/openapi.json';
const TAGS = ['Maps and imagery'];

/**
 * The collections the caller sees: the staff collections (requests) only for the operations team, by the
 * roles the route gate read (a session's, or those given to an API key).
 */
function collectionsOf(request: FastifyRequest): readonly OgcCollectionId[] {
  const staff = request.user?.roles.some((role) => STAFF_ROLES.includes(role)) ?? false;
  return staff ? [...OGC_COLLECTIONS, ...OGC_STAFF_COLLECTIONS] : OGC_COLLECTIONS;
}

/** The collection a path names, when the caller may see it; a 404 naming the ones they may see otherwise. */
function knownCollection(request: FastifyRequest, id: string): OgcCollectionId {
  const visible = collectionsOf(request);
  const found = visible.find((candidate) => candidate === id);
  if (!found) throw notFound(`There is no collection '${id}'. Collections: ${visible.join(', ')}.`);
  return found;
}

/**
 * OGC API – Features Part 1 (Core, GeoJSON) at /ogc (issue 23): the landing page, conformance, the
 * collections (parcels, addresses, buildings, imagery surveys; requests for the operations team only) and
 * their items, paged with limit and offset and next/prev links, filtered by bbox and, for the dated ones
 * (buildings, surveys, requests), datetime. Behind the route table's
 * gate like the tiles (a session, or an API key holding spatialkey). Links are absolute, from PUBLIC_URL.
 */
export async function ogcRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  const base = ctx.config.publicUrl;
  const link = (path: string, rel: string, type: string, title?: string): OgcLink => ({
    href: `${base}${path}`,
    rel,
    type,
    ...(title ? { title } : {}),
  });
  // A dated collection's first and last dates change only with imports: read once per process.
  const intervals = new Map<OgcCollectionId, Promise<[string | null, string | null] | null>>();
  const interval = (id: OgcCollectionId) => {
    let known = intervals.get(id);
    if (!known) {
      known = readInterval(ctx.readDs, COLLECTIONS[id]);
      known.catch(() => intervals.delete(id));
      intervals.set(id, known);
    }
    return known;
  };

  const collectionDocument = async (id: OgcCollectionId): Promise<OgcCollection> => {
    const definition = COLLECTIONS[id];
    const [bbox, dates] = await Promise.all([ctx.extents.bbox(definition.table), interval(id)]);
    return {
      id,
      title: definition.title,
      description: definition.description,
      itemType: 'feature',
      crs: [CRS84],
      extent: {
        spatial: { bbox: [bbox], crs: CRS84 },
        ...(dates
          ? { temporal: { interval: [dates], trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian' } }
          : {}),
      },
      links: [
        link(OGC_API.collection(id), 'self', JSON_TYPE, definition.title),
        link(OGC_API.items(id), 'items', GEOJSON_TYPE, `${definition.title} (GeoJSON)`),
      ],
    };
  };

  const feature = (row: FeatureRow): OgcFeature => ({
    type: 'Feature',
    id: row.id,
    geometry: row.geometry,
    properties: row.properties,
  });

  const json = (reply: FastifyReply) => reply.type(JSON_TYPE);
  const geojson = (reply: FastifyReply) => reply.type(GEOJSON_TYPE);

  app.get(
    LOCATOR_ROUTES.ogcLanding,
    {
      schema: {
        summary: 'Get the OGC API – Features landing page',
        description:
          "The entry of the portal's OGC API – Features service for GIS tools: links to its API document, " +
          'conformance classes and collections.',
        tags: TAGS,
        querystring: OgcFormatQuery,
        response: { 200: OgcLanding, ...errorAnswers(400) },
      },
    },
    async (request, reply) => {
      checkFormat(request.query.f);
      json(reply);
      return {
        title: 'Property portal – OGC API Features',
        description: 'Parcels, addresses, buildings and imagery surveys of the property portal as GeoJSON.',
        links: [
          link(OGC_API.landing, 'self', JSON_TYPE, 'This document'),
          link(OPENAPI_PATH, 'service-desc', OPENAPI_TYPE, 'The API definition'),
          link(OGC_API.conformance, 'conformance', JSON_TYPE, 'Conformance classes'),
          link(OGC_API.collections, 'data', JSON_TYPE, 'Collections'),
        ],
      };
    },
  );

  app.get(
    LOCATOR_ROUTES.ogcConformance,
    {
      schema: {
        summary: 'List the OGC API conformance classes',
        description:
          'The OGC API – Features Part 1 conformance classes this service implements (core, GeoJSON, OpenAPI 3.0).',
        tags: TAGS,
        querystring: OgcFormatQuery,
        response: { 200: OgcConformance, ...errorAnswers(400) },
      },
    },
    async (request, reply) => {
      checkFormat(request.query.f);
      json(reply);
      return { conformsTo: [...OGC_CONFORMANCE] };
    },
  );

  app.get(
    LOCATOR_ROUTES.ogcCollections,
    {
      schema: {
        summary: 'List the OGC API feature collections',
        description:
          'The feature collections (parcels, addresses, buildings, imagery surveys) with their extents.',
        tags: TAGS,
        querystring: OgcFormatQuery,
        response: { 200: OgcCollections, ...errorAnswers(400) },
      },
    },
    async (request, reply) => {
      checkFormat(request.query.f);
      json(reply);
      return {
        links: [link(OGC_API.collections, 'self', JSON_TYPE, 'Collections')],
        collections: await Promise.all(collectionsOf(request).map(collectionDocument)),
      };
    },
  );

  app.get(
    LOCATOR_ROUTES.ogcCollection,
    {
      schema: {
        summary: 'Get an OGC API feature collection',
        description:
          "A feature collection's description: its extent (box and, for dated ones, dates) and links.",
        tags: TAGS,
        params: OgcCollectionParams,
        querystring: OgcFormatQuery,
        response: { 200: OgcCollection, ...errorAnswers(400, 404) },
      },
    },
    async (request, reply) => {
      checkFormat(request.query.f);
      const id = knownCollection(request, request.params.collectionId);
      json(reply);
      return collectionDocument(id);
    },
  );

  app.get(
    LOCATOR_ROUTES.ogcItems,
    {
      schema: {
        summary: 'Get features of an OGC API collection',
        description:
          "A page of a collection's features as GeoJSON, filtered by bbox (and datetime for buildings and surveys); " +
          'limit (at most 1000) and offset page through them, the next link leads on.',
        tags: TAGS,
        params: OgcCollectionParams,
        querystring: OgcItemsQuery,
        response: { 200: OgcFeatureCollection, ...errorAnswers(400, 404) },
      },
    },
    async (request, reply) => {
      const id = knownCollection(request, request.params.collectionId);
      checkItemsParameters(request.url);
      const items = parseItemsQuery(request.query, COLLECTIONS[id].dated !== undefined);
      const { rows, more } = await readItems(ctx.readDs, COLLECTIONS[id], items);
      const page = (offset: number) => `${OGC_API.items(id)}?${pageQuery(items, offset)}`;
      const cheapMatched = !more && (rows.length > 0 || items.offset === 0);
      geojson(reply);
      return {
        type: 'FeatureCollection' as const,
        features: rows.map(feature),
        links: [
          link(page(items.offset), 'self', GEOJSON_TYPE, 'This page'),
          link(OGC_API.collection(id), 'collection', JSON_TYPE, COLLECTIONS[id].title),
          ...(more ? [link(page(items.offset + items.limit), 'next', GEOJSON_TYPE, 'Next page')] : []),
          ...(items.offset > 0
            ? [link(page(Math.max(0, items.offset - items.limit)), 'prev', GEOJSON_TYPE, 'Previous page')]
            : []),
        ],
        timeStamp: new Date().toISOString(),
        numberReturned: rows.length,
        // Known without counting only on the last page; counting a province's parcels is not cheap.
        ...(cheapMatched ? { numberMatched: items.offset + rows.length } : {}),
      };
    },
  );

  app.get(
    LOCATOR_ROUTES.ogcItem,
    {
      schema: {
        summary: 'Get one feature of an OGC API collection',
        description: 'One feature of a collection by its id, as GeoJSON.',
        tags: TAGS,
        params: OgcItemParams,
        querystring: OgcFormatQuery,
        response: { 200: OgcFeature, ...errorAnswers(400, 404) },
      },
    },
    async (request, reply) => {
      checkFormat(request.query.f);
      const id = knownCollection(request, request.params.collectionId);
      const { featureId } = request.params;
      const row = COLLECTIONS[id].idPattern.test(featureId)
        ? await readItem(ctx.readDs, COLLECTIONS[id], featureId)
        : undefined;
      if (!row) throw notFound(`There is no feature '${featureId}' in ${id}.`);
      geojson(reply);
      return {
        ...feature(row),
        links: [
          link(OGC_API.item(id, featureId), 'self', GEOJSON_TYPE, 'This feature'),
          link(OGC_API.collection(id), 'collection', JSON_TYPE, COLLECTIONS[id].title),
        ],
      };
    },
  );
}

/** The query of a page: the same filters, the limit in force, the page's offset. */
function pageQuery(items: ItemsRequest, offset: number): string {
  const query = new URLSearchParams();
  if (items.bbox) query.set('bbox', items.bbox.join(','));
  if (items.datetime) {
    const { start, end } = items.datetime;
    query.set('datetime', start !== null && start === end ? start : `${start ?? '..'}/${end ?? '..'}`);
  }
  query.set('limit', String(items.limit));
  query.set('offset', String(offset));
  return query.toString();
}
