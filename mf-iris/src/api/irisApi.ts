import {
  IRIS_API,
  type AerialViewId,
  type CanGenerateAnswer,
  type GenerateAnswer,
  type HighResBody,
  type HighResStatus,
  type IrisCreateAnswer,
  type IrisSettings,
  type ReadyAnswer,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/**
 * The IRiS screen's calls (spec 03 §7 "Requests and IRiS"): the request, the report, the imagery step and
 * the PDF flow. The flow's GETs are asked afresh each time (lazy queries, nothing kept).
 */
export const irisApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    irisSettings: build.query<IrisSettings, void>({
      query: () => IRIS_API.settings,
    }),
    createIrisReport: build.mutation<IrisCreateAnswer, string>({
      query: (requestId) => ({ url: IRIS_API.create, method: 'PUT', body: { requestId } }),
    }),
    canGenerate: build.query<CanGenerateAnswer, string>({
      query: (reportId) => IRIS_API.canGenerate(reportId),
      keepUnusedDataFor: 0,
    }),
    generatePdf: build.query<GenerateAnswer, { reportId: string; requestId: string }>({
      query: ({ reportId, requestId }) => IRIS_API.generate(reportId, requestId),
      keepUnusedDataFor: 0,
    }),
    pdfReady: build.query<ReadyAnswer, string>({
      query: (reportId) => IRIS_API.ready(reportId),
      keepUnusedDataFor: 0,
    }),
    regeneratePdf: build.mutation<GenerateAnswer, string>({
      query: (reportId) => ({ url: IRIS_API.regenerate(reportId), method: 'GET' }),
    }),
    cancelPdf: build.mutation<ReadyAnswer, string>({
      query: (reportId) => ({ url: IRIS_API.cancel(reportId), method: 'GET' }),
    }),
    cleanImagery: build.mutation<{ success: boolean }, string>({
      query: (reportId) => ({ url: IRIS_API.clean(reportId), method: 'GET' }),
    }),
    postHighRes: build.mutation<
      { success: boolean },
      { reportId: string; status: HighResStatus; body: HighResBody }
    >({
      query: ({ reportId, status, body }) => ({
        url: IRIS_API.highres(reportId, status),
        method: 'POST',
        body,
      }),
    }),
    /** The view chosen for the PDF; `survey` (issue 21) names the survey it came from, for its capture date. */
    postAerial: build.mutation<
      { success: boolean },
      { reportId: string; viewId: AerialViewId; image: Blob; survey?: number }
    >({
      query: ({ reportId, viewId, image, survey }) => ({
        url: IRIS_API.aerial(reportId, viewId),
        ...(survey === undefined ? {} : { params: { survey } }),
        method: 'POST',
        body: image,
        headers: { 'content-type': image.type === 'image/png' ? 'image/png' : 'image/jpeg' },
      }),
    }),
  }),
});

export const {
  useIrisSettingsQuery,
  useCreateIrisReportMutation,
  useLazyCanGenerateQuery,
  useLazyGeneratePdfQuery,
  useLazyPdfReadyQuery,
  useRegeneratePdfMutation,
  useCancelPdfMutation,
  useCleanImageryMutation,
  usePostHighResMutation,
  usePostAerialMutation,
} = irisApi;

/** The IRIS request is created with the locator kit's request creation (shared with /savi and /avs). */
export { useCreateRequestMutation as useCreateIrisRequestMutation } from '@portal/web-kit/locator';
