import {
  AVS_EDITOR_API,
  type AddAddressBody,
  type AddPoiBody,
  type AddressEditAnswer,
  type AddressQualityCode,
  type AvsEditorSettings,
  type DequeueParcelAnswer,
  type DequeueRequestAnswer,
  type DisplayDataAnswer,
  type EditorEditsAnswer,
  type LatLng,
  type ParcelEditAnswer,
  type PoiEditAnswer,
  type PointDataAnswer,
  type ReleaseBody,
  type ResolveCantLocateAnswer,
  type ResolveCantLocateBody,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/** The parcel queues of spec 03 §7, by the name the screen uses. */
export type ParcelQueue = 'multi' | 'empty' | 'validate';
const QUEUE_URL: Record<ParcelQueue, string> = {
  multi: AVS_EDITOR_API.multiParcel,
  empty: AVS_EDITOR_API.noAddressParcel,
  validate: AVS_EDITOR_API.dequeueValidateParcel,
};

/** What the map and the panel show: refetched after every edit (the server's state is the truth). */
const POINT_TAG = { type: 'AvsEditor' as const, id: 'POINT' };

export type AddressAction =
  | { kind: 'official'; addressId: string; version: number }
  | { kind: 'accept' | 'reject'; addressId: string; version: number; quality: AddressQualityCode };
export type ParcelAction =
  | { kind: 'investigate' | 'unaddressable' | 'reviewed'; parcelId: string; version: number }
  | { kind: 'validate'; parcelId: string; version: number; parcelTypeId: number };

const addressUrl = (action: AddressAction) =>
  action.kind === 'official'
    ? AVS_EDITOR_API.official(action.addressId)
    : action.kind === 'accept'
      ? AVS_EDITOR_API.accept(action.addressId)
      : AVS_EDITOR_API.reject(action.addressId);
const parcelUrl: Record<ParcelAction['kind'], (id: string) => string> = {
  investigate: AVS_EDITOR_API.investigate,
  unaddressable: AVS_EDITOR_API.unaddressable,
  reviewed: AVS_EDITOR_API.reviewed,
  validate: AVS_EDITOR_API.validateParcel,
};

/** The address editor's calls (spec 03 §7 and the popup's, services/avs-editor). */
export const editorApi = baseApi.enhanceEndpoints({ addTagTypes: ['AvsEditor'] }).injectEndpoints({
  endpoints: (build) => ({
    editorSettings: build.query<AvsEditorSettings, void>({ query: () => AVS_EDITOR_API.settings }),
    displayData: build.query<DisplayDataAnswer, LatLng>({
      query: ({ lat, lng }) => AVS_EDITOR_API.displayData(lat, lng),
      providesTags: [POINT_TAG],
    }),
    pointData: build.query<PointDataAnswer, LatLng>({
      query: ({ lat, lng }) => AVS_EDITOR_API.pointData(lat, lng),
      providesTags: [POINT_TAG],
    }),
    parcelEdits: build.query<EditorEditsAnswer, string>({
      query: (parcelId) => AVS_EDITOR_API.edits(parcelId),
      providesTags: [POINT_TAG],
    }),
    /** Taking from a queue changes the server's state: a mutation, never served from a cache. */
    dequeueParcel: build.mutation<DequeueParcelAnswer, { queue: ParcelQueue; skip?: string }>({
      query: ({ queue, skip }) => ({ url: QUEUE_URL[queue], params: skip ? { skip } : undefined }),
      invalidatesTags: [POINT_TAG],
    }),
    dequeueCantLocate: build.mutation<DequeueRequestAnswer, { skip?: string }>({
      query: ({ skip }) => ({ url: AVS_EDITOR_API.cantLocate, params: skip ? { skip } : undefined }),
    }),
    release: build.mutation<{ success: boolean }, ReleaseBody>({
      query: (body) => ({ url: AVS_EDITOR_API.release, method: 'POST', body }),
      invalidatesTags: [POINT_TAG],
    }),
    addressAction: build.mutation<AddressEditAnswer, AddressAction>({
      query: (action) => ({
        url: addressUrl(action),
        method: 'POST',
        body:
          action.kind === 'official'
            ? { version: action.version }
            : { version: action.version, quality: action.quality },
      }),
      invalidatesTags: [POINT_TAG],
    }),
    parcelAction: build.mutation<ParcelEditAnswer, ParcelAction>({
      query: (action) => ({
        url: parcelUrl[action.kind](action.parcelId),
        method: 'POST',
        body:
          action.kind === 'validate'
            ? { version: action.version, parcelTypeId: action.parcelTypeId }
            : { version: action.version },
      }),
      invalidatesTags: [POINT_TAG],
    }),
    addAddress: build.mutation<AddressEditAnswer, AddAddressBody>({
      query: (body) => ({ url: AVS_EDITOR_API.addAddress, method: 'POST', body }),
      invalidatesTags: [POINT_TAG],
    }),
    addPoi: build.mutation<PoiEditAnswer, AddPoiBody>({
      query: (body) => ({ url: AVS_EDITOR_API.addPoi, method: 'POST', body }),
      invalidatesTags: [POINT_TAG],
    }),
    detachPoi: build.mutation<PoiEditAnswer, { poiId: string; version: number }>({
      query: ({ poiId, version }) => ({
        url: AVS_EDITOR_API.detachPoi(poiId),
        method: 'POST',
        body: { version },
      }),
      invalidatesTags: [POINT_TAG],
    }),
    resolveCantLocate: build.mutation<ResolveCantLocateAnswer, { requestId: string } & ResolveCantLocateBody>(
      {
        query: ({ requestId, ...body }) => ({
          url: AVS_EDITOR_API.resolveCantLocate(requestId),
          method: 'POST',
          body,
        }),
        invalidatesTags: [POINT_TAG],
      },
    ),
  }),
});

export const {
  useEditorSettingsQuery,
  useDisplayDataQuery,
  usePointDataQuery,
  useParcelEditsQuery,
  useDequeueParcelMutation,
  useDequeueCantLocateMutation,
  useReleaseMutation,
  useAddressActionMutation,
  useParcelActionMutation,
  useAddAddressMutation,
  useAddPoiMutation,
  useDetachPoiMutation,
  useResolveCantLocateMutation,
} = editorApi;
