import { useEffect, useState } from 'react';
import { Link, skipToken, useAppDispatch, useNavigate, useSearchParams } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { cropBoxValid, isPastableImage, type CropBox } from '@portal/domain';
import {
  uploadsChanged,
  useCopyImageMutation,
  useCropImageMutation,
  useDeleteImageMutation,
  useImageExistsQuery,
  useImageInfoQuery,
  useImageThumbnailsQuery,
  usePasteImageMutation,
  useRearrangeImagesMutation,
  useUploadImageMutation,
} from '../../../api/imagesApi';
import { useRouteParams } from '../../../report/useRouteParams';
import { failureMessage, type SaveMessage } from '../../../report/useReport';
import { CaptureDate } from '@portal/web-kit/imagery';
import { useReportDetailsQuery } from '../../../api/reportBuilderApi';
import { CropEditor } from '../components/CropEditor';
import { ImageryCapture } from '../components/ImageryCapture';
import { ThumbnailList } from '../components/ThumbnailList';
import { initialCropBox, tooSmallToCrop, type Size } from '../cropGeometry';
import { listenForUploads } from '../imageChannel';
import {
  croppedImageUrl,
  imageTargetOf,
  imageUploadHref,
  type ImageScreen,
} from '../../../report/imageTargets';
import { IMAGE_TEXT } from '../imageTexts';

const PARAMS = ['requestID', 'sectionID', 'buildingID', 'improvementID'] as const;
const UPLOAD_TYPES = ['image/png', 'image/jpeg'];

/** The picture being cropped: a pasted base image or an upload (its size once known). */
interface Source {
  name: string;
  url: string;
  size: Size | null;
}

/** A Blob as a data: URL (what POST image takes). */
const dataUrlOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The picture could not be read.'));
    reader.readAsDataURL(blob);
  });

/**
 * Spec 02 §2.1, §4.4, §5 image capture, one screen for every target (property, section, building, floor,
 * a building's or a section's improvement): paste a PNG, upload a file or pick an earlier upload, crop
 * (ratio 2, at least 640 × 400, inside the image), save (POST image/crop), then back to the parent overview.
 * The target's current image can be deleted (property, section, building) or copied from its parent.
 * Issue 21: or capture a survey's picture from the portal's imagery (ImageryCapture: the survey timeline,
 * ortho or oblique), which keeps its capture date — printed under the current image and in the PDF.
 */
