import {
  ConfirmFootprintsBody,
  REPORTBUILDER_ROUTES,
  REPORT_LIMITS,
  RequestIdParams,
  SaveSectionsBody,
  SectionsAnswer,
  SectionsConflictAnswer,
  TotalsAnswer,
  VersionsAnswer,
} from '@portal/contracts';
import { formatMoney, type ReportSections } from '@portal/domain';
import { badRequest, callerHooks, type TypedFastify } from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import { reportCalls } from './reportCalls';
import { reportDetailRoutes } from './reportDetails';
import { ERRORS } from './errors';
import {
  sectionsAnswer,
  sectionsOf,
  totalsOf,
  totalsSettingsOf,
  versionOf,
  type ReportChange,
} from '../store';
import { sectionsProblems } from '../validation';
import { settleMeasuredFloors } from '../measured';
import { sectionsWithFootprints } from '../footprints';
import { sumInsuredAnswer } from '../sumInsured';
import { reportVersions } from '../versions';

const SECTIONS_ERRORS = { ...ERRORS, 409: SectionsConflictAnswer } as const;

export const SAVE_TEXT = {
  sections: (count: number) =>
    `The sections cannot be saved: ${count === 1 ? 'one problem' : `${count} problems`} (see messages).`,
} as const;

/**
 * The report builder's calls of spec 02 §7.1 without images and PDF: sections, footprints, and the
 * totals and submitted versions (ours) here; comments, note, details, the report's address and the extra
 * field in reportDetails.ts. Reading: the
 * request's owner and staff, in every status; saving: staff (admin, saviOperator, saviQC) while the request
 * is Ready for QS, In progress, Pending or Query. Every save is one transaction under the request's row
 * lock with the client's version checked (store.ts). Failures answer their status in the one error shape
 * and are logged (server-kit); the screens stay silent about them (spec 02 §7.1, §8).
 */
export async function reportRoutes(app: TypedFastify, ctx: ReportBuilderContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  const { read, save, conflictReply } = reportCalls(ctx);

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

  reportDetailRoutes(app, ctx, onRequest);
}
