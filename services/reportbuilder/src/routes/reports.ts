import type { FastifyReply } from 'fastify';
import {
  AddressDetailsAnswer,
  CommentsAnswer,
  CommentsBody,
  ConfirmFootprintsBody,
  DetailsConflictAnswer,
  ExtraFieldDescriptionBody,
  ExtraFieldIncludedBody,
  ExtraFieldValueBody,
  NoteAnswer,
  NoteBody,
  REPORTBUILDER_ROUTES,
  REPORT_LIMITS,
  ReportDetails,
  ReportIdQuery,
  RequestIdParams,
  SaveAddressBody,
  SaveSectionsBody,
  SectionsAnswer,
  SectionsConflictAnswer,
  TotalsAnswer,
  VersionsAnswer,
} from '@portal/contracts';
import { formatMoney, type ReportSections } from '@portal/domain';
import { badRequest, callerHooks, type Caller, type TypedFastify } from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import { ERRORS } from './errors';
import {
  REPORT_TEXT,
  ReportConflict,
  checkRead,
  detailsAnswer,
  extraFieldValue,
  readReport,
  saveReport,
  sectionsAnswer,
  sectionsOf,
  totalsOf,
  totalsSettingsOf,
  versionOf,
  addressAnswer,
  type ReportChange,
  type ReportState,
} from '../store';
import { sectionsProblems } from '../validation';
import { settleMeasuredFloors } from '../measured';
import { sectionsWithFootprints } from '../footprints';
import { sumInsuredAnswer } from '../sumInsured';
import { reportVersions } from '../versions';

const SECTIONS_ERRORS = { ...ERRORS, 409: SectionsConflictAnswer } as const;
const DETAILS_ERRORS = { ...ERRORS, 409: DetailsConflictAnswer } as const;

export const SAVE_TEXT = {
  sections: (count: number) =>
    `The sections cannot be saved: ${count === 1 ? 'one problem' : `${count} problems`} (see messages).`,
} as const;

/** The request id of a call that may name it in the path, the body or the query (they must agree). */
function requestIdOf(fromPath: string | undefined, fromBody: string | undefined): string {
  if (fromPath !== undefined && fromBody !== undefined && fromPath.toLowerCase() !== fromBody.toLowerCase())
    throw badRequest(REPORT_TEXT.idMismatch);
  const id = fromPath ?? fromBody;
  if (id === undefined || id === '') throw badRequest(REPORT_TEXT.idRequired);
  return id;
}

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
 * The report builder's calls of spec 02 §7.1 without images and PDF: sections, comments, note, details,
 * the report's address, the extra field, and the totals and submitted versions (ours). Reading: the
 * request's owner and staff, in every status; saving: staff (admin, saviOperator, saviQC) while the request
 * is Ready for QS, In progress, Pending or Query. Every save is one transaction under the request's row
 * lock with the client's version checked (store.ts). Failures answer their status in the one error shape
 * and are logged (server-kit); the screens stay silent about them (spec 02 §7.1, §8).
 */
