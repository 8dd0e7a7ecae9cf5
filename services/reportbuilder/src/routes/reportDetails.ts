import {
  AddressDetailsAnswer,
  CommentsAnswer,
  CommentsBody,
  DetailsConflictAnswer,
  ExtraFieldDescriptionBody,
  ExtraFieldIncludedBody,
  ExtraFieldValueBody,
  NoteAnswer,
  NoteBody,
  REPORTBUILDER_ROUTES,
  ReportDetails,
  ReportIdQuery,
  RequestIdParams,
  SaveAddressBody,
} from '@portal/contracts';
import { type callerHooks, type TypedFastify } from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import { reportCalls, requestIdOf } from './reportCalls';
import { ERRORS } from './errors';
import { detailsAnswer, extraFieldValue, versionOf, addressAnswer, type ReportState } from '../store';

const DETAILS_ERRORS = { ...ERRORS, 409: DetailsConflictAnswer } as const;

const commentsAnswer = (state: ReportState) => ({
  ID: state.request.id,
  userID: state.row?.comments_user_id ?? null,
  comment: state.row?.comments ?? '',
  version: versionOf(state),
});
const noteAnswer = (state: ReportState) => ({
  ID: state.request.id,
  userID: state.row?.note_user_id ?? null,
  note: { text: state.row?.note ?? '' },
  version: versionOf(state),
});

/**
 * The report's words around its sections (spec 02 §7.1): comments and note, the details and the report's
 * address, the extra field. Reading: the request's owner and staff; saving: staff while the request is
 * editable, each save one transaction with the client's version checked (reportCalls).
 */
