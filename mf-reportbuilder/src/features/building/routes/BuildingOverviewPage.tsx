import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  BUILDING_WARNING_MS,
  buildingNameError,
  buildingWarnings,
  CONSTRUCTION_TYPES,
  fitFloors,
  floorWithSize,
  formatMoney,
  measuredFloorText,
  moveBuilding,
  REPORT_BUILDER_ERROR,
  reportTotals,
  type ReportBuilding,
  type ReportFloor,
  type ReportSections,
} from '@portal/domain';
import { Link, useNavigate } from '@portal/web-kit';
import { buildingOverviewHref, sectionOverviewHref } from '../../../paths';
import { TEXT } from '../../../texts';
import { ImprovementsTable } from '../../../components/ImprovementsTable';
import { useRouteParams } from '../../../report/useRouteParams';
import { Choice } from '../../../components/Choice';
import { SaveBar } from '../../../components/SaveBar';
import { useReport, type SaveMessage } from '../../../report/useReport';
import { useUnsavedChanges } from '../../../report/useUnsavedChanges';
import { numberOrNull, rateForSave } from '../../../report/rateOptions';
import { useGroupRates } from '../../../report/useGroupRates';
import { RateChoices } from '../../../components/RateChoices';
import { MEASURED_TEXT } from '../../../texts';
import { BuildingMeasurements } from '../components/BuildingMeasurements';

const PARAMS = ['requestID', 'sectionID', 'buildingID'] as const;

/** A building as it is saved: its floors fitted to their count, a typed rate as a number when it is one. */
const forSave = (b: ReportBuilding): ReportBuilding => ({
  ...b,
  name: b.name.trim(),
  floors: fitFloors(b.floors, b.floors.length),
  rate: rateForSave(b.rate),
});

/**
 * Spec 02 §2.1 building-overview (?requestID&sectionID&buildingID): category, type, class and rate from
 * the group's rates (cascading), construction type, unit, units, floors, slope, group, comment, move to
 * another section, save with the §5 warnings (3 s) and name checks; the building's total live.
 */