export async function reportRoutes(app: TypedFastify, ctx: ReportBuilderContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);
  const defaultVat = ctx.config.vatPercentage;

  const read = async (id: string, caller: Caller) => {
    const state = await readReport(ctx.ds, id, defaultVat);
    checkRead(state, caller);
    return state;
  };
  const save = (
    id: string,
    caller: Caller,
    version: number | undefined,
    what: string,
    decide: Parameters<typeof saveReport>[2],
  ) => saveReport(ctx.ds, { id, caller, version, what, defaultVat }, decide);

  /** A 409 with the report as it is now, in the answer's own shape (sections or details). */
  const conflictReply = (
    reply: FastifyReply,
    error: unknown,
    requestId: string,
    current: (state: ReportState, caller: Caller) => unknown,
  ) => {
    if (!(error instanceof ReportConflict)) throw error;
    reply.log.info({ status: 409, message: error.message }, 'request refused');
    return reply.code(409).send({
      statusCode: 409 as const,
      error: 'Conflict',
      message: error.message,
      requestId,
      current: current(error.state, error.caller),
    });
  };

  // ------------------------------------------------------------------------------------------ sections

  app.get(
    REPORTBUILDER_ROUTES.sections,
    {
      onRequest,
      schema: {
        summary: "Read a report's sections",
        description:
          "The SAVi report's sections (buildings, floors, areas, rates and ticks) with its version.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: SectionsAnswer, ...ERRORS },
      },
    },
    async (request) => sectionsAnswer(await read(request.params.requestID, request.caller), request.caller),
  );

  app.post(
    REPORTBUILDER_ROUTES.saveSections,
    {
      onRequest,
      schema: {
        summary: "Save a report's sections",
        description:
          "Saves the report's sections (staff, while the request is editable); 409 with the report as it is when `version` is stale.",
        tags: ['Report builder'],
        body: SaveSectionsBody,
        response: { 200: SectionsAnswer, ...SECTIONS_ERRORS },
      },
    },
    async (request, reply) => {
      const { ID, sections, comment, version } = request.body;
      try {
        const after = await save(ID, request.caller, version, 'sections', async (state, em) => {
          const saved = sectionsOf(state);
          const problems = sectionsProblems(sections as ReportSections, saved);
          // Issue 21: measured floor sizes keep the facts of their measurement, flagged when typed over.
          const measured = await settleMeasuredFloors(
            em,
            state.request.id,
            sections as ReportSections,
            saved,
          );
          problems.push(...measured.problems);
          if (problems.length > 0) throw badRequest(SAVE_TEXT.sections(problems.length), problems);
          const change: ReportChange = { sections: Object.entries(measured.sections) };
          if (comment !== undefined) {
            change.comments = comment;
            change.comments_user_id = request.caller.id;
          }
          return change;
        });
        return sectionsAnswer(after, request.caller);
      } catch (error) {
        return conflictReply(reply, error, request.id, sectionsAnswer);
      }
    },
  );

  // Issue 21 ('Building Size Calculation'): the footprints the QS confirmed become buildings, in one save.
  app.post(
    REPORTBUILDER_ROUTES.confirmFootprints,
    {
      onRequest,
      schema: {
        summary: 'Add buildings from footprints',
        description:
          "Adds buildings made from the imagery's building footprints the QS confirmed, in one save; 409 when `version` is stale.",
        tags: ['Report builder'],
        body: ConfirmFootprintsBody,
        response: { 200: SectionsAnswer, ...SECTIONS_ERRORS },
      },
    },
    async (request, reply) => {
      const { requestID, sectionID, surveyId, buildingIds, version } = request.body;
      try {
        const after = await save(requestID, request.caller, version, 'footprints', async (state, em) => {
          const sections = await sectionsWithFootprints(em, {
            requestId: state.request.id,
            sections: sectionsOf(state),
            sectionId: sectionID,
            surveyId,
            buildingIds,
            maxBuildings: REPORT_LIMITS.buildingsPerSection,
          });
          const problems = sectionsProblems(sections, sectionsOf(state));
          if (problems.length > 0) throw badRequest(SAVE_TEXT.sections(problems.length), problems);
          return { sections: Object.entries(sections) };
        });
        return sectionsAnswer(after, request.caller);
      } catch (error) {
        return conflictReply(reply, error, request.id, sectionsAnswer);
      }
    },
  );

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

  // ----------------------------------------------------------------------------- totals and versions

  app.get(
    REPORTBUILDER_ROUTES.totals,
    {
      onRequest,
      schema: {
        summary: "Read a report's totals",
        description:
          "The report's totals worked out from its sections and the group's rates: areas, replacement values and the RVETotal.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: TotalsAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const state = await read(request.params.requestID, request.caller);
      const totals = totalsOf(state);
      return {
        ID: state.request.id,
        version: versionOf(state),
        settings: totalsSettingsOf(state),
        totals,
        formatted: {
          extraField: formatMoney(totals.extraField),
          subtotal: formatMoney(totals.subtotal),
          professionalFee: formatMoney(totals.professionalFee),
          vat: formatMoney(totals.vat),
          grandTotal: formatMoney(totals.grandTotal),
        },
        sumInsured: sumInsuredAnswer(
          state.request.reference,
          totals.grandTotal,
          ctx.config.sumInsuredTolerancePercent,
        ),
      };
    },
  );

  app.get(
    REPORTBUILDER_ROUTES.versions,
    {
      onRequest,
      schema: {
        summary: "Read a report's versions",
        description:
          "The report's current version and the version of its latest PDF, to tell whether the PDF is current.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: VersionsAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const state = await read(request.params.requestID, request.caller);
      return { ID: state.request.id, ...(await reportVersions(ctx.ds, state)) };
    },
  );
}
