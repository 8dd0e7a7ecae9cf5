import {
  ErrorAnswer,
  IdParams,
  REQUEST_API,
  REQUEST_CREATED,
  REQUEST_HEADERS,
  REQUEST_MAP_MAX_LIMIT,
  REQUEST_ROUTES,
  REQUEST_STATUSES,
  REQUEST_TYPES,
  RequestCreatedAnswer,
  RequestForm,
  RequestMapAnswer,
  RequestMapQuery,
  RequestRecord,
  type RequestStatus,
  type RequestType,
} from '@portal/contracts';
import { badRequest, forbidden, notFound, type TypedFastify } from '@portal/server-kit';
import { callerHooks, isStaff } from '@portal/server-kit';
import type { RequestsContext } from '../context';
import { publishRequestCreated } from '../events';
import { FORM_TEXT, readRequestForm } from '../form';
import { checkMeasurements, geometryProblems } from '../measurements/checks';
import { FILTER_TEXT, allowedValues } from '../queue/filters';
import { findRequest, insertRequest, mapPoints } from '../store';
import { ERRORS } from './schemas';

export const REQUEST_TEXT = {
  badId: 'The request id must be a request id (a UUID) or a GRiP reference such as GRP-2611-000123.',
  notFound: 'No such request.',
  notYours: 'This request belongs to another user.',
  box: 'The box needs all of west, south, east and north, with west < east and south < north.',
  badStatus: FILTER_TEXT.badStatus,
  badType: FILTER_TEXT.badType,
  badDate: (name: string) => `${name} must be a date (YYYY-MM-DD) or a date-time (ISO 8601).`,
  dates: 'from must be before to.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GRIP_REFERENCE = /^GRP-\d{4}-\d{6,}$/i;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,200}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600 * 1000;
/** Largest request form accepted (bytes). */
export const CREATE_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * A date filter as an instant: a date alone is the start of that South African day (SAST, UTC+2, spec 03
 * §9) — for `to`, the start of the next day, so the day is included.
 */
function dateBound(name: string, value: string | undefined, end: boolean): Date | null {
  if (value === undefined || value.trim() === '') return null;
  const text = value.trim();
  const date = DATE_ONLY.test(text) ? new Date(`${text}T00:00:00+02:00`) : new Date(text);
  if (Number.isNaN(date.getTime())) throw badRequest(REQUEST_TEXT.badDate(name));
  return end && DATE_ONLY.test(text) ? new Date(date.getTime() + DAY_MS) : date;
}

/**
 * Request creation and reading (spec 01 §7 "Request creation", spec 03 §7 "Requests and IRiS") and the
 * mapping service's points. Every call needs a session; the caller's row is read first (caller.ts).
 */
export async function requestRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  // PUT /api/v1.0/request/ (and without the slash): answers the plain 'created' the client compares to.
  app.put(
    REQUEST_ROUTES.create,
    {
      onRequest,
      // The form carries the parcel's outline (twice: parcel and geojson); a farm's can pass the
      // default 1 MB.
      bodyLimit: CREATE_BODY_LIMIT,
      // Measurements' geometries in words before the schema (measurements/checks.ts).
      preValidation: async (request) => {
        const problems = geometryProblems((request.body as { measurements?: unknown } | null)?.measurements);
        if (problems.length > 0) throw badRequest(problems.join(' '), problems);
      },
      schema: {
        summary: 'Log a request',
        description:
          "Logs a SAVi, AVS, IRiS or Can't Locate request for a property (the request form of spec 01 §7) and answers " +
          '201 `created` with its URL in Location and its GRiP reference in X-GRiP-Reference. An Idempotency-Key ' +
          'header makes a retry answer the same request.',
        tags: ['Requests'],
        body: RequestForm,
        response: { 201: RequestCreatedAnswer, 409: ErrorAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      const header = request.headers[REQUEST_HEADERS.idempotencyKey];
      const key = (Array.isArray(header) ? header[0] : header) ?? request.body.idempotencyKey ?? null;
      if (key !== null && !IDEMPOTENCY_KEY.test(key)) throw badRequest(FORM_TEXT.idempotencyKey);
      const form = readRequestForm(request.body as RequestForm, request.caller, key);
      // Measurements made in /savi before logging (issue 21): checked here, measured and written with the
      // request in its transaction (store.ts), so a bad one leaves no request either.
      const measurements = checkMeasurements((request.body as RequestForm).measurements ?? []);
      if (measurements.problems.length > 0)
        throw badRequest(measurements.problems.join(' '), measurements.problems);
      const created = await insertRequest(ctx.ds, request.caller, form, measurements.checked);
      if (created.inserted) await publishRequestCreated(ctx, created, request.log);
      else reply.header('idempotent-replayed', 'true');
      // Metered once per SAVi request (an idempotent replay is the same request).
      if (created.inserted && request.body.requestType === 'SAVI') app.meter(request, 'savi_request');
      return reply
        .code(201)
        .header(REQUEST_HEADERS.location, REQUEST_API.any(created.id))
        .header(REQUEST_HEADERS.gripReference, created.gripReference)
        .type('text/plain; charset=utf-8')
        .send(REQUEST_CREATED);
    },
  );

  app.get(
    REQUEST_ROUTES.any,
    {
      onRequest,
      schema: {
        summary: 'Read a request',
        description:
          "A request by its id or GRiP reference, with its status, fees, report fields (PDF URL, RVETotal, invoice number) and history fields; the caller's own, or any for staff.",
        tags: ['Requests'],
        params: IdParams,
        response: { 200: RequestRecord, ...ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      const key = UUID.test(id)
        ? { id }
        : GRIP_REFERENCE.test(id)
          ? { gripReference: id.toUpperCase() }
          : null;
      if (!key) throw badRequest(REQUEST_TEXT.badId);
      const record = await findRequest(ctx.ds, key);
      if (!record) throw notFound(REQUEST_TEXT.notFound);
      if (record.user.id !== request.caller.id && !isStaff(request.caller))
        throw forbidden(REQUEST_TEXT.notYours);
      return record;
    },
  );

  app.get(
    REQUEST_ROUTES.map,
    {
      onRequest,
      schema: {
        summary: 'List requests on the map',
        description:
          "The points of the caller's requests (staff: everyone's) inside a box, filtered by status, type and dates.",
        tags: ['Requests'],
        querystring: RequestMapQuery,
        response: { 200: RequestMapAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const query = request.query;
      const sides = [query.west, query.south, query.east, query.north];
      const given = sides.filter((side) => side !== undefined).length;
      if (given !== 0 && given !== 4) throw badRequest(REQUEST_TEXT.box);
      const box =
        given === 4
          ? { west: query.west!, south: query.south!, east: query.east!, north: query.north! }
          : null;
      if (box && (box.west >= box.east || box.south >= box.north)) throw badRequest(REQUEST_TEXT.box);
      const from = dateBound('from', query.from, false);
      const to = dateBound('to', query.to, true);
      if (from && to && from >= to) throw badRequest(REQUEST_TEXT.dates);
      const limit = query.limit ?? REQUEST_MAP_MAX_LIMIT;
      const { total, points } = await mapPoints(ctx.ds, {
        userId: isStaff(request.caller) ? null : request.caller.id,
        box,
        statuses: allowedValues<RequestStatus>(query.status, REQUEST_STATUSES, REQUEST_TEXT.badStatus),
        types: allowedValues<RequestType>(query.type, REQUEST_TYPES, REQUEST_TEXT.badType),
        from,
        to,
        limit,
      });
      return { total, truncated: total > points.length, points };
    },
  );
}