export function reportDetailRoutes(
  app: TypedFastify,
  ctx: ReportBuilderContext,
  onRequest: ReturnType<typeof callerHooks>,
): void {
  const { read, save, conflictReply } = reportCalls(ctx);

  // ------------------------------------------------------------------------------- comments and note

  app.get(
    REPORTBUILDER_ROUTES.comments,
    {
      onRequest,
      schema: {
        summary: "Read a report's comments",
        description: "The report's comments, by the request id in the query.",
        tags: ['Report builder'],
        querystring: ReportIdQuery,
        response: { 200: CommentsAnswer, ...ERRORS },
      },
    },
    async (request) => commentsAnswer(await read(requestIdOf(undefined, request.query.ID), request.caller)),
  );
  app.get(
    REPORTBUILDER_ROUTES.commentsOf,
    {
      onRequest,
      schema: {
        summary: "Read a report's comments",
        description: "The report's comments, by the request id in the path.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: CommentsAnswer, ...ERRORS },
      },
    },
    async (request) => commentsAnswer(await read(request.params.requestID, request.caller)),
  );
  for (const path of [REPORTBUILDER_ROUTES.comments, REPORTBUILDER_ROUTES.commentsOf])
    app.post(
      path,
      {
        onRequest,
        schema: {
          summary: "Save a report's comments",
          description: `Saves the report's comments (staff), by the request id in the ${path === REPORTBUILDER_ROUTES.commentsOf ? 'path' : 'body'}; 409 when \`version\` is stale.`,
          tags: ['Report builder'],
          ...(path === REPORTBUILDER_ROUTES.commentsOf ? { params: RequestIdParams } : {}),
          body: CommentsBody,
          response: { 200: CommentsAnswer, ...DETAILS_ERRORS },
        },
      },
      async (request, reply) => {
        const params = request.params as { requestID?: string } | undefined;
        const id = requestIdOf(params?.requestID, request.body.ID);
        try {
          const after = await save(id, request.caller, request.body.version, 'comments', () => ({
            comments: request.body.comment,
            comments_user_id: request.caller.id,
          }));
          return commentsAnswer(after);
        } catch (error) {
          return conflictReply(reply, error, request.id, detailsAnswer);
        }
      },
    );

  app.get(
    REPORTBUILDER_ROUTES.note,
    {
      onRequest,
      schema: {
        summary: "Read a report's note",
        description: "The report's note, by the request id in the query.",
        tags: ['Report builder'],
        querystring: ReportIdQuery,
        response: { 200: NoteAnswer, ...ERRORS },
      },
    },
    async (request) => noteAnswer(await read(requestIdOf(undefined, request.query.ID), request.caller)),
  );
  app.get(
    REPORTBUILDER_ROUTES.noteOf,
    {
      onRequest,
      schema: {
        summary: "Read a report's note",
        description: "The report's note, by the request id in the path.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: NoteAnswer, ...ERRORS },
      },
    },
    async (request) => noteAnswer(await read(request.params.requestID, request.caller)),
  );
  for (const path of [REPORTBUILDER_ROUTES.note, REPORTBUILDER_ROUTES.noteOf])
    app.post(
      path,
      {
        onRequest,
        schema: {
          summary: "Save a report's note",
          description: `Saves the report's note (staff), by the request id in the ${path === REPORTBUILDER_ROUTES.noteOf ? 'path' : 'body'}; 409 when \`version\` is stale.`,
          tags: ['Report builder'],
          ...(path === REPORTBUILDER_ROUTES.noteOf ? { params: RequestIdParams } : {}),
          body: NoteBody,
          response: { 200: NoteAnswer, ...DETAILS_ERRORS },
        },
      },
      async (request, reply) => {
        const params = request.params as { requestID?: string } | undefined;
        const id = requestIdOf(params?.requestID, request.body.ID);
        const { note } = request.body;
        try {
          const after = await save(id, request.caller, request.body.version, 'note', () => ({
            note: typeof note === 'string' ? note : note.text,
            note_user_id: request.caller.id,
          }));
          return noteAnswer(after);
        } catch (error) {
          return conflictReply(reply, error, request.id, detailsAnswer);
        }
      },
    );

  // ------------------------------------------------------------------------------ details and address

  app.get(
    REPORTBUILDER_ROUTES.details,
    {
      onRequest,
      schema: {
        summary: "Read a report's details",
        description: "The request's details the report prints (client, property, address, extra fields).",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: ReportDetails, ...ERRORS },
      },
    },
    async (request) => detailsAnswer(await read(request.params.requestID, request.caller), request.caller),
  );

  app.get(
    REPORTBUILDER_ROUTES.addressDetails,
    {
      onRequest,
      schema: {
        summary: "Read a report's address",
        description: "The report's address details as the report prints them.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: AddressDetailsAnswer, ...ERRORS },
      },
    },
    async (request) => addressAnswer(await read(request.params.requestID, request.caller)),
  );

  app.post(
    REPORTBUILDER_ROUTES.saveAddress,
    {
      onRequest,
      schema: {
        summary: "Save a report's address",
        description: 'Saves the address the report prints (staff); 409 when `version` is stale.',
        tags: ['Report builder'],
        body: SaveAddressBody,
        response: { 200: ReportDetails, ...DETAILS_ERRORS },
      },
    },
    async (request, reply) => {
      const { requestID, addressDetails, version } = request.body;
      try {
        const after = await save(requestID, request.caller, version, 'address', () => ({
          details: {
            location: addressDetails.location.trim(),
            suburbTownCity: addressDetails.suburbTownCity.trim(),
          },
        }));
        return detailsAnswer(after, request.caller);
      } catch (error) {
        return conflictReply(reply, error, request.id, detailsAnswer);
      }
    },
  );

  // -------------------------------------------------------------------------------------- extra field

  app.post(
    REPORTBUILDER_ROUTES.extraFieldIncluded,
    {
      onRequest,
      schema: {
        summary: 'Include an extra field',
        description:
          "Sets whether one of the report's extra fields is printed (staff); 409 when `version` is stale.",
        tags: ['Report builder'],
        body: ExtraFieldIncludedBody,
        response: { 200: ReportDetails, ...DETAILS_ERRORS },
      },
    },
    async (request, reply) => {
      const { requestID, included, version } = request.body;
      try {
        const after = await save(requestID, request.caller, version, 'extra field included', () => ({
          extra_include: included,
        }));
        return detailsAnswer(after, request.caller);
      } catch (error) {
        return conflictReply(reply, error, request.id, detailsAnswer);
      }
    },
  );
  app.post(
    REPORTBUILDER_ROUTES.extraFieldDescription,
    {
      onRequest,
      schema: {
        summary: 'Describe an extra field',
        description:
          "Saves the description of one of the report's extra fields (staff); 409 when `version` is stale.",
        tags: ['Report builder'],
        body: ExtraFieldDescriptionBody,
        response: { 200: ReportDetails, ...DETAILS_ERRORS },
      },
    },
    async (request, reply) => {
      const { requestID, description, version } = request.body;
      try {
        const after = await save(requestID, request.caller, version, 'extra field description', () => ({
          extra_description: description.trim(),
        }));
        return detailsAnswer(after, request.caller);
      } catch (error) {
        return conflictReply(reply, error, request.id, detailsAnswer);
      }
    },
  );
  app.post(
    REPORTBUILDER_ROUTES.extraFieldValue,
    {
      onRequest,
      schema: {
        summary: "Set an extra field's value",
        description:
          "Saves the value of one of the report's extra fields (staff); 409 when `version` is stale.",
        tags: ['Report builder'],
        body: ExtraFieldValueBody,
        response: { 200: ReportDetails, ...DETAILS_ERRORS },
      },
    },
    async (request, reply) => {
      const { requestID, value, version } = request.body;
      const amount = extraFieldValue(value);
      try {
        const after = await save(requestID, request.caller, version, 'extra field value', () => ({
          extra_value: amount,
        }));
        return detailsAnswer(after, request.caller);
      } catch (error) {
        return conflictReply(reply, error, request.id, detailsAnswer);
      }
    },
  );
}
