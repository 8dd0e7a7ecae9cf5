import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import {
  footprintNames,
  isBuildingFootprint,
  measuredArea,
  measuredSourceKey,
  shortCaptureDate,
  storeysFromHeight,
  formatMoney,
  type ReportSection,
  type ReportSections,
} from '@portal/domain';
import { useAppDispatch } from '@portal/web-kit';
import { useSurveyBuildingsQuery } from '@portal/web-kit/imagery';
import { useConfirmFootprintsMutation } from '../../../api/reportBuilderApi';
import { MEASURED_TEXT } from '../../../texts';
import { failureMessage, readVersion, type SaveMessage } from '../../../report/useReport';

export interface FootprintOfferProps {
  requestID: string;
  sectionID: string;
  section: ReportSection;
  /** The whole report: a footprint already in it is not offered again. */
  sections: ReportSections;
  point: LatLng;
  /** Read-only report, or edits not saved yet (confirming saves the report as the server has it). */
  disabled: boolean;
  unsaved: boolean;
  onDone: (message: SaveMessage | null) => void;
}

/**
 * 'Building Size Calculation' (issue 21): the buildings on the request's parcel at the newest survey
 * (SURVEY_API.buildings with parcel=true), offered as this section's first buildings — each with its
 * footprint's area as the floor size and its storeys from the height (max(1, round(height / 3))). The QS
 * ticks the ones to keep; nothing is saved until they confirm, and then the service adds them in one save
 * (POST footprints), reading the footprints itself.
 */
export function FootprintOffer({
  requestID,
  sectionID,
  section,
  sections,
  point,
  disabled,
  unsaved,
  onDone,
}: FootprintOfferProps) {
  const dispatch = useAppDispatch();
  const answer = useSurveyBuildingsQuery({ lat: point.lat, lng: point.lng, parcel: true });
  const [confirm, confirmation] = useConfirmFootprintsMutation();
  const [chosen, setChosen] = useState<Set<string>>(new Set());

  const inReport = useMemo(() => {
    const keys = new Set<string>();
    for (const s of Object.values(sections))
      for (const building of s.buildings)
        for (const floor of building.floors) {
          const key = measuredSourceKey(floor.measured);
          if (key) keys.add(key);
        }
    return keys;
  }, [sections]);
  // Pools are on the parcel's survey too, but they are improvements, not floor area.
  const offered = (answer.data?.buildings ?? []).filter(
    (b) => isBuildingFootprint(b.kind) && !inReport.has(`f:${b.buildingId}`),
  );
  const names = footprintNames(
    offered.map((b) => b.kind),
    [...section.buildings, ...section.improvements].map((item) => item.name),
  );

  if (answer.isError) return <Alert severity="warning">{MEASURED_TEXT.footprintsFailed}</Alert>;
  if (!answer.data) return null;
  const survey = answer.data.survey;

  const toggle = (id: string, on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const ids = offered.map((b) => b.buildingId).filter((id) => chosen.has(id));

  const confirmChosen = async () => {
    try {
      await confirm({
        requestID,
        sectionID,
        surveyId: survey.id,
        buildingIds: ids,
        version: dispatch(readVersion(requestID)),
      }).unwrap();
      setChosen(new Set());
      onDone({ severity: 'success', text: MEASURED_TEXT.footprintsAdded(ids.length) });
    } catch (error) {
      onDone(failureMessage(error, 'footprints'));
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={MEASURED_TEXT.footprintsTitle}
      sx={{ p: 2, my: 2, maxWidth: 800 }}
    >
      <Typography variant="h6" component="h2">
        {MEASURED_TEXT.footprintsTitle}
      </Typography>
      {offered.length === 0 ? (
        <Typography color="text.secondary">{MEASURED_TEXT.footprintsNone}</Typography>
      ) : (
        <Stack spacing={1}>
          <Typography variant="body2">
            {MEASURED_TEXT.footprintsIntro(shortCaptureDate(survey.capturedOn))}
          </Typography>
          <FormGroup>
            {offered.map((building, i) => (
              <FormControlLabel
                key={building.buildingId}
                control={
                  <Checkbox
                    checked={chosen.has(building.buildingId)}
                    onChange={(e) => toggle(building.buildingId, e.target.checked)}
                    disabled={disabled}
                  />
                }
                label={MEASURED_TEXT.footprintLine(
                  names[i]!,
                  formatMoney(measuredArea(building.areaM2)),
                  storeysFromHeight(building.heightM),
                )}
              />
            ))}
          </FormGroup>
          {unsaved && (
            <Typography variant="body2" color="warning.main">
              {MEASURED_TEXT.footprintsSaveFirst}
            </Typography>
          )}
          <Button
            variant="contained"
            sx={{ alignSelf: 'flex-start' }}
            disabled={disabled || unsaved || ids.length === 0 || confirmation.isLoading}
            onClick={() => void confirmChosen()}
          >
            {MEASURED_TEXT.confirmFootprints(ids.length)}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
