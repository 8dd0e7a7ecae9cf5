import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  formatMoney,
  fromCents,
  improvementNameError,
  improvementValueCents,
  type ReportImprovement,
} from '@portal/domain';
import { Link } from '@portal/web-kit';
import { buildingOverviewHref, leafletPageHref, sectionOverviewHref } from '../../../paths';
import { IMPROVEMENT_AND_REPORT_TEXT, TEXT } from '../../../texts';
import { numberOrNull, rateForSave } from '../../../report/rateOptions';
import { useGroupRates } from '../../../report/useGroupRates';
import { RateChoices } from '../../../components/RateChoices';
import { useRouteParams } from '../../../report/useRouteParams';
import { SaveBar } from '../../../components/SaveBar';
import { useReport, type SaveMessage } from '../../../report/useReport';
import { useUnsavedChanges } from '../../../report/useUnsavedChanges';
import {
  improvementsAt,
  indexOf,
  withImprovement,
  type ImprovementPlace,
} from '../../../report/improvements';

const BUILDING_PARAMS = ['requestID', 'sectionID', 'buildingID', 'improvementID'] as const;
const SECTION_PARAMS = ['requestID', 'sectionID', 'improvementID'] as const;

/** An improvement as it is saved: the name trimmed, a typed rate as a number when it is one. */
const forSave = (i: ReportImprovement): ReportImprovement => ({
  ...i,
  name: i.name.trim(),
  rate: rateForSave(i.rate),
});

/** Spec 02 §2.1 building-improvement-overview (?requestID&sectionID&buildingID&improvementID). */
export function BuildingImprovementOverviewPage() {
  const params = useRouteParams(BUILDING_PARAMS);
  return <ImprovementOverview {...params} inBuilding />;
}

/** Spec 02 §2.1 section-improvement-overview (?requestID&sectionID&improvementID). */
export function SectionImprovementOverviewPage() {
  const params = useRouteParams(SECTION_PARAMS);
  return <ImprovementOverview {...params} buildingID={null} inBuilding={false} />;
}

/**
 * Spec 02 §2.3 improvement overview: the cascading rate dropdowns from the group's rates (a level's change
 * resets those below, §4.4), the name (required, §5), the number of units, the live value (units × rate),
 * save ('Changes to the improvement saved.', §8) and the link to the map that places its marker.
 */
function ImprovementOverview({
  requestID,
  sectionID,
  buildingID,
  improvementID,
  inBuilding,
}: {
  requestID: string | null;
  sectionID: string | null;
  buildingID: string | null;
  improvementID: string | null;
  inBuilding: boolean;
}) {
  const report = useReport(requestID);
  const { rows } = useGroupRates(requestID, report.details);

  const index = indexOf(improvementID);
  const buildingIndex = inBuilding ? indexOf(buildingID) : null;
  const place: ImprovementPlace | null =
    sectionID && (!inBuilding || buildingIndex !== null) ? { sectionID, building: buildingIndex } : null;
  const list = place && report.draft ? improvementsAt(report.draft, place) : undefined;
  const stored = index === null ? undefined : list?.[index];
  const [improvement, setImprovement] = useState<ReportImprovement | null>(null);
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (stored && !edited) setImprovement(stored);
  }, [stored, edited]);
  const [nameError, setNameError] = useState<string | null>(null);
  const [message, setMessage] = useState<SaveMessage | null>(null);

  const save = async (): Promise<boolean> => {
    if (!improvement || !place || index === null || !report.draft) return false;
    const error = improvementNameError(improvement.name);
    setNameError(error);
    if (error) return false;
    const result = await report.save(withImprovement(report.draft, place, index, forSave(improvement)));
    // Saved, or a 409 (the report was reloaded): the screen shows the server's copy again.
    if (result.ok || result.message?.severity === 'warning') setEdited(false);
    setMessage(
      result.ok
        ? { severity: 'success', text: IMPROVEMENT_AND_REPORT_TEXT.improvementSaved }
        : result.message,
    );
    return result.ok;
  };
  const { prompt } = useUnsavedChanges(edited || report.edited, save);

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  if (!sectionID) return <Alert severity="info">{TEXT.missingSection}</Alert>;
  if (!report.draft) return report.sectionsFailed ? null : <LinearProgress aria-label={TEXT.loading} />;
  if (!stored || index === null)
    return <Alert severity="info">{IMPROVEMENT_AND_REPORT_TEXT.missingImprovement}</Alert>;
  if (!improvement) return <LinearProgress aria-label={TEXT.loading} />;
  const readOnly = !report.editable;
  const section = report.draft[sectionID]!;
  const building = buildingIndex === null ? null : section.buildings[buildingIndex];

  const update = (change: Partial<ReportImprovement>) => {
    setImprovement((i) => (i ? { ...i, ...change } : i));
    setEdited(true);
  };
  const value = formatMoney(fromCents(improvementValueCents(improvement)));

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Improvement overview: {stored.name}
      </Typography>
      <Typography color="text.secondary">
        <Link to={sectionOverviewHref(requestID, sectionID)}>Section {section.name}</Link>
        {building && buildingIndex !== null && (
          <>
            {' · '}
            <Link to={buildingOverviewHref(requestID, sectionID, String(buildingIndex))}>
              Building {building.name}
            </Link>
          </>
        )}
        {' · '}
        <Link
          to={leafletPageHref(requestID, sectionID, inBuilding ? String(buildingIndex) : null, String(index))}
        >
          {IMPROVEMENT_AND_REPORT_TEXT.markOnMap}
        </Link>
      </Typography>
      {readOnly && <Alert severity="info">{TEXT.readOnly}</Alert>}
      <SaveBar dirty={edited || report.edited} disabled={readOnly} onSave={save} message={message}>
        <Typography aria-label="Improvement value" data-testid="improvement-value">
          {IMPROVEMENT_AND_REPORT_TEXT.improvementValue}: R {value}
        </Typography>
      </SaveBar>
      <Stack spacing={2} sx={{ maxWidth: 800 }}>
        <TextField
          label={IMPROVEMENT_AND_REPORT_TEXT.improvementName}
          value={improvement.name}
          onChange={(e) => update({ name: e.target.value })}
          error={!!nameError}
          helperText={nameError ?? undefined}
          disabled={readOnly}
        />
        <RateChoices
          item={improvement}
          rows={rows}
          listId="improvement-rate-options"
          onChange={update}
          disabled={readOnly}
        />
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <TextField
            label="Unit"
            value={improvement.unit ?? ''}
            onChange={(e) => update({ unit: e.target.value })}
            disabled={readOnly}
          />
          <TextField
            label="Number of units"
            type="number"
            value={improvement.numberOfUnits ?? ''}
            onChange={(e) => update({ numberOfUnits: numberOrNull(e.target.value) })}
            slotProps={{ htmlInput: { min: 0 } }}
            disabled={readOnly}
          />
        </Stack>
      </Stack>
      {prompt}
    </Box>
  );
}
