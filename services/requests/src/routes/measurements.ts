import { Type } from '@sinclair/typebox';
import {
  MEASUREMENT_ERRORS,
  MEASUREMENT_ROUTES,
  MeasurementAnswer,
  MeasurementInput,
  MeasurementParams,
  MeasurementsAnswer,
} from '@portal/contracts';
import { ROUTE_REFUSALS } from '@portal/domain';
import { badRequest, callerHooks, forbidden, isStaff, notFound, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../context';
import { MEASUREMENT_TEXT, checkMeasurement, geometryProblem } from '../measurements/checks';
import {
  deleteMeasurement,
  insertMeasurements,
  listMeasurements,
  measure,
  requestOwnerForMeasurements,
} from '../measurements/store';
import { checkId } from '../queue/changes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RequestIdParam = Type.Pick(MeasurementParams, ['id']);

/**
 * A request's measurements (issue 21): the requester and staff read them, staff add and delete (the route
 * table gates the roles first). A request the caller may not see is a 404, as if it did not exist: a
 * measurement says where a property is, and its id must not confirm that the request exists.
 */
export async function measurementRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  app.get(
    MEASUREMENT_ROUTES.list,
    {
      onRequest,
      schema: {
        summary: "List a request's measurements",
        description:
          'The heights, lengths and areas measured on the imagery for a request, with the survey each was taken on.',
        tags: ['Requests'],
        params: RequestIdParam,
        response: { 200: MeasurementsAnswer, ...MEASUREMENT_ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const owner = await requestOwnerForMeasurements(ctx.ds, id);
      if (owner === null || (owner !== request.caller.id && !isStaff(request.caller)))
        throw notFound(MEASUREMENT_TEXT.noRequest);
      return { success: true, measurements: await listMeasurements(ctx.ds, id) };
    },
  );

  app.post(
    MEASUREMENT_ROUTES.list,
    {
      onRequest,
      // The geometry's shape first, in words (checks.ts: the schema's union would list every branch).
      preValidation: async (request) => {
        const problem = geometryProblem((request.body as { geometry?: unknown } | null)?.geometry);
        if (problem) throw badRequest(problem);
      },
      schema: {
        summary: 'Add a measurement to a request',
        description:
          'Stores a measurement taken on the imagery (staff) with its geometry and survey; its value is measured on the server.',
        tags: ['Requests'],
        params: RequestIdParam,
        body: MeasurementInput,
        response: { 201: MeasurementAnswer, ...MEASUREMENT_ERRORS },
      },
    },
    async (request, reply) => {
      const id = checkId(request.params.id);
      const checked = checkMeasurement(request.body as MeasurementInput);
      if ('problem' in checked) throw badRequest(checked.problem);
      const caller = request.caller;
      // The gate read the session's roles; the caller's row says whether they are staff now.
      if (!isStaff(caller)) throw forbidden(ROUTE_REFUSALS.requestStaff);
      const measurement = await ctx.ds.transaction(async (em) => {
        // Share-locked: the request cannot be deleted between the check and the insert.
        const owner = await requestOwnerForMeasurements(em, id, true);
        if (owner === null) throw notFound(MEASUREMENT_TEXT.noRequest);
        const measured = await measure(em, checked);
        if ('problem' in measured) throw badRequest(measured.problem);
        const [written] = await insertMeasurements(em, id, { id: caller.id, email: caller.email }, [
          measured,
        ]);
        return written;
      });
      return reply.code(201).send({ success: true, measurement });
    },
  );

  app.delete(
    MEASUREMENT_ROUTES.one,
    {
      onRequest,
      schema: {
        summary: 'Delete a measurement',
        description: "Removes one of a request's measurements (staff).",
        tags: ['Requests'],
        params: MeasurementParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...MEASUREMENT_ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const { measurementId } = request.params;
      if (!UUID.test(measurementId)) throw badRequest(MEASUREMENT_TEXT.badMeasurementId(measurementId));
      if (!isStaff(request.caller)) throw forbidden(ROUTE_REFUSALS.requestStaff);
      if ((await requestOwnerForMeasurements(ctx.ds, id)) === null)
        throw notFound(MEASUREMENT_TEXT.noRequest);
      if (!(await deleteMeasurement(ctx.ds, id, measurementId.toLowerCase())))
        throw notFound(MEASUREMENT_TEXT.noMeasurement);
      return { success: true };
    },
  );
}
