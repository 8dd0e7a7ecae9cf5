import {
  ADMIN_API,
  REPORTBUILDER_API,
  REQUEST_ADMIN_API,
  REQUEST_API,
  type AddressDetailsAnswer,
  type CommentsAnswer,
  type ConfirmFootprintsBody,
  type GenerateReportAnswer,
  type PdfState,
  type NoteAnswer,
  type RatesAnswer,
  type ReportDetails,
  type ReportSectionsBody,
  type RequestRecord,
  type SectionsAnswer,
  type SubmitBody,
  type TotalsAnswer,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';
import { versionSeen } from '../state/versionSlice';

const reportTag = (id: string) => ({ type: 'Report' as const, id });

/**
 * What a save of the report's sections (a save, or confirmed footprints) makes stale: the totals; on a 409
 * the report changed meanwhile, so every cached part of it. Another failure changes nothing.
 */
const sectionsSavedTags = (requestID: string, error: { status: unknown } | undefined) =>
  error && error.status !== 409
    ? []
    : [{ type: 'Report' as const, id: `${requestID}:totals` }, ...(error ? [reportTag(requestID)] : [])];

/**
 * Keeps the version of every answer that carries one (one version covers the whole report). On a 409 the
 * report changed meanwhile: every cached part of it is fetched again.
 */
const trackVersion =
  (requestIdOf: (arg: never) => string) =>
  async (
    arg: never,
    {
      dispatch,
      queryFulfilled,
    }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: unknown }> },
  ) => {
    const requestID = requestIdOf(arg);
    try {
      const { data } = await queryFulfilled;
      const version = (data as { version?: unknown } | null)?.version;
      if (typeof version === 'number') dispatch(versionSeen({ requestID, version }));
    } catch {
      // The caller handles (or logs) the failure.
    }
  };

/** GET report/…/full: the contract's { success, url } and the PDF job's state (services/reportbuilder "PDF"). */
export interface GeneratePdfAnswer extends GenerateReportAnswer {
  ready: boolean;
  state: PdfState;
  progress: number;
  version: number;
  error: string | null;
}

/** GET report/{id}/pdf/ready: the poll of the PDF job. */
export interface PdfReadyAnswer {
  success: boolean;
  pdfReady: boolean;
  pdfUrl: string | null;
  progress: number;
  state: PdfState;
  error: string | null;
  version: number;
  pdfVersion: number | null;
}

export interface SaveSectionsArgs {
  ID: string;
  sections: ReportSectionsBody;
  version: number | undefined;
}