export function ImageCapturePage({ screen }: { screen: ImageScreen }) {
  const params = useRouteParams(PARAMS);
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const requestID = params.requestID;
  const target = requestID
    ? imageTargetOf(screen, { ...params, requestID, floorID: query.get('floorID') })
    : null;

  const exists = useImageExistsQuery(target?.exists ?? skipToken);
  // Issue 21: the survey the current image was captured from, and the point whose imagery may be captured.
  const info = useImageInfoQuery(target?.exists ?? skipToken);
  const point = useReportDetailsQuery(requestID ?? skipToken).data?.coordinates ?? null;
  const thumbnails = useImageThumbnailsQuery(requestID ?? skipToken);
  const [pasteImage] = usePasteImageMutation();
  const [uploadImage] = useUploadImageMutation();
  const [cropImage] = useCropImageMutation();
  const [copyImage] = useCopyImageMutation();
  const [rearrange] = useRearrangeImagesMutation();
  const [deleteImage] = useDeleteImageMutation();
  const [source, setSource] = useState<Source | null>(null);
  const [box, setBox] = useState<CropBox | null>(null);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [busy, setBusy] = useState(false);

  // Another window's uploads (image-upload) refresh the thumbnails.
  useEffect(
    () => (requestID ? listenForUploads(requestID, () => dispatch(uploadsChanged(requestID))) : undefined),
    [requestID, dispatch],
  );

  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
    } catch (error) {
      setMessage(failureMessage(error, what) ?? { severity: 'error', text: IMAGE_TEXT.failed });
    } finally {
      setBusy(false);
    }
  };

  const use = (next: Source) => {
    setSource(next);
    setBox(next.size ? initialCropBox(next.size) : null);
  };
  const sized = (size: Size) => {
    setSource((s) => (s ? { ...s, size } : s));
    setBox(initialCropBox(size));
  };

  // Spec 02 §5: the clipboard gives PNGs only.
  useEffect(() => {
    if (!target || !requestID) return;
    const onPaste = (event: ClipboardEvent) => {
      const data = event.clipboardData;
      const files = [
        ...Array.from(data?.files ?? []),
        ...Array.from(data?.items ?? [])
          .filter((item) => item.kind === 'file')
          .map((item) => item.getAsFile())
          .filter((f): f is File => f !== null),
      ];
      const file = files[0];
      if (!file) return setMessage({ severity: 'warning', text: IMAGE_TEXT.pasteNothing });
      if (!isPastableImage(file.type)) return setMessage({ severity: 'error', text: IMAGE_TEXT.pasteNotPng });
      event.preventDefault();
      void run('pasted image', async () => {
        const base64Data = await dataUrlOf(file);
        const { image } = await pasteImage({ requestID, base64Data, type: target.type }).unwrap();
        use({ name: image.name, url: image.url, size: { width: image.width, height: image.height } });
      });
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
    // `run` and `use` only set state; the target is described by its type.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestID, target?.type, pasteImage]);

  if (!requestID || !target) return <Alert severity="info">{IMAGE_TEXT.missingTarget}</Alert>;

  const upload = (file: File | undefined) => {
    if (!file) return;
    if (!UPLOAD_TYPES.includes(file.type))
      return setMessage({ severity: 'error', text: IMAGE_TEXT.uploadWrongType });
    void run('upload', async () => {
      const { image } = await uploadImage({ requestID, file }).unwrap();
      use({ name: image.name, url: image.url, size: { width: image.width, height: image.height } });
    });
  };

  const save = () =>
    source &&
    box &&
    run('crop', async () => {
      await cropImage({ requestID, image: source.name, type: target.type, ...box }).unwrap();
      void navigate(target.parentHref);
    });

  const current = exists.data === true;
  const currentUrl = `${croppedImageUrl(requestID, target.stem)}?v=${exists.fulfilledTimeStamp ?? 0}`;
  const size = source?.size ?? null;

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {target.title}
      </Typography>
      <Link to={target.parentHref}>Back to the overview</Link>
      {message && (
        <Alert severity={message.severity} sx={{ my: 1 }}>
          {message.text}
          {message.messages
            ?.filter((m) => m !== message.text)
            .map((m) => (
              <div key={m}>{m}</div>
            ))}
        </Alert>
      )}

      <Stack direction="row" spacing={1} sx={{ my: 2, flexWrap: 'wrap' }} useFlexGap>
        <Button component="label" variant="outlined" disabled={busy}>
          Upload a file
          <input
            hidden
            type="file"
            accept="image/png,image/jpeg"
            aria-label="Image file"
            onChange={(e) => {
              upload(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </Button>
        <Button
          variant="outlined"
          onClick={() =>
            window.open(imageUploadHref(requestID), 'reportbuilder-image-upload', 'width=900,height=700')
          }
        >
          Upload several (new window)
        </Button>
        {target.copy && (
          <Button
            variant="outlined"
            disabled={busy}
            onClick={() =>
              run('copy', async () => {
                const { sectionID, buildingID } = target.copy!;
                await copyImage({
                  requestID,
                  sectionID,
                  ...(buildingID !== undefined ? { buildingID } : {}),
                }).unwrap();
                setMessage({ severity: 'success', text: IMAGE_TEXT.copied });
              })
            }
          >
            {target.copy.label}
          </Button>
        )}
      </Stack>

      <Paper variant="outlined" aria-label="Current image" sx={{ p: 1, mb: 2, maxWidth: 716 }}>
        {current ? (
          <Stack spacing={1}>
            <Box
              component="img"
              src={currentUrl}
              alt={`Current ${target.title.toLowerCase()}`}
              sx={{ width: '100%' }}
            />
            {info.data?.imagery && <CaptureDate capturedOn={info.data.imagery.capturedOn} />}
            {target.remove && (
              <Button
                color="error"
                disabled={busy}
                onClick={() =>
                  run('delete', async () => {
                    await deleteImage({ requestID, ...target.remove! }).unwrap();
                    setMessage({ severity: 'success', text: IMAGE_TEXT.deleted });
                  })
                }
              >
                Delete image
              </Button>
            )}
          </Stack>
        ) : (
          <Typography color="text.secondary">{IMAGE_TEXT.noImage}</Typography>
        )}
      </Paper>

      {point && (
        <ImageryCapture
          requestID={requestID}
          type={target.type}
          point={point}
          disabled={busy}
          run={run}
          onCaptured={({ image }) =>
            use({ name: image.name, url: image.url, size: { width: image.width, height: image.height } })
          }
        />
      )}

      <Paper variant="outlined" aria-label="Paste area" tabIndex={0} sx={{ p: 2, mb: 2, maxWidth: 800 }}>
        {!source && <Typography color="text.secondary">{IMAGE_TEXT.pasteHint}</Typography>}
        {source && !size && (
          // The size of an earlier upload is known once its picture has loaded.
          <Box
            component="img"
            src={source.url}
            alt="Loading the image"
            sx={{ maxWidth: '100%' }}
            onLoad={(e: React.SyntheticEvent<HTMLImageElement>) =>
              sized({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })
            }
          />
        )}
        {source && size && tooSmallToCrop(size) && <Alert severity="error">{IMAGE_TEXT.tooSmall}</Alert>}
        {source && size && box && <CropEditor src={source.url} image={size} box={box} onChange={setBox} />}
        {source && size && box && (
          <Button
            variant="contained"
            sx={{ mt: 1 }}
            disabled={busy || !cropBoxValid(box, size)}
            onClick={() => void save()}
          >
            Crop and save
          </Button>
        )}
      </Paper>

      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          Earlier uploads
        </Typography>
        <Button onClick={() => void thumbnails.refetch()}>Refresh</Button>
      </Stack>
      <ThumbnailList
        images={thumbnails.data?.images ?? []}
        disabled={busy}
        onPick={(image) => use({ name: image.name, url: image.url, size: null })}
        onMove={(sourceIndex, destinationIndex) =>
          void run('rearrange', async () => {
            await rearrange({ requestID, sourceIndex, destinationIndex }).unwrap();
          })
        }
      />
    </Box>
  );
}

export const PropertyImagePage = () => <ImageCapturePage screen="property" />;
export const SectionImagePage = () => <ImageCapturePage screen="section" />;
export const BuildingImagePage = () => <ImageCapturePage screen="building" />;
export const FloorImagePage = () => <ImageCapturePage screen="floor" />;
export const BuildingImprovementImagePage = () => <ImageCapturePage screen="buildingImprovement" />;
export const SectionImprovementImagePage = () => <ImageCapturePage screen="sectionImprovement" />;
