import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import {
  RequestRow,
  ClientReferencesAnswer,
  DUPLICATE_MAX_NEIGHBOURS,
  NearAnswer,
  NearParams,
  REQUEST_ADMIN_ROUTES,
  REQUEST_PAGE_SIZES,
  REQUEST_STATUSES,
  RequestConsoleSettings,
  RequestFilterQuery,
  RequestHistoryAnswer,
  RequestPagerAnswer,
  RequestPagerQuery,
  RequestStatusCountsAnswer,
  referenceFields,
  referenceLabel,
} from '@portal/contracts';
import { badRequest, callerHooks, forbidden, isStaff, notFound, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../../context';
import { checkId } from '../../queue/changes';
import { parseRequestFilters } from '../../queue/filters';
import { requireConsoleUser, requireOwnerOrStaff } from '../../queue/guards';
import { requestHistory, requestOwner } from '../../queue/history';
import { nearRequests } from '../../queue/near';
import {
  STAFF_DEFAULT_SORT,
  USER_DEFAULT_SORT,
  parseSort,
  requestPage,
  requestRowsCursor,
  settleKeptLists,
  statusCounts,
} from '../../queue/pager';
import { requestReferences } from '../../queue/references';
import { QUEUE_TEXT } from '../../queue/texts';
import { ERRORS, IdParam } from '../schemas';

/** What GET /api/v1.0/requests answers, for the API's document. */
const STREAMED_ROWS: FastifySchema['response'] = {
  200: Type.Array(RequestRow, { description: 'Every matching request, as one JSON array.' }),
  ...ERRORS,
};

/**
 * The queue's reads (spec 02 §7.2, spec 03 §7): the pager both grids read, the streamed list, counts and
 * settings, a request's history and references, and the duplicate check. A plain user reads their own
 * requests, staff everyone's.
 */
export async function queueReadRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  // The pager's kept lists being read in the background end before the database closes.
  app.addHook('onClose', async () => settleKeptLists(ctx.ds));
  app.get(
    REQUEST_ADMIN_ROUTES.pager,
    {
      onRequest,
      schema: {
        summary: 'Page through requests',
        description:
          "One page of the request grid (the caller's own requests; staff everyone's), filtered and sorted.",
        tags: ['Requests'],
        querystring: RequestPagerQuery,
        response: { 200: RequestPagerAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      const staff = isStaff(request.caller);
      const query = request.query;
      const page = await requestPage(ctx.ds, {
        filters: parseRequestFilters(query),
        ownerId: staff ? null : request.caller.id,
        sort: parseSort(query.sort_object, staff ? STAFF_DEFAULT_SORT : USER_DEFAULT_SORT),
        page: query.page ?? 1,
        limit: query.limit ?? 20,
      });
      // Written by JSON.stringify, not by the response schema's serializer: toRequestRow builds each row with
      // exactly the contract's fields, in its order (reads.test.ts compares the two texts, byte for byte).
      // The schema's 19 nullable and Yes/No fields a row (anyOf) make fast-json-stringify run a validator per
      // field to pick its branch, and its answer is a string of thousands of pieces that Content-Length then
      // flattens: for a 1 000-row page (775 KB), 7.8 + 4.3 ms in a profile of the service, against 5.4 + 2.1
      // ms for JSON.stringify's (a loaded machine; the service's CPU per such page fell by a quarter).
      return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(page);
    },
  );

  // Every match, streamed as one JSON array from a cursor: never held whole in memory.
  app.get(
    REQUEST_ADMIN_ROUTES.all,
    {
      onRequest,
      schema: {
        summary: 'List every matching request',
        description:
          "Every request matching the console's filters as one JSON array, streamed (administrators and SAVi operators).",
        tags: ['Requests'],
        querystring: Type.Object({
          ...RequestFilterQuery.properties,
          sort_object: Type.Optional(Type.String({ maxLength: 500 })),
        }),
        // The answer is a stream (a JSON array of RequestRow), written as it is read: its schema documents it
        // only (untyped, a stream is never serialized).
        response: STREAMED_ROWS,
      },
    },
    async (request, reply) => {
      requireConsoleUser(request.caller);
      const filters = parseRequestFilters(request.query);
      const sort = parseSort(request.query.sort_object, STAFF_DEFAULT_SORT);
      async function* jsonArray() {
        yield '[';
        let first = true;
        for await (const batch of requestRowsCursor(ctx.ds, { filters, ownerId: null, sort })) {
          const chunk = batch.map((row) => JSON.stringify(row)).join(',');
          yield first ? chunk : `,${chunk}`;
          first = false;
        }
        yield ']';
      }
      return reply.type('application/json; charset=utf-8').send(Readable.from(jsonArray()));
    },
  );

  app.get(
    REQUEST_ADMIN_ROUTES.statusCounts,
    {
      onRequest,
      schema: {
        summary: 'Count requests by status',
        description: "How many requests matching the filters are in each status (the console's status tabs).",
        tags: ['Requests'],
        querystring: RequestFilterQuery,
        response: { 200: RequestStatusCountsAnswer, ...ERRORS },
      },
    },
    async (request) =>
      statusCounts(
        ctx.ds,
        parseRequestFilters(request.query),
        isStaff(request.caller) ? null : request.caller.id,
      ),
  );

  app.get(
    REQUEST_ADMIN_ROUTES.settings,
    {
      onRequest,
      schema: {
        summary: "Read the console's settings",
        description: 'The statuses, request types, priorities and other choices the request screens offer.',
        tags: ['Requests'],
        response: { 200: RequestConsoleSettings, ...ERRORS },
      },
    },
    async () => ({
      ageingTargets: ctx.config.ageingTargets,
      statuses: [...REQUEST_STATUSES],
      pageSizes: [...REQUEST_PAGE_SIZES],
    }),
  );

  app.get(
    REQUEST_ADMIN_ROUTES.history,
    {
      onRequest,
      schema: {
        summary: "Read a request's history",
        description:
          "A request's history: every status change and edit with who made it and when, oldest first.",
        tags: ['Requests'],
        params: IdParam,
        response: { 200: RequestHistoryAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const owner = await requestOwner(ctx.ds, id);
      if (owner === null) throw notFound(QUEUE_TEXT.noRequest);
      requireOwnerOrStaff(request.caller, owner);
      return { history: await requestHistory(ctx.ds, id) };
    },
  );

  app.get(
    REQUEST_ADMIN_ROUTES.referencesOf,
    {
      onRequest,
      schema: {
        summary: "Read a request's client references",
        description: "The client's reference fields of a request as labels and values.",
        tags: ['Requests'],
        params: IdParam,
        response: { 200: ClientReferencesAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const row = await requestReferences(ctx.ds, id);
      if (!row) throw notFound(QUEUE_TEXT.noRequest);
      requireOwnerOrStaff(request.caller, row.user_id);
      const fields = referenceFields(row.claims_user ? row.claims_references : row.references);
      return {
        clientReferences: Object.fromEntries(
          Object.entries(row.reference ?? {}).map(([key, value]) => [key, String(value ?? '')]),
        ),
        fields: fields.map((field) => ({ key: field.key, label: referenceLabel(field) })),
      };
    },
  );

  app.get(
    REQUEST_ADMIN_ROUTES.near,
    {
      onRequest,
      schema: {
        summary: 'List requests near a request',
        description: "Other requests within a radius (metres) of a request's point, nearest first.",
        tags: ['Requests'],
        params: Type.Object({ id: Type.String({ maxLength: 64 }), radius: Type.String({ maxLength: 20 }) }),
        response: { 200: NearAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const radius = Number(request.params.radius);
      if (!Number.isFinite(radius) || !(radius > 0) || radius > NearParams.properties.radius.maximum!)
        throw badRequest(QUEUE_TEXT.radius);
      const staff = isStaff(request.caller);
      const answer = await nearRequests(ctx.ds, {
        id,
        radius,
        ownerId: staff ? null : request.caller.id,
        limit: DUPLICATE_MAX_NEIGHBOURS,
      });
      if (!answer) throw notFound(QUEUE_TEXT.noLocatedRequest);
      if (!staff && answer.centreOwner !== request.caller.id) throw forbidden(QUEUE_TEXT.notYours);
      return { centre: answer.centre, requests: answer.requests, radius, truncated: answer.truncated };
    },
  );
}