/** The report builder's calls (spec 02 §7.1, libs/contracts REPORTBUILDER_API) and the few it borrows. */
export const reportBuilderApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    reportSections: build.query<SectionsAnswer, string>({
      query: (id) => REPORTBUILDER_API.sections(id),
      providesTags: (_a, _e, id) => [reportTag(id)],
      onQueryStarted: trackVersion((id: string) => id),
    }),
    saveSections: build.mutation<SectionsAnswer, SaveSectionsArgs>({
      query: (body) => ({ url: REPORTBUILDER_API.saveSections, method: 'POST', body }),
      // A save changes the totals (and the version every part answers with); a 409 means it changed.
      invalidatesTags: (_a, error, { ID }) => sectionsSavedTags(ID, error),
      onQueryStarted: (args, api) => keepSavedSections(args.ID, api),
    }),
    /**
     * POST footprints (issue 21): the footprints the QS confirmed become buildings of a section, saved by
     * the service in one go; the answer is the report's sections (as a save's).
     */
    confirmFootprints: build.mutation<SectionsAnswer, ConfirmFootprintsBody>({
      query: (body) => ({ url: REPORTBUILDER_API.confirmFootprints, method: 'POST', body }),
      invalidatesTags: (_a, error, { requestID }) => sectionsSavedTags(requestID, error),
      onQueryStarted: (args, api) => keepSavedSections(args.requestID, api),
    }),
    reportDetails: build.query<ReportDetails, string>({
      query: (id) => REPORTBUILDER_API.details(id),
      providesTags: (_a, _e, id) => [reportTag(id)],
      onQueryStarted: trackVersion((id: string) => id),
    }),
    reportTotals: build.query<TotalsAnswer, string>({
      query: (id) => REPORTBUILDER_API.totals(id),
      providesTags: (_a, _e, id) => [reportTag(id), { type: 'Report', id: `${id}:totals` }],
    }),
    reportComments: build.query<CommentsAnswer, string>({
      query: (id) => REPORTBUILDER_API.commentsOf(id),
      providesTags: (_a, _e, id) => [reportTag(id)],
      onQueryStarted: trackVersion((id: string) => id),
    }),
    saveComments: build.mutation<CommentsAnswer, { ID: string; comment: string; version?: number }>({
      query: (body) => ({ url: REPORTBUILDER_API.comments, method: 'POST', body }),
      invalidatesTags: (_a, error, { ID }) => (error?.status === 409 ? [reportTag(ID)] : []),
      onQueryStarted: trackVersion(({ ID }: { ID: string }) => ID),
    }),
    reportNote: build.query<NoteAnswer, string>({
      query: (id) => REPORTBUILDER_API.noteOf(id),
      providesTags: (_a, _e, id) => [reportTag(id)],
      onQueryStarted: trackVersion((id: string) => id),
    }),
    saveNote: build.mutation<NoteAnswer, { ID: string; note: string; version?: number }>({
      query: (body) => ({ url: REPORTBUILDER_API.note, method: 'POST', body }),
      invalidatesTags: (_a, error, { ID }) => (error?.status === 409 ? [reportTag(ID)] : []),
      onQueryStarted: trackVersion(({ ID }: { ID: string }) => ID),
    }),
    /** The extra field's three calls (spec 02 §7.1): each answers the report details. */
    saveExtraField: build.mutation<
      ReportDetails,
      { requestID: string; version?: number } & (
        | { field: 'included'; included: boolean }
        | { field: 'description'; description: string }
        | { field: 'value'; value: string }
      )
    >({
      query: ({ field, ...body }) => ({
        url:
          field === 'included'
            ? REPORTBUILDER_API.extraFieldIncluded
            : field === 'description'
              ? REPORTBUILDER_API.extraFieldDescription
              : REPORTBUILDER_API.extraFieldValue,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_a, error, { requestID }) =>
        error && error.status !== 409
          ? []
          : [{ type: 'Report', id: `${requestID}:totals` }, ...(error ? [reportTag(requestID)] : [])],
      async onQueryStarted(args, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(versionSeen({ requestID: args.requestID, version: data.version }));
          dispatch(reportBuilderApi.util.upsertQueryData('reportDetails', args.requestID, data));
        } catch {
          // Handled by the caller.
        }
      },
    }),
    /** GET requestReportAddressDetails/{id}: what edit-report-address shows. */
    addressDetails: build.query<AddressDetailsAnswer, string>({
      query: (id) => REPORTBUILDER_API.addressDetails(id),
      providesTags: (_a, _e, id) => [reportTag(id)],
      onQueryStarted: trackVersion((id: string) => id),
    }),
    /** POST requestDetails/address: the new location and suburbTownCity (answers the address details). */
    saveAddress: build.mutation<
      AddressDetailsAnswer,
      { requestID: string; addressDetails: { location: string; suburbTownCity: string }; version?: number }
    >({
      query: (body) => ({ url: REPORTBUILDER_API.saveAddress, method: 'POST', body }),
      // The details (the header line, the PDF) changed too; a 409 means the report changed meanwhile.
      invalidatesTags: (_a, error, { requestID }) =>
        error && error.status !== 409 ? [] : [reportTag(requestID)],
      onQueryStarted: trackVersion(({ requestID }: { requestID: string }) => requestID),
    }),
    /** GET report/{id}/savi/south africa/{group}/full: queues the PDF and waits up to 10 s for it. */
    generateReport: build.mutation<GeneratePdfAnswer, { requestID: string; group: string }>({
      query: ({ requestID, group }) => REPORTBUILDER_API.report(requestID, group),
    }),
    /** GET report/{id}/pdf/ready: the PDF job's state, polled while it is not ready. */
    reportReady: build.query<PdfReadyAnswer, string>({
      query: (id) => REPORTBUILDER_API.reportReady(id),
      keepUnusedDataFor: 0,
    }),
    /** GET request/{id}/any: the request with its group and point. */
    reportRequest: build.query<RequestRecord, string>({
      query: (id) => REQUEST_API.any(id),
      providesTags: (_a, _e, id) => [{ type: 'Request', id }],
    }),
    /** The group's rate table (services-admin). */
    groupRates: build.query<RatesAnswer, string>({
      query: (groupID) => ADMIN_API.rates(groupID),
      providesTags: (_a, _e, groupID) => [{ type: 'Rates', id: groupID }],
    }),
    /** Spec 02 §2.3: submit report sends the request to QC check. */
    submitReport: build.mutation<unknown, SubmitBody>({
      query: (body) => ({ url: REQUEST_ADMIN_API.submit, method: 'POST', body }),
      invalidatesTags: (_a, _e, { _id }) => [
        { type: 'Request', id: _id },
        { type: 'Request', id: 'PAGE' },
      ],
    }),
  }),
});

export const {
  useReportSectionsQuery,
  useSaveSectionsMutation,
  useConfirmFootprintsMutation,
  useReportDetailsQuery,
  useReportTotalsQuery,
  useReportCommentsQuery,
  useSaveCommentsMutation,
  useReportNoteQuery,
  useSaveNoteMutation,
  useSaveExtraFieldMutation,
  useReportRequestQuery,
  useGroupRatesQuery,
  useAddressDetailsQuery,
  useSaveAddressMutation,
  useGenerateReportMutation,
  useReportReadyQuery,
  useSubmitReportMutation,
} = reportBuilderApi;

/** A saved report's sections answer: its version is the one now seen, and it is the cached sections. */
async function keepSavedSections(
  requestID: string,
  {
    dispatch,
    queryFulfilled,
  }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: SectionsAnswer }> },
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(versionSeen({ requestID, version: data.version }));
    dispatch(reportBuilderApi.util.upsertQueryData('reportSections', requestID, data));
  } catch {
    // Handled by the caller.
  }
}
