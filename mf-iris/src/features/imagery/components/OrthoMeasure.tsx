import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import { useCurrentUser } from '@portal/web-kit';
import {
  MeasurementList,
  OrthoSurveyMap,
  toMeasurementInput,
  useCreateMeasurementMutation,
  type MeasurementDraft,
} from '@portal/web-kit/imagery';
import { TEXT } from '../../../texts';
import { maySaveMeasurements } from '../measurementAccess';

type Draft = MeasurementDraft & { key: string };

/**
 * Measuring on the ortho of the survey shown (issue 21): web-kit's OrthoSurveyMap with its tools
 * (distance, length, area; snapping to the parcel and building edges; capture date printed). IRiS has no
 * measurements of its own: what is measured is listed with the request's saved measurements; the
 * operations team may save it against the report's request (POST …/request/{id}/measurements), a client
 * measures for viewing only.
 */
export function OrthoMeasure({
  requestId,
  point,
  surveyId,
}: {
  requestId: string;
  point: LatLng;
  surveyId: number | null;
}) {
  const { user } = useCurrentUser();
  const maySave = maySaveMeasurements(user?.roles);
  const [create, creation] = useCreateMeasurementMutation();
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [failed, setFailed] = useState(false);

  const onMeasured = (draft: Draft) =>
    setDrafts((previous) =>
      previous.some((item) => item.key === draft.key)
        ? previous.map((item) => (item.key === draft.key ? draft : item))
        : [...previous, draft],
    );
  const discard = (key: string) => setDrafts((previous) => previous.filter((item) => item.key !== key));
  /** Saves the drafts one by one; each saved leaves the drafts (the saved list shows it from the service). */
  const saveAll = async () => {
    setFailed(false);
    for (const draft of drafts) {
      try {
        await create({ requestId, measurement: toMeasurementInput(draft) }).unwrap();
        discard(draft.key);
      } catch (error) {
        console.error('[iris] measurement not saved', error);
        setFailed(true);
        return;
      }
    }
  };

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {TEXT.measureIntro}
      </Typography>
      <OrthoSurveyMap point={point} surveyId={surveyId} measure onMeasured={onMeasured} />
      {!maySave && (
        <Typography variant="body2" color="text.secondary" data-testid="measure-view-only">
          {TEXT.measureViewOnly}
        </Typography>
      )}
      <MeasurementList requestId={requestId} drafts={drafts} onDelete={discard} canDeleteSaved={maySave} />
      {maySave && drafts.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button
            variant="contained"
            size="small"
            disabled={creation.isLoading}
            onClick={() => void saveAll()}
          >
            {creation.isLoading ? TEXT.measureSaving : TEXT.measureSave}
          </Button>
        </Stack>
      )}
      {failed && <Alert severity="warning">{TEXT.measureSaveFailed}</Alert>}
    </Stack>
  );
}
