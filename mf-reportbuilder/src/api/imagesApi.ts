import {
  REPORTBUILDER_API,
  type CopyImageBody,
  type CropImageBody,
  type ImageBody,
  type ImageImagery,
  type ImageInfoAnswer,
  type RearrangeImagesBody,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/** An image the service stored (POST image, POST upload, POST image/crop answer these). */
export interface StoredImage {
  name: string;
  url: string;
  width: number;
  height: number;
}
export interface StoredImageAnswer {
  success: boolean;
  image: StoredImage;
  /** Issue 21: the survey a picture captured from the imagery came from (null or absent otherwise). */
  imagery?: ImageImagery | null;
}
export interface CropAnswer extends StoredImageAnswer {
  compressed: StoredImage;
}
/** GET image/thumbnails/{requestID} and POST image/rearrange: the uploads in their order. */
export interface ThumbnailsAnswer {
  requestID: string;
  images: { index: number; name: string; url: string; thumbnail: string }[];
}
/** GET image/{requestID}/{type}/{first}/{second}/{third}: unused parts are '-'. */
export interface ImageExistsArgs {
  requestID: string;
  type: string;
  first: string;
  second: string;
  third: string;
}

/** A target's images (the exists answers) and a request's uploads (the thumbnails) as cache tags. */
const imagesTag = (requestID: string) => ({ type: 'Report' as const, id: `${requestID}:images` });
const uploadsTag = (requestID: string) => ({ type: 'Report' as const, id: `${requestID}:uploads` });

/** The image calls of spec 02 §7.1 (services/reportbuilder "Images"). */
export const imagesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    imageExists: build.query<boolean, ImageExistsArgs>({
      query: ({ requestID, type, first, second, third }) =>
        REPORTBUILDER_API.imageExists(requestID, type, first, second, third),
      transformResponse: (answer: unknown) => answer === true || answer === 'true',
      providesTags: (_a, _e, { requestID }) => [imagesTag(requestID)],
    }),
    /** Issue 21: whether the target's crop exists and the survey it was captured from. */
    imageInfo: build.query<ImageInfoAnswer, ImageExistsArgs>({
      query: ({ requestID, type, first, second, third }) =>
        REPORTBUILDER_API.imageInfo(requestID, type, first, second, third),
      providesTags: (_a, _e, { requestID }) => [imagesTag(requestID)],
    }),
    imageThumbnails: build.query<ThumbnailsAnswer, string>({
      query: (requestID) => REPORTBUILDER_API.thumbnails(requestID),
      providesTags: (_a, _e, requestID) => [uploadsTag(requestID)],
    }),
    /**
     * A pasted PNG (a data: URL) becomes the target's base image; with `surveyId`, a picture of the portal's
     * imagery (JPEG or PNG) that keeps the survey's capture date.
     */
    pasteImage: build.mutation<StoredImageAnswer, ImageBody>({
      query: (body) => ({ url: REPORTBUILDER_API.image, method: 'POST', body }),
    }),
    /** One file, multipart `requestID` then `file`. */
    uploadImage: build.mutation<StoredImageAnswer, { requestID: string; file: Blob; fileName?: string }>({
      query: ({ requestID, file, fileName }) => {
        const form = new FormData();
        form.append('requestID', requestID);
        form.append('file', file, fileName ?? (file as File).name ?? 'image');
        return { url: REPORTBUILDER_API.upload, method: 'POST', body: form };
      },
      invalidatesTags: (_a, error, { requestID }) => (error ? [] : [uploadsTag(requestID)]),
    }),
    cropImage: build.mutation<CropAnswer, CropImageBody>({
      query: (body) => ({ url: REPORTBUILDER_API.imageCrop, method: 'POST', body }),
      invalidatesTags: (_a, error, { requestID }) => (error ? [] : [imagesTag(requestID)]),
    }),
    copyImage: build.mutation<{ success: boolean; copied: string[] }, CopyImageBody>({
      query: (body) => ({ url: REPORTBUILDER_API.imageCopy, method: 'POST', body }),
      invalidatesTags: (_a, error, { requestID }) => (error ? [] : [imagesTag(requestID)]),
    }),
    rearrangeImages: build.mutation<ThumbnailsAnswer, RearrangeImagesBody>({
      query: (body) => ({ url: REPORTBUILDER_API.imageRearrange, method: 'POST', body }),
      async onQueryStarted({ requestID }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(imagesApi.util.upsertQueryData('imageThumbnails', requestID, data));
        } catch {
          // Handled by the caller.
        }
      },
    }),
    deleteImage: build.mutation<
      { success: boolean; deleted: string[] },
      { requestID: string; sectionID: string; buildingID?: string }
    >({
      query: ({ requestID, sectionID, buildingID }) => ({
        url: REPORTBUILDER_API.deleteImage(requestID, sectionID, buildingID),
        method: 'DELETE',
      }),
      invalidatesTags: (_a, error, { requestID }) => (error ? [] : [imagesTag(requestID)]),
    }),
  }),
});

/** What another window's upload makes stale: the request's thumbnails. */
export const uploadsChanged = (requestID: string) => imagesApi.util.invalidateTags([uploadsTag(requestID)]);

export const {
  useImageExistsQuery,
  useImageInfoQuery,
  useImageThumbnailsQuery,
  usePasteImageMutation,
  useUploadImageMutation,
  useCropImageMutation,
  useCopyImageMutation,
  useRearrangeImagesMutation,
  useDeleteImageMutation,
} = imagesApi;
