import type { FastifyRequest } from 'fastify';
import {
  LOCATOR_ROUTES,
  errorAnswers,
  GeocodeInput,
  GeoJsonAnswer,
  GeoJsonInput,
  ReverseAnswer,
  ReverseInput,
  SearchAnswer,
  SearchInput,
  SearchPostalInput,
  type AvsOptions,
} from '@portal/contracts';
import { unauthorized, type TypedFastify } from '@portal/server-kit';
import { featureGeometry } from '../avs/geojson';
import { readSearchText } from '../avs/parse';
import { reverseGeocode } from '../avs/reverse';
import {
  effectiveFlags,
  geocode,
  RESULT_LIMIT,
  search,
  searchPostalCodes,
  rank,
  type SearchOptions,
} from '../avs/search';
import type { LocatorContext } from '../context';

const ERRORS = errorAnswers(400, 401, 403, 404);

export const AVS_TEXT = {
  needsEmail: 'Please log in with an account that has an e-mail address to search.',
} as const;

/** The per-user options as the searches use them (spec 01 §6: includeIds, includeAll). */
function searchOptions(options: AvsOptions | undefined): SearchOptions {
  return {
    limit: options?.includeAll ? RESULT_LIMIT.all : RESULT_LIMIT.default,
    includeIds: !!options?.includeIds,
  };
}

/**
 * The address service (spec 01 §7 "Address service"). Every call needs a session of a user with an
 * e-mail (spec 01 §5: "Search requires a logged-in user with an email"); the guard runs on request, so
 * nobody's body is read before the caller is known. `options.serviceUrl` is the client's choice of
 * service address (the user's avsServiceUrl) and means nothing here.
 */
export async function avsRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  // Every call here only reads: the read replica's pool when there is one.
  const db = ctx.readDs;
  // The session itself (401) is the route table's gate (libs/domain/src/routeAccess.ts), which runs first
  // and leaves the claims in request.user.
  const guard = [
    async (request: FastifyRequest) => {
      if (!request.user.email?.trim()) throw unauthorized(AVS_TEXT.needsEmail);
    },
  ];

  app.post(
    LOCATOR_ROUTES.geocode,
    {
      onRequest: guard,
      schema: {
        summary: 'Geocode an address',
        description:
          'Finds the addresses best matching a typed address (street, suburb, town, postal code; fuzzy) with their points, best first.',
        tags: ['Addresses'],
        body: GeocodeInput,
        response: { 200: SearchAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const text = readSearchText(request.body.address);
      const result = await geocode(db, text, searchOptions(request.body.options));
      app.meter(request, 'geocode');
      return { success: true, result };
    },
  );

  app.post(
    LOCATOR_ROUTES.search,
    {
      onRequest: guard,
      schema: {
        summary: 'Search addresses as you type',
        description:
          'Addresses, places and points of interest starting with or like the text typed so far, best first (the search box).',
        tags: ['Addresses'],
        body: SearchInput,
        response: { 200: SearchAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const text = readSearchText(request.body.query);
      const flags = effectiveFlags(request.body.searchOptions);
      const result = await search(db, text, flags, searchOptions(request.body.options));
      app.meter(request, 'search');
      return { success: true, result };
    },
  );

  app.post(
    LOCATOR_ROUTES.searchPostal,
    {
      onRequest: guard,
      schema: {
        summary: 'Search postal addresses',
        description:
          'Postal addresses (PO boxes, private bags) and postal codes matching the text typed so far.',
        tags: ['Addresses'],
        body: SearchPostalInput,
        response: { 200: SearchAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const text = readSearchText(request.body.query);
      const options = searchOptions(request.body.options);
      const result = rank(await searchPostalCodes(db, text, options), options.limit);
      app.meter(request, 'search');
      return { success: true, result };
    },
  );

  app.post(
    LOCATOR_ROUTES.reverse,
    {
      onRequest: guard,
      schema: {
        summary: 'Find the address at a point',
        description: 'The address (and parcel) at or nearest to a point: a reverse geocode.',
        tags: ['Addresses'],
        body: ReverseInput,
        response: { 200: ReverseAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { lat, lng, searchOption, options } = request.body;
      const result = await reverseGeocode(db, {
        lat,
        lng,
        searchOption: searchOption?.trim().toLowerCase(),
        includeIds: !!options?.includeIds,
      });
      app.meter(request, 'reverse');
      return { success: true, result };
    },
  );

  app.post(
    LOCATOR_ROUTES.geojson,
    {
      onRequest: guard,
      schema: {
        summary: "Read a feature's geometry",
        description:
          'The GeoJSON geometry of a search result (a parcel, suburb, town or other feature) by its id and type.',
        tags: ['Addresses'],
        body: GeoJsonInput,
        response: { 200: GeoJsonAnswer, ...ERRORS },
      },
    },
    async (request) => ({
      success: true,
      result: await featureGeometry(db, request.body.id, request.body.type),
    }),
  );
}
