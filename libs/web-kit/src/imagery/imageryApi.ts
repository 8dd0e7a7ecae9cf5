import {
  MEASUREMENT_API,
  SURVEY_API,
  type BuildingsAnswer,
  type ChangesAnswer,
  type MeasurementAnswer,
  type MeasurementInput,
  type MeasurementsAnswer,
  type SurveysAnswer,
} from '@portal/contracts';
// Through the package, not '../api/baseApi': this subpath is bundled into each remote that uses it, and
// must inject into the one api of the shared web-kit singleton.
import { baseApi } from '@portal/web-kit';

export interface PointArgs {
  lat: number;
  lng: number;
}

export interface ChangesArgs extends PointArgs {
  /** The earlier survey's id. */
  from: number;
  /** The later survey's id. */
  to: number;
}

export interface SurveyBuildingsArgs extends PointArgs {
  /** The survey whose capture date decides what stood (the newest at the point without). */
  survey?: number;
  /** Only the buildings on the point's parcel. */
  parcel?: boolean;
}

export interface CreateMeasurementArgs {
  requestId: string;
  measurement: MeasurementInput;
}

export interface DeleteMeasurementArgs {
  requestId: string;
  measurementId: string;
}

/** The query string of a buildings call: `parcel=true` only when asked (the service reads a boolean). */
function buildingsParams({ lat, lng, survey, parcel }: SurveyBuildingsArgs) {
  return {
    lat,
    lng,
    ...(survey !== undefined ? { survey } : {}),
    ...(parcel ? { parcel: true } : {}),
  };
}

/**
 * Dated imagery and measurements (issue 21): the surveys at a point, the buildings that changed between
 * two of them, the footprints standing at a survey's date (for snapping and first buildings), and a
 * request's measurements. The survey picture itself is the locator kit's `imageUrl` call with `survey`
 * (`useImageUrlQuery`, re-exported by this subpath). Every remote that uses the imagery kit carries its own
 * copy of this module and injects the same definitions (`overrideExisting`, as locatorSearchApi).
 */
export const imageryApi = baseApi.enhanceEndpoints({ addTagTypes: ['Measurement'] }).injectEndpoints({
  overrideExisting: true,
  endpoints: (build) => ({
    surveys: build.query<SurveysAnswer, PointArgs>({
      query: ({ lat, lng }) => ({ url: SURVEY_API.surveys, params: { lat, lng } }),
    }),
    changes: build.query<ChangesAnswer, ChangesArgs>({
      query: (params) => ({ url: SURVEY_API.changes, params }),
    }),
    surveyBuildings: build.query<BuildingsAnswer, SurveyBuildingsArgs>({
      query: (args) => ({ url: SURVEY_API.buildings, params: buildingsParams(args) }),
    }),
    measurements: build.query<MeasurementsAnswer, string>({
      query: (requestId) => ({ url: MEASUREMENT_API.list(requestId) }),
      providesTags: (_answer, _error, requestId) => [{ type: 'Measurement', id: requestId }],
    }),
    createMeasurement: build.mutation<MeasurementAnswer, CreateMeasurementArgs>({
      query: ({ requestId, measurement }) => ({
        url: MEASUREMENT_API.list(requestId),
        method: 'POST',
        body: measurement,
      }),
      invalidatesTags: (_answer, _error, { requestId }) => [{ type: 'Measurement', id: requestId }],
    }),
    deleteMeasurement: build.mutation<{ success: boolean }, DeleteMeasurementArgs>({
      query: ({ requestId, measurementId }) => ({
        url: MEASUREMENT_API.one(requestId, measurementId),
        method: 'DELETE',
      }),
      invalidatesTags: (_answer, _error, { requestId }) => [{ type: 'Measurement', id: requestId }],
    }),
  }),
});

export const {
  useSurveysQuery,
  useLazySurveysQuery,
  useChangesQuery,
  useLazyChangesQuery,
  useSurveyBuildingsQuery,
  useLazySurveyBuildingsQuery,
  useMeasurementsQuery,
  useCreateMeasurementMutation,
  useDeleteMeasurementMutation,
} = imageryApi;
