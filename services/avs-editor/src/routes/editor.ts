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
    {
      onRequest,
      schema: {
        summary: 'Read what the editor shows around a point',
        description:
          'The parcels, addresses and points of interest the address editor draws around a point (spec 03 §7).',
        tags: ['Address editor'],
        params: EditorPointParams,
        response: { 200: DisplayDataAnswer, ...ERRORS },
      },
    },
    async (request) => displayData(ctx.ds, request.params.lat, request.params.lng),
  );

  app.get(
    AVS_EDITOR_ROUTES.pointData,
    {
      onRequest,
      schema: {
        summary: 'Read the data at a point',
        description:
          'The parcel at a point with its addresses and points of interest, for the add-address form.',
        tags: ['Address editor'],
        params: EditorPointParams,
        response: { 200: PointDataAnswer, ...ERRORS },
      },
    },
    async (request) => ({
      success: true,
      data: await pointData(ctx.ds, request.params.lat, request.params.lng),
    }),
  );

  app.get(
    AVS_EDITOR_ROUTES.settings,
    {
      onRequest,
      schema: {
        summary: "Read the editor's settings",
        description:
          "Whether the caller may validate, how long a queue item is held, the map's zoom and the quality and parcel-type choices.",
        tags: ['Address editor'],
        response: { 200: AvsEditorSettings, ...ERRORS },
      },
    },
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
    {
      onRequest,
      schema: {
        summary: "List a parcel's edits",
        description: 'Every edit made to a parcel and its addresses, newest first, with who made it.',
        tags: ['Address editor'],
        params: EditorIdParams,
        response: { 200: EditorEditsAnswer, ...ERRORS },
      },
    },
    async (request) => ({ success: true, edits: await editsOfParcel(ctx.ds, request.params.id) }),
  );

  // ---------------------------------------------------------------- queues

  const parcelQueue = (path: string, queue: ParcelQueue, summary: string, description: string) => {
    app.get(
      path,
      {
        onRequest,
        schema: {
          summary,
          description,
          tags: ['Address editor'],
          querystring: DequeueQuery,
          response: { 200: DequeueParcelAnswer, ...ERRORS },
        },
      },
      async (request) => {
        if (queue === 'validate' && !isValidator(request.caller)) throw forbidden(ROUTE_TEXT.validators);
        return dequeueParcel(ctx.ds, request.caller, queue, ctx.config.holdSeconds, request.query.skip);
      },
    );
  };
  parcelQueue(
    AVS_EDITOR_ROUTES.multiParcel,
    'multi',
    'Take the next parcel with several addresses',
    'Holds the next parcel with more than one address for the caller (for the hold time) and answers it; `skip` passes over ones already seen.',
  );
  parcelQueue(
    AVS_EDITOR_ROUTES.noAddressParcel,
    'empty',
    'Take the next parcel without an address',
    'Holds the next parcel that has no address for the caller (for the hold time) and answers it; `skip` passes over ones already seen.',
  );
  parcelQueue(
    AVS_EDITOR_ROUTES.dequeueValidateParcel,
    'validate',
    'Take the next parcel to validate',
    'Holds the next parcel waiting for validation for the caller (validators only) and answers it; `skip` passes over ones already seen.',
  );

  app.get(
    AVS_EDITOR_ROUTES.cantLocate,
    {
      onRequest,
      schema: {
        summary: "Take the next can't-locate request",
        description:
          'Holds the next request whose address could not be located for the caller (for the hold time) and answers it; `skip` passes over ones already seen.',
        tags: ['Address editor'],
        querystring: DequeueRequestQuery,
        response: { 200: DequeueRequestAnswer, ...ERRORS },
      },
    },
    async (request) => dequeueCantLocate(ctx.ds, request.caller, ctx.config.holdSeconds, request.query.skip),
  );

  app.post(
    AVS_EDITOR_ROUTES.release,
    {
      onRequest,
      schema: {
        summary: 'Release a held item',
        description:
          'Gives back a parcel or request the caller holds from a queue, so another operator can take it.',
        tags: ['Address editor'],
        body: ReleaseBody,
        response: { 200: SuccessAnswer, ...ERRORS },
      },
    },
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

  /** What the three marks of a parcel say in the API's document. */
  const PARCEL_MARKS = {
    investigate: {
      summary: 'Mark a parcel for investigation',
      description: 'Marks a parcel as needing investigation; 409 when it changed since `version`.',
    },
    unaddressable: {
      summary: 'Mark a parcel unaddressable',
      description: 'Marks a parcel as one that cannot have an address; 409 when it changed since `version`.',
    },
    reviewed: {
      summary: 'Mark a parcel reviewed',
      description: "Marks a parcel's addresses as reviewed; 409 when it changed since `version`.",
    },
  };

  /** An edit's answer, or the 409 of a refused one (conflict above). */
  const editAnswer = <T>(reply: FastifyReply, requestId: string, run: () => Promise<T>) =>
    run().catch((error: unknown) => conflict(reply, error, requestId));

  app.post(
    AVS_EDITOR_ROUTES.official,
    {
      onRequest,
      schema: {
        summary: 'Make an address the official one',
        description:
          "Makes the address its parcel's official address; 409 when the address changed since `version`.",
        tags: ['Address editor'],
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
          summary: kind === 'accept' ? 'Accept an address' : 'Reject an address',
          description: `${kind === 'accept' ? 'Accepts' : 'Rejects'} an address with a quality; 409 when it changed since \`version\`.`,
          tags: ['Address editor'],
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
    {
      onRequest,
      schema: {
        summary: 'Add an address',
        description: 'Adds an address on a parcel at a point; 409 when the parcel changed meanwhile.',
        tags: ['Address editor'],
        body: AddAddressBody,
        response: { 200: AddressEditAnswer, ...EDIT_ERRORS },
      },
    },
    async (request, reply) =>
      editAnswer(reply, request.id, async () => ({
        success: true,
        address: await addAddress(ctx.ds, edit(request.caller), request.body),
      })),
  );

  app.post(
    AVS_EDITOR_ROUTES.addPoi,
    {
      onRequest,
      schema: {
        summary: 'Add a point of interest',
        description: 'Adds a named point of interest on a parcel; 409 when the parcel changed meanwhile.',
        tags: ['Address editor'],
        body: AddPoiBody,
        response: { 200: PoiEditAnswer, ...EDIT_ERRORS },
      },
    },
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
        summary: 'Detach a point of interest',
        description: 'Detaches a point of interest from its address; 409 when it changed since `version`.',
        tags: ['Address editor'],
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
          ...PARCEL_MARKS[kind],
          tags: ['Address editor'],
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
        summary: 'Validate a parcel',
        description:
          'Marks a parcel validated with its parcel type (validators only); 409 when it changed since `version`.',
        tags: ['Address editor'],
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
        summary: "Resolve a can't-locate request",
        description:
          "Gives a can't-locate request the address or point found for it, which sends the request on in its life; 409 when it changed meanwhile.",
        tags: ['Address editor'],
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