export function BuildingOverviewPage() {
  const { requestID, sectionID, buildingID } = useRouteParams(PARAMS);
  const navigate = useNavigate();
  const report = useReport(requestID);
  const { request, rows } = useGroupRates(requestID, report.details);

  const index = Number(buildingID);
  const section = sectionID ? report.draft?.[sectionID] : undefined;
  const stored = Number.isInteger(index) && index >= 0 ? section?.buildings[index] : undefined;
  const [building, setBuilding] = useState<ReportBuilding | null>(null);
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (stored && !edited) setBuilding(stored);
  }, [stored, edited]);

  const [nameError, setNameError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [moveTo, setMoveTo] = useState('');
  useEffect(() => {
    if (warnings.length === 0) return undefined;
    const timer = setTimeout(() => setWarnings([]), BUILDING_WARNING_MS);
    return () => clearTimeout(timer);
  }, [warnings]);

  /** The sections with this building's edits in them. */
  const withEdits = (b: ReportBuilding): ReportSections | null =>
    report.draft && section && sectionID
      ? {
          ...report.draft,
          [sectionID]: { ...section, buildings: section.buildings.map((old, i) => (i === index ? b : old)) },
        }
      : null;

  const save = async (): Promise<boolean> => {
    if (!building || !section) return false;
    const error = buildingNameError(building.name, section, index);
    setNameError(error);
    if (error) return false;
    const toSave = forSave(building);
    const sections = withEdits(toSave);
    if (!sections) return false;
    // Spec 02 §5: the warnings warn, they do not block the save.
    setWarnings(buildingWarnings(toSave));
    const result = await report.save(sections);
    if (result.ok || result.message?.severity === 'warning') setEdited(false);
    setMessage(result.ok ? { severity: 'success', text: TEXT.buildingSaved } : result.message);
    return result.ok;
  };
  const { prompt, markClean } = useUnsavedChanges(edited || report.edited, save);

  const totals = useMemo(
    () =>
      building && section && report.settings
        ? reportTotals({ s: { ...section, buildings: [building], improvements: [] } }, null, report.settings)
            .sections.s?.buildings[0]
        : undefined,
    [building, section, report.settings],
  );

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  if (!sectionID) return <Alert severity="info">{TEXT.missingSection}</Alert>;
  if (!report.draft) return report.sectionsFailed ? null : <LinearProgress aria-label={TEXT.loading} />;
  if (!section || !stored) return <Alert severity="info">{TEXT.missingBuilding}</Alert>;
  if (!building) return <LinearProgress aria-label={TEXT.loading} />;
  const readOnly = !report.editable;

  const update = (change: Partial<ReportBuilding>) => {
    setBuilding((b) => (b ? { ...b, ...change } : b));
    setEdited(true);
  };
  const updateFloor = (i: number, change: Partial<ReportFloor>) =>
    update({ floors: building.floors.map((f, j) => (j === i ? { ...f, ...change } : f)) });

  const move = async () => {
    const current = withEdits(forSave(building));
    if (!current || !moveTo) return;
    const moved = moveBuilding(current, sectionID, index, moveTo);
    if (!moved.ok) {
      if (moved.reason === 'name taken') setNameError(REPORT_BUILDER_ERROR.buildingNameTaken);
      return;
    }
    const result = await report.save(moved.sections);
    if (!result.ok) {
      setMessage(result.message);
      return;
    }
    setEdited(false);
    markClean();
    void navigate(
      buildingOverviewHref(requestID, moveTo, String(moved.sections[moveTo]!.buildings.length - 1)),
    );
  };

  const otherSections = Object.entries(report.draft).filter(([id]) => id !== sectionID);

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Building overview: {stored.name}
      </Typography>
      <Typography color="text.secondary">
        <Link to={sectionOverviewHref(requestID, sectionID)}>Section {section.name}</Link>
      </Typography>
      {readOnly && <Alert severity="info">{TEXT.readOnly}</Alert>}
      <SaveBar dirty={edited || report.edited} disabled={readOnly} onSave={save} message={message}>
        {totals && (
          <Typography aria-label="Building total" data-testid="building-total">
            {totals.area > 0 ? `${totals.area} m² · ` : ''}R {formatMoney(totals.total)}
          </Typography>
        )}
      </SaveBar>
      {warnings.length > 0 && (
        <Alert severity="warning" role="alert" aria-label="Warnings" sx={{ mb: 2 }}>
          {warnings.map((w) => (
            <div key={w}>{w}</div>
          ))}
        </Alert>
      )}
      <Stack spacing={2} sx={{ maxWidth: 800 }}>
        <TextField
          label="Building name"
          value={building.name}
          onChange={(e) => update({ name: e.target.value })}
          error={!!nameError}
          helperText={nameError ?? undefined}
          disabled={readOnly}
        />
        <RateChoices
          item={building}
          rows={rows}
          listId="rate-options"
          onChange={update}
          disabled={readOnly}
        />
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Choice
            label="Construction type"
            value={building.constructionType}
            options={CONSTRUCTION_TYPES}
            onChange={(v) => update({ constructionType: v })}
            disabled={readOnly}
          />
          <TextField
            label="Unit"
            value={building.unit}
            onChange={(e) => update({ unit: e.target.value })}
            disabled={readOnly}
          />
          <TextField
            label="Number of units"
            type="number"
            value={building.numberOfUnits ?? ''}
            onChange={(e) => update({ numberOfUnits: numberOrNull(e.target.value) })}
            disabled={readOnly}
          />
        </Stack>
        <TextField
          label="Number of floors"
          type="number"
          value={building.floors.length}
          onChange={(e) => update({ floors: fitFloors(building.floors, numberOrNull(e.target.value) ?? 0) })}
          slotProps={{ htmlInput: { min: 0, max: 50 } }}
          sx={{ maxWidth: 200 }}
          disabled={readOnly}
        />
        {building.floors.map((floor, i) => {
          // Issue 21: a size measured on the imagery says so (and that it was typed over, when it was).
          const measured = measuredFloorText(floor);
          return (
            <Stack key={i} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <TextField
                label={`Floor ${i + 1} size (m²)`}
                type="number"
                value={floor.size ?? ''}
                onChange={(e) =>
                  update({
                    floors: building.floors.map((f, j) =>
                      j === i ? floorWithSize(f, numberOrNull(e.target.value)) : f,
                    ),
                  })
                }
                helperText={measured ? MEASURED_TEXT.floorMeasured(measured) : undefined}
                disabled={readOnly}
              />
              <FormControlLabel
                control={
                  <Checkbox
                    checked={floor.doubleVolume}
                    onChange={(e) => updateFloor(i, { doubleVolume: e.target.checked })}
                    disabled={readOnly}
                  />
                }
                label={`Floor ${i + 1} double volume`}
              />
              <TextField
                label={`Floor ${i + 1} location`}
                value={floor.location}
                onChange={(e) => updateFloor(i, { location: e.target.value })}
                disabled={readOnly}
              />
            </Stack>
          );
        })}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={building.slope}
                onChange={(e) => update({ slope: e.target.checked })}
                disabled={readOnly}
              />
            }
            label="Slope"
          />
          <TextField
            label="Slope %"
            type="number"
            value={building.slopePercentage ?? ''}
            onChange={(e) => update({ slopePercentage: numberOrNull(e.target.value) })}
            disabled={readOnly || !building.slope}
          />
          <Choice
            label="Group"
            value={building.group}
            options={section.groups.map((g) => g.name)}
            onChange={(v) => update({ group: v })}
            disabled={readOnly}
          />
        </Stack>
        <TextField
          label="Comment"
          multiline
          minRows={2}
          value={building.comment}
          onChange={(e) => update({ comment: e.target.value })}
          disabled={readOnly}
        />
        {otherSections.length > 0 && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Choice
              label="Move to section"
              value={moveTo}
              options={otherSections.map(([id, s]) => ({ value: id, label: s.name }))}
              onChange={setMoveTo}
              disabled={readOnly}
            />
            <Button onClick={move} disabled={readOnly || !moveTo}>
              Move
            </Button>
          </Stack>
        )}
      </Stack>
      <BuildingMeasurements
        requestID={requestID}
        point={report.details?.coordinates ?? request?.coordinates ?? null}
        floors={building.floors}
        disabled={readOnly}
        onFloors={(floors, said) => {
          update({ floors });
          setMessage({ severity: 'success', text: said });
        }}
      />
      <ImprovementsTable
        requestID={requestID}
        sectionID={sectionID}
        buildingID={String(index)}
        improvements={building.improvements}
        point={report.details?.coordinates ?? request?.coordinates}
        disabled={readOnly}
        onChange={(improvements) => update({ improvements })}
      />
      {prompt}
    </Box>
  );
}
