import type { FastifyReply } from 'fastify';
import {
  AddAddressBody,
  AddPoiBody,
  AddressEditAnswer,
  AddressVersionBody,
  AVS_EDITOR_ROUTES,
  AVS_EDITOR_ZOOM,
  AvsEditorSettings,
  DequeueParcelAnswer,
  DequeueQuery,
  DequeueRequestAnswer,
  DequeueRequestQuery,
  DisplayDataAnswer,
  EditorConflictAnswer,
  EditorEditsAnswer,
  EditorIdParams,
  EditorPointParams,
  EditorRequestParams,
  errorAnswers,
  ParcelEditAnswer,
  ParcelVersionBody,
  PoiEditAnswer,
  PoiVersionBody,
  PointDataAnswer,
  QualityBody,
  ReleaseBody,
  ResolveCantLocateAnswer,
  ResolveCantLocateBody,
  SuccessAnswer,
  ValidateParcelBody,
} from '@portal/contracts';
import {
  ADDRESS_EDITOR_ROLES,
  QUALITY_OPTIONS,
  ROUTE_REFUSALS,
  VALIDATED_PARCEL_TYPES,
  canValidateParcel,
} from '@portal/domain';
import { callerHooks, forbidden, type Caller, type TypedFastify } from '@portal/server-kit';
import type { AvsEditorContext } from '../context';
import { EditorConflict, editsOfParcel } from '../editor/audit';
import { dequeueCantLocate, releaseRequest, resolveCantLocate } from '../editor/cantLocate';
import {
  addAddress,
  addPoi,
  changeAddress,
  changeParcel,
  detachPoi,
  type EditContext,
} from '../editor/edits';
import { displayData, pointData } from '../editor/read';
import { dequeueParcel, releaseParcel, type ParcelQueue } from '../editor/queues';

export const ROUTE_TEXT = {
  operators: ROUTE_REFUSALS.addressEditor,
  validators: "'Validate Parcel' is for validators only (an e-mail address with a configured prefix).",
} as const;

const ERRORS = errorAnswers(400, 401, 403, 404);
const EDIT_ERRORS = { ...ERRORS, 409: EditorConflictAnswer } as const;

/**
 * The address editor's calls (spec 03 §7 "Address editor" and the popup's, docs/decisions.md). Every
 * call needs an operator (admin or saviOperator, read from the user's row on each call); the validators'
 * calls also the e-mail prefix rule. Edits answer 409 with the current state when stale or refused.
 */
