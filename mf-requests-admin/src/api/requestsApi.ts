import {
  REPORTBUILDER_API,
  REQUEST_ADMIN_API,
  REQUEST_API,
  SURVEY_API,
  type ChangesAnswer,
  type ChangesQuery,
  type SurveysAnswer,
  type SurveysQuery,
  type RequestRecord,
  type BulkChangeAnswer,
  type ClientReferencesAnswer,
  type ConsoleJob,
  type NearAnswer,
  type RequestChangeAnswer,
  type RequestConsoleSettings,
  type RequestHistoryAnswer,
  type RequestPagerAnswer,
  type RequestRow,
  type RequestStatusCountsAnswer,
  type SavedView,
  type SavedViewsAnswer,
  type VersionsAnswer,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/** What the pager and the counts are asked: page (1-based, as the service counts), size, sort, filters. */
export interface PagerParams {
  page: number;
  limit: number;
  sort?: Record<string, 1 | -1>;
  filters: Record<string, string>;
}

const pagerQuery = ({ page, limit, sort, filters }: PagerParams) => {
  const params: Record<string, string> = { page: String(page), limit: String(limit) };
  for (const [name, value] of Object.entries(filters)) if (value !== '') params[name] = value;
  if (sort && Object.keys(sort).length > 0) params.sort_object = JSON.stringify(sort);
  return params;
};

/** The inline edits of the console grid: each field its own call (spec 02 §7.2). */
export type InlineEdit =
  | { kind: 'priority'; id: string; version: number; priority: boolean }
  | { kind: 'status'; id: string; version: number; status: string }
  | { kind: 'propertyType'; id: string; version: number; propertyType: string }
  | { kind: 'numberOfBuildings'; id: string; version: number; numberOfBuildings: number }
  | { kind: 'unitPrice'; id: string; version: number; unitPrice: number };

function inlineEditCall(edit: InlineEdit) {
  switch (edit.kind) {
    case 'priority':
      return {
        url: REQUEST_ADMIN_API.priority,
        body: { id: edit.id, priority: edit.priority, version: edit.version },
      };
    case 'status':
      return {
        url: REQUEST_ADMIN_API.updateStatus,
        body: { _id: edit.id, status: edit.status, version: edit.version },
      };
    case 'propertyType':
      return {
        url: REQUEST_ADMIN_API.propertyType,
        body: { id: edit.id, propertyType: edit.propertyType, version: edit.version },
      };
    case 'numberOfBuildings':
      return {
        url: REQUEST_ADMIN_API.numberOfBuildings,
        body: { id: edit.id, numberOfBuildings: edit.numberOfBuildings, version: edit.version },
      };
    case 'unitPrice':
      return {
        url: REQUEST_ADMIN_API.unitPrice,
        body: { id: edit.id, unitPrice: edit.unitPrice, version: edit.version },
      };
  }
}

const PAGE_TAG = { type: 'Request' as const, id: 'PAGE' };

/** The request queue's calls (spec 02 §7.2, spec 03 §7). A change refreshes the pages and the counts. */
export const requestsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    requestPage: build.query<RequestPagerAnswer, PagerParams>({
      query: (params) => ({ url: REQUEST_ADMIN_API.pager, params: pagerQuery(params) }),
      providesTags: [PAGE_TAG],
    }),
    statusCounts: build.query<RequestStatusCountsAnswer, Record<string, string>>({
      query: (filters) => ({
        url: REQUEST_ADMIN_API.statusCounts,
        params: Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '')),
      }),
      providesTags: [PAGE_TAG],
    }),
    /** GET request/{id}/any: the request as it was logged (the checklists' heading). */
    requestRecord: build.query<RequestRecord, string>({
      query: (id) => REQUEST_API.any(id),
      providesTags: (_answer, _error, id) => [{ type: 'Request', id }],
    }),
    consoleSettings: build.query<RequestConsoleSettings, void>({
      query: () => REQUEST_ADMIN_API.settings,
    }),
    requestHistory: build.query<RequestHistoryAnswer, string>({
      query: (id) => REQUEST_ADMIN_API.history(id),
      providesTags: (_answer, _error, id) => [{ type: 'Request', id }],
    }),
    clientReferences: build.query<ClientReferencesAnswer, string>({
      query: (id) => REQUEST_ADMIN_API.referencesOf(id),
      providesTags: (_answer, _error, id) => [{ type: 'Request', id }],
    }),
    nearRequests: build.query<NearAnswer, { id: string; radius: number }>({
      query: ({ id, radius }) => REQUEST_ADMIN_API.near(id, radius),
    }),
    savedViews: build.query<SavedView[], void>({
      query: () => REQUEST_ADMIN_API.views,
      transformResponse: (answer: SavedViewsAnswer) => answer.views,
      providesTags: [{ type: 'Request', id: 'VIEWS' }],
    }),
    saveView: build.mutation<SavedView[], { name: string; state: Record<string, unknown> }>({
      query: (body) => ({ url: REQUEST_ADMIN_API.views, method: 'POST', body }),
      transformResponse: (answer: SavedViewsAnswer) => answer.views,
      invalidatesTags: [{ type: 'Request', id: 'VIEWS' }],
    }),
    deleteView: build.mutation<void, string>({
      query: (id) => ({ url: REQUEST_ADMIN_API.view(id), method: 'DELETE' }),
      invalidatesTags: [{ type: 'Request', id: 'VIEWS' }],
    }),
    inlineEdit: build.mutation<RequestRow, InlineEdit>({
      query: (edit) => ({ ...inlineEditCall(edit), method: 'POST' }),
      transformResponse: (answer: RequestChangeAnswer) => answer.request,
      invalidatesTags: (_row, _error, edit) => [PAGE_TAG, { type: 'Request', id: edit.id }],
    }),
    /** A call of the workflow (checklists, query, dispute, submit, references): its path and body. */
    changeRequest: build.mutation<RequestRow, { url: string; body: object; id: string }>({
      query: ({ url, body }) => ({ url, method: 'POST', body }),
      transformResponse: (answer: RequestChangeAnswer) => answer.request,
      invalidatesTags: (_row, _error, { id }) => [PAGE_TAG, { type: 'Request', id }],
    }),
    bulkChange: build.mutation<BulkChangeAnswer, { url: string; body: object }>({
      query: ({ url, body }) => ({ url, method: 'POST', body }),
      invalidatesTags: [PAGE_TAG],
    }),
    startExport: build.mutation<ConsoleJob, { requests?: string[]; filters?: Record<string, string> }>({
      query: (body) => ({ url: REQUEST_ADMIN_API.exportToExcel, method: 'POST', body }),
    }),
    startZip: build.mutation<ConsoleJob, string[]>({
      query: (requestids) => ({ url: REQUEST_ADMIN_API.createZip, method: 'POST', body: { requestids } }),
    }),
    consoleJob: build.query<ConsoleJob, string>({
      query: (id) => REQUEST_ADMIN_API.job(id),
    }),
    /** GET reportbuilder/versions/{id} (issue 13 "Beyond the spec"): the report's submitted versions. */
    reportVersions: build.query<VersionsAnswer, string>({
      query: (id) => REPORTBUILDER_API.versions(id),
      providesTags: (_answer, _error, id) => [{ type: 'Request', id }],
    }),
    /** GET imagery/surveys (services/locator, issue 21): the surveys at the request's point, newest first. */
    surveysAt: build.query<SurveysAnswer, SurveysQuery>({
      query: ({ lat, lng }) => ({ url: SURVEY_API.surveys, params: { lat: String(lat), lng: String(lng) } }),
    }),
    /** GET imagery/changes (services/locator): the buildings on the point's parcel that changed between two surveys. */
    imageryChanges: build.query<ChangesAnswer, ChangesQuery>({
      query: ({ lat, lng, from, to }) => ({
        url: SURVEY_API.changes,
        params: { lat: String(lat), lng: String(lng), from: String(from), to: String(to) },
      }),
    }),
  }),
});

export const {
  useRequestPageQuery,
  useStatusCountsQuery,
  useRequestRecordQuery,
  useConsoleSettingsQuery,
  useRequestHistoryQuery,
  useClientReferencesQuery,
  useNearRequestsQuery,
  useSavedViewsQuery,
  useSaveViewMutation,
  useDeleteViewMutation,
  useInlineEditMutation,
  useChangeRequestMutation,
  useBulkChangeMutation,
  useStartExportMutation,
  useStartZipMutation,
  useConsoleJobQuery,
  useReportVersionsQuery,
  useSurveysAtQuery,
  useImageryChangesQuery,
} = requestsApi;
