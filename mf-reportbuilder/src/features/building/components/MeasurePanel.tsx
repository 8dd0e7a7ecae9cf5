import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LatLng, Orientation } from '@portal/contracts';
import {
  MEASURE_TEXT,
  ObliqueHeightTool,
  OrthoSurveyMap,
  SurveyTimeline,
  toMeasurementInput,
  useCreateMeasurementMutation,
  useImageUrlQuery,
  type MeasurementDraft,
} from '@portal/web-kit/imagery';
import { IMAGERY_VIEWS, MEASURED_TEXT } from '../../../texts';

type Draft = MeasurementDraft & { key: string };

const OBLIQUE_VIEWS = IMAGERY_VIEWS.filter((view) => view.value !== 'o');

/**
 * Measuring for the building overview (issue 21), with web-kit's imagery kit: the surveys at the request's
 * point (SurveyTimeline), the chosen survey's ortho with the tools (distance, length, area; OrthoSurveyMap)
 * and a height on one of its obliques (ObliqueHeightTool). What is measured is listed, may be labelled, and
 * is saved against the request (POST …/request/{id}/measurements: staff); the saved ones then appear in the
 * overview's list, ready to be used as a floor size.
 */
export function MeasurePanel({ requestID, point }: { requestID: string; point: LatLng }) {
  const [surveyId, setSurveyId] = useState<number | null>(null);
  const [view, setView] = useState<Orientation>('n');
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [failed, setFailed] = useState(false);
  const [create, creation] = useCreateMeasurementMutation();
  const heights = useRef(0);
  const oblique = useImageUrlQuery({
    lat: point.lat,
    lng: point.lng,
    orientation: view,
    ...(surveyId !== null ? { survey: surveyId } : {}),
  });

  const keep = (draft: Draft) =>
    setDrafts((previous) =>
      previous.some((item) => item.key === draft.key)
        ? previous.map((item) => (item.key === draft.key ? draft : item))
        : [...previous, draft],
    );
  const discard = (key: string) => setDrafts((previous) => previous.filter((item) => item.key !== key));
  const relabel = (key: string, label: string) =>
    setDrafts((previous) => previous.map((item) => (item.key === key ? { ...item, label } : item)));

  /** Saves the drafts one by one; each saved one leaves the list (the overview lists it from the service). */
  const saveAll = async () => {
    setFailed(false);
    for (const draft of drafts) {
      try {
        await create({ requestId: requestID, measurement: toMeasurementInput(draft) }).unwrap();
        discard(draft.key);
      } catch (error) {
        console.error('[reportbuilder] measurement not saved', error);
        setFailed(true);
        return;
      }
    }
  };

  const picture = oblique.data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Typography variant="body2">{MEASURED_TEXT.measureHelp}</Typography>
        <SurveyTimeline point={point} value={surveyId} onChange={(survey) => setSurveyId(survey.id)} />
        <Typography variant="subtitle1" component="h3">
          {MEASURED_TEXT.orthoTitle}
        </Typography>
        <OrthoSurveyMap point={point} surveyId={surveyId} measure onMeasured={keep} height={380} />
        <Typography variant="subtitle1" component="h3">
          {MEASURED_TEXT.obliqueTitle}
        </Typography>
        <TextField
          select
          label={MEASURED_TEXT.orientation}
          value={view}
          onChange={(e) => setView(e.target.value as Orientation)}
          sx={{ maxWidth: 240 }}
        >
          {OBLIQUE_VIEWS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
        {picture?.url && picture.camera ? (
          <ObliqueHeightTool
            key={`${picture.surveyId ?? 'newest'}-${view}`}
            imageUrl={picture.url}
            camera={picture.camera}
            point={point}
            surveyId={picture.surveyId ?? null}
            capturedOn={picture.capturedOn ?? null}
            orientationName={OBLIQUE_VIEWS.find((option) => option.value === view)?.label ?? ''}
            onMeasured={(draft) => {
              heights.current += 1;
              keep({ ...draft, key: `height-${heights.current}` });
            }}
          />
        ) : (
          oblique.isSuccess && (
            <Typography variant="body2" color="text.secondary">
              {MEASURED_TEXT.noOblique}
            </Typography>
          )
        )}
        {drafts.length > 0 && (
          <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {drafts.map((draft) => (
              <Stack component="li" key={draft.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography sx={{ minWidth: 220 }}>
                  {MEASURE_TEXT.kind[draft.kind]}: {draft.text}
                </Typography>
                <TextField
                  size="small"
                  label={MEASURED_TEXT.label}
                  value={draft.label}
                  onChange={(e) => relabel(draft.key, e.target.value)}
                  slotProps={{ htmlInput: { maxLength: 120 } }}
                />
                <IconButton
                  aria-label={`Discard ${draft.label || MEASURE_TEXT.kind[draft.kind]}`}
                  onClick={() => discard(draft.key)}
                >
                  ✕
                </IconButton>
              </Stack>
            ))}
          </Stack>
        )}
        {drafts.length > 0 && (
          <Button
            variant="contained"
            sx={{ alignSelf: 'flex-start' }}
            disabled={creation.isLoading}
            onClick={() => void saveAll()}
          >
            {creation.isLoading ? MEASURED_TEXT.saving : MEASURED_TEXT.saveMeasurements}
          </Button>
        )}
        {failed && <Alert severity="warning">{MEASURED_TEXT.saveFailed}</Alert>}
      </Stack>
    </Paper>
  );
}