export async function editorRoutes(app: TypedFastify, ctx: AvsEditorContext): Promise<void> {
  const callerHook = callerHooks(app, ctx.ds);
  const operatorOnly = async (request: { caller: Caller }) => {
    if (!request.caller.roles.some((role) => ADDRESS_EDITOR_ROLES.includes(role)))
      throw forbidden(ROUTE_TEXT.operators);
  };
  const onRequest = [...callerHook, operatorOnly];
  const isValidator = (caller: Caller) => canValidateParcel(caller.email, ctx.config.validatorEmailPrefixes);
  const edit = (caller: Caller): EditContext => ({ caller, holdSeconds: ctx.config.holdSeconds });

  /** A refused edit: 409 with the thing as it is now, in the one error shape. */
  const conflict = (reply: FastifyReply, error: unknown, requestId: string) => {
    if (!(error instanceof EditorConflict)) throw error;
    return reply.code(409).send({
      statusCode: 409 as const,
      error: 'Conflict',
      message: error.message,
      requestId,
      ...(error.current === undefined ? {} : { current: error.current }),
    });
  };

  // ---------------------------------------------------------------- reads (spec 03 §7)

  app.get(
    AVS_EDITOR_ROUTES.displayData,
    { onRequest, schema: { params: EditorPointParams, response: { 200: DisplayDataAnswer, ...ERRORS } } },
    async (request) => displayData(ctx.ds, request.params.lat, request.params.lng),
  );

  app.get(
    AVS_EDITOR_ROUTES.pointData,
    { onRequest, schema: { params: EditorPointParams, response: { 200: PointDataAnswer, ...ERRORS } } },
    async (request) => ({
      success: true,
      data: await pointData(ctx.ds, request.params.lat, request.params.lng),
    }),
  );

  app.get(
    AVS_EDITOR_ROUTES.settings,
    { onRequest, schema: { response: { 200: AvsEditorSettings, ...ERRORS } } },
    async (request) => ({
      canValidate: isValidator(request.caller),
      holdSeconds: ctx.config.holdSeconds,
      zoom: AVS_EDITOR_ZOOM,
      qualities: QUALITY_OPTIONS.map((option) => ({ ...option })),
      parcelTypes: VALIDATED_PARCEL_TYPES.map((type) => ({ ...type })),
    }),
  );

  app.get(
    AVS_EDITOR_ROUTES.edits,
    { onRequest, schema: { params: EditorIdParams, response: { 200: EditorEditsAnswer, ...ERRORS } } },
    async (request) => ({ success: true, edits: await editsOfParcel(ctx.ds, request.params.id) }),
  );

  // ---------------------------------------------------------------- queues

  const parcelQueue = (path: string, queue: ParcelQueue) => {
    app.get(
      path,
      {
        onRequest,
        schema: { querystring: DequeueQuery, response: { 200: DequeueParcelAnswer, ...ERRORS } },
      },
      async (request) => {
        if (queue === 'validate' && !isValidator(request.caller)) throw forbidden(ROUTE_TEXT.validators);
        return dequeueParcel(ctx.ds, request.caller, queue, ctx.config.holdSeconds, request.query.skip);
      },
    );
  };
  parcelQueue(AVS_EDITOR_ROUTES.multiParcel, 'multi');
  parcelQueue(AVS_EDITOR_ROUTES.noAddressParcel, 'empty');
  parcelQueue(AVS_EDITOR_ROUTES.dequeueValidateParcel, 'validate');

  app.get(
    AVS_EDITOR_ROUTES.cantLocate,
    {
      onRequest,
      schema: { querystring: DequeueRequestQuery, response: { 200: DequeueRequestAnswer, ...ERRORS } },
    },
    async (request) => dequeueCantLocate(ctx.ds, request.caller, ctx.config.holdSeconds, request.query.skip),
  );

  app.post(
    AVS_EDITOR_ROUTES.release,
    { onRequest, schema: { body: ReleaseBody, response: { 200: SuccessAnswer, ...ERRORS } } },
    async (request) => {
      const { kind, id } = request.body;
      // An id that is not one is simply not held by the caller: nothing to give back.
      const released =
        kind === 'parcel'
          ? /^[0-9]{1,19}$/.test(id) && (await releaseParcel(ctx.ds, request.caller, id))
          : /^[0-9a-f-]{36}$/i.test(id) && (await releaseRequest(ctx.ds, request.caller, id));
      return { success: true, message: released ? 'Released.' : 'Nothing of yours to release.' };
    },
  );

  // ---------------------------------------------------------------- edits

  /** An edit's answer, or the 409 of a refused one (conflict above). */
  const editAnswer = <T>(reply: FastifyReply, requestId: string, run: () => Promise<T>) =>
    run().catch((error: unknown) => conflict(reply, error, requestId));

  app.post(
    AVS_EDITOR_ROUTES.official,
    {
      onRequest,
      schema: {
        params: EditorIdParams,
        body: AddressVersionBody,
        response: { 200: AddressEditAnswer, ...EDIT_ERRORS },
      },
    },
    async (request, reply) =>
      editAnswer(reply, request.id, async () => ({
        success: true,
        address: await changeAddress(ctx.ds, edit(request.caller), request.params.id, request.body.version, {
          kind: 'official',
        }),
      })),
  );

  for (const kind of ['accept', 'reject'] as const)
    app.post(
      AVS_EDITOR_ROUTES[kind],
      {
        onRequest,
        schema: {
          params: EditorIdParams,
          body: QualityBody,
          response: { 200: AddressEditAnswer, ...EDIT_ERRORS },
        },
      },
      async (request, reply) =>
        editAnswer(reply, request.id, async () => ({
          success: true,
          address: await changeAddress(
            ctx.ds,
            edit(request.caller),
            request.params.id,
            request.body.version,
            {
              kind,
              quality: request.body.quality,
            },
          ),
        })),
    );

  app.post(
    AVS_EDITOR_ROUTES.addAddress,
    { onRequest, schema: { body: AddAddressBody, response: { 200: AddressEditAnswer, ...EDIT_ERRORS } } },
    async (request, reply) =>
      editAnswer(reply, request.id, async () => ({
        success: true,
        address: await addAddress(ctx.ds, edit(request.caller), request.body),
      })),
  );

  app.post(
    AVS_EDITOR_ROUTES.addPoi,
    { onRequest, schema: { body: AddPoiBody, response: { 200: PoiEditAnswer, ...EDIT_ERRORS } } },
    async (request, reply) =>
      editAnswer(reply, request.id, async () => ({
        success: true,
        poi: await addPoi(ctx.ds, edit(request.caller), request.body),
      })),
  );

  app.post(
    AVS_EDITOR_ROUTES.detachPoi,
    {
      onRequest,
      schema: {
        params: EditorIdParams,
        body: PoiVersionBody,
        response: { 200: PoiEditAnswer, ...EDIT_ERRORS },
      },
    },
    async (request, reply) =>
      editAnswer(reply, request.id, async () => ({
        success: true,
        poi: await detachPoi(ctx.ds, edit(request.caller), request.params.id, request.body.version),
      })),
  );

  for (const kind of ['investigate', 'unaddressable', 'reviewed'] as const)
    app.post(
      AVS_EDITOR_ROUTES[kind],
      {
        onRequest,
        schema: {
          params: EditorIdParams,
          body: ParcelVersionBody,
          response: { 200: ParcelEditAnswer, ...EDIT_ERRORS },
        },
      },
      async (request, reply) =>
        editAnswer(reply, request.id, async () => ({
          success: true,
          parcel: await changeParcel(ctx.ds, edit(request.caller), request.params.id, request.body.version, {
            kind,
          }),
        })),
    );

  app.post(
    AVS_EDITOR_ROUTES.validateParcel,
    {
      onRequest,
      schema: {
        params: EditorIdParams,
        body: ValidateParcelBody,
        response: { 200: ParcelEditAnswer, ...EDIT_ERRORS },
      },
    },
    async (request, reply) => {
      if (!isValidator(request.caller)) throw forbidden(ROUTE_TEXT.validators);
      return editAnswer(reply, request.id, async () => ({
        success: true,
        parcel: await changeParcel(ctx.ds, edit(request.caller), request.params.id, request.body.version, {
          kind: 'validate',
          parcelTypeId: request.body.parcelTypeId,
        }),
      }));
    },
  );

  app.post(
    AVS_EDITOR_ROUTES.resolveCantLocate,
    {
      onRequest,
      schema: {
        params: EditorRequestParams,
        body: ResolveCantLocateBody,
        response: { 200: ResolveCantLocateAnswer, ...EDIT_ERRORS },
      },
    },
    async (request, reply) =>
      editAnswer(reply, request.id, () =>
        resolveCantLocate(
          ctx.ds,
          { redis: ctx.redis, redisPrefix: ctx.config.redisPrefix },
          request.log,
          request.caller,
          request.params.id.toLowerCase(),
          request.body,
        ),
      ),
  );
}
