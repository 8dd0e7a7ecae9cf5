import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LatLng, Orientation } from '@portal/contracts';
import {
  CaptureDate,
  COMPARE_TEXT,
  ImageryCompare,
  SurveyTimeline,
  useImageUrlQuery,
} from '@portal/web-kit/imagery';
import { usePasteImageMutation, type StoredImageAnswer } from '../../../api/imagesApi';
import { IMAGERY_VIEWS, MEASURED_TEXT } from '../../../texts';

/** A fetched picture as a data: URL (what POST image takes), without FileReader (any fetch's body). */
async function pictureDataUrl(url: string): Promise<string> {
  const answer = await fetch(new Request(new URL(url, window.location.href), { credentials: 'include' }));
  if (!answer.ok) throw new Error(`The picture could not be fetched (${answer.status}).`);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const type = (answer.headers.get('content-type') ?? 'image/jpeg').split(';')[0]!.trim();
  return `data:${type};base64,${btoa(binary)}`;
}

export interface ImageryCaptureProps {
  requestID: string;
  /** The target's type (POST image's `type`: property, section/{n}, …). */
  type: string;
  point: LatLng;
  disabled: boolean;
  /** Runs the capture (the page's busy state and failure message). */
  run: (what: string, action: () => Promise<void>) => Promise<void>;
  /** The picture is now the target's base image: crop it. */
  onCaptured: (answer: StoredImageAnswer) => void;
}

/**
 * Capture from the portal's imagery (issue 21): the surveys at the request's point (SurveyTimeline), a view
 * (ortho or an oblique), the picture with its capture date printed on it, and 'Use this picture', which
 * sends it as the target's base image with its survey (POST image `surveyId`): the service keeps the
 * survey's capture date with the image and its crop, and the report's PDF prints it.
 */
export function ImageryCapture({ requestID, type, point, disabled, run, onCaptured }: ImageryCaptureProps) {
  const [surveyId, setSurveyId] = useState<number | null>(null);
  const [view, setView] = useState<Orientation>('o');
  const [comparing, setComparing] = useState(false);
  const [paste] = usePasteImageMutation();
  const picture = useImageUrlQuery({
    lat: point.lat,
    lng: point.lng,
    orientation: view,
    ...(surveyId !== null ? { survey: surveyId } : {}),
  });
  const answer = picture.data;
  const url = answer?.url ?? null;
  const shownSurvey = answer?.surveyId ?? null;

  const capture = () =>
    run('imagery picture', async () => {
      if (!url || shownSurvey === null) return;
      const base64Data = await pictureDataUrl(url);
      onCaptured(await paste({ requestID, base64Data, type, surveyId: shownSurvey }).unwrap());
    });

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={MEASURED_TEXT.imageryTitle}
      sx={{ p: 2, mb: 2, maxWidth: 800 }}
    >
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2">
          {MEASURED_TEXT.imageryTitle}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {MEASURED_TEXT.imageryIntro}
        </Typography>
        <SurveyTimeline point={point} value={surveyId} onChange={(survey) => setSurveyId(survey.id)} />
        {/* Before capturing: what changed between two surveys, side by side or swiped, outlined and listed. */}
        <Button
          size="small"
          sx={{ alignSelf: 'flex-start' }}
          aria-expanded={comparing}
          onClick={() => setComparing((open) => !open)}
        >
          {comparing ? MEASURED_TEXT.closeCompare : COMPARE_TEXT.title}
        </Button>
        {comparing && <ImageryCompare point={point} height={300} />}
        <TextField
          select
          label={MEASURED_TEXT.imageryView}
          value={view}
          onChange={(e) => setView(e.target.value as Orientation)}
          sx={{ maxWidth: 260 }}
        >
          {IMAGERY_VIEWS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
        {url ? (
          <Box sx={{ position: 'relative', maxWidth: 716 }}>
            <Box
              component="img"
              src={url}
              alt={IMAGERY_VIEWS.find((option) => option.value === view)?.label ?? ''}
              sx={{ width: '100%', display: 'block' }}
            />
            <CaptureDate capturedOn={answer?.capturedOn} overlay />
          </Box>
        ) : (
          picture.isSuccess && (
            <Typography variant="body2" color="text.secondary">
              {MEASURED_TEXT.imageryNone}
            </Typography>
          )
        )}
        <Button
          variant="outlined"
          sx={{ alignSelf: 'flex-start' }}
          disabled={disabled || !url || shownSurvey === null}
          onClick={() => void capture()}
        >
          {MEASURED_TEXT.takeImagery}
        </Button>
      </Stack>
    </Paper>
  );
}
