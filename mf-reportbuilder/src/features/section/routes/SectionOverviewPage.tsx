import { useMemo, useState } from 'react';
import { Link, skipToken, useNavigate } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { REQUEST_SUBTYPE } from '@portal/contracts';
import {
  buildingNameError,
  emptyBuilding,
  formatMoney,
  groupNameError,
  nextMarkerNumber,
  removeAndRenumber,
  reportTotals,
  sectionCategory,
  type ReportSection,
} from '@portal/domain';
import { useReportRequestQuery, useSubmitReportMutation } from '../../../api/reportBuilderApi';
import { buildingOverviewHref, PATHS, propertyOverviewHref } from '../../../paths';
import { TEXT } from '../../../texts';
import { useRouteParams } from '../../../report/useRouteParams';
import { MarkedImage } from '../../../components/MarkedImage';
import { SaveBar } from '../../../components/SaveBar';
import { useReport, type SaveMessage } from '../../../report/useReport';
import { useUnsavedChanges } from '../../../report/useUnsavedChanges';
import { ImprovementsTable } from '../../../components/ImprovementsTable';
import { CommentDialog } from '../components/CommentDialog';
import { NameDialog } from '../../../components/NameDialog';
import { FootprintOffer } from '../components/FootprintOffer';

const PARAMS = ['requestID', 'sectionID'] as const;

/**
 * Spec 02 §2.1 section-overview (?requestID&sectionID): the section's buildings with their numbers, the
 * group list, the comment dialog, the include-image toggle, and submit report (to QC check, then
 * /requests/admin, spec 02 §2.3).
 */
export function SectionOverviewPage() {
  const { requestID, sectionID } = useRouteParams(PARAMS);
  const navigate = useNavigate();
  const report = useReport(requestID);
  const request = useReportRequestQuery(requestID ?? skipToken).data;
  const [submitReport] = useSubmitReportMutation();
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [dialog, setDialog] = useState<'building' | 'group' | 'comment' | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const save = async () => {
    const result = await report.save();
    setMessage(result.ok ? { severity: 'success', text: TEXT.saved } : result.message);
    return result.ok;
  };
  const { prompt, markClean } = useUnsavedChanges(report.edited, save);

  const section = sectionID ? report.draft?.[sectionID] : undefined;
  const sectionTotals = useMemo(
    () =>
      section && report.settings ? reportTotals({ s: section }, null, report.settings).sections.s : undefined,
    [section, report.settings],
  );

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  if (!sectionID) return <Alert severity="info">{TEXT.missingSection}</Alert>;
  if (!report.draft) return report.sectionsFailed ? null : <LinearProgress aria-label={TEXT.loading} />;
  if (!section) return <Alert severity="info">{TEXT.missingSection}</Alert>;
  const readOnly = !report.editable;
  const point = report.details?.coordinates ?? request?.coordinates ?? null;

  const change = (update: (section: ReportSection) => ReportSection) =>
    report.edit((sections) =>
      sections[sectionID] ? { ...sections, [sectionID]: update(sections[sectionID]) } : sections,
    );

  const addBuilding = (name: string) => {
    const point = section.marker ?? report.details?.coordinates;
    change((s) => ({
      ...s,
      buildings: [
        ...s.buildings,
        emptyBuilding(
          name,
          point
            ? { lat: point.lat, lng: point.lng, number: nextMarkerNumber(s.buildings), draggable: true }
            : null,
        ),
      ],
    }));
    setDialog(null);
  };

  /** Spec 02 §2.3, §4.2: saves what is unsaved, then sends the request to QC check and goes to the queue. */
  const submit = async () => {
    const point = report.details?.coordinates ?? request?.coordinates ?? null;
    if (!point) {
      console.error('[reportbuilder] submit: the request has no point', requestID);
      return;
    }
    setSubmitting(true);
    try {
      if (report.edited && !(await save())) return;
      await submitReport({ _id: requestID, lat: point.lat, lng: point.lng, status: 'QC check' }).unwrap();
      markClean();
      void navigate(PATHS.requestsAdmin);
    } catch (error) {
      // Spec 02 §8: logged only.
      console.error('[reportbuilder] submit failed', error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Section overview: {section.name}
      </Typography>
      <Typography color="text.secondary">
        {sectionCategory(section.type)} · <Link to={propertyOverviewHref(requestID)}>Property overview</Link>
      </Typography>
      {readOnly && <Alert severity="info">{TEXT.readOnly}</Alert>}
      <SaveBar dirty={report.edited} disabled={readOnly} onSave={save} message={message}>
        <Button onClick={() => setDialog('comment')} disabled={readOnly}>
          Comment
        </Button>
        <FormControlLabel
          control={
            <Switch
              checked={section.includeImage}
              onChange={(e) => change((s) => ({ ...s, includeImage: e.target.checked }))}
              disabled={readOnly}
            />
          }
          label="Include image"
        />
        <Button variant="outlined" color="success" onClick={submit} disabled={readOnly || submitting}>
          {TEXT.submitReport}
        </Button>
      </SaveBar>
      <MarkedImage
        requestID={requestID}
        sectionID={sectionID}
        label="Section image"
        disabled={readOnly}
        items={section.buildings.map((b, i) => ({ key: String(i), name: b.name, marker: b.marker }))}
        onMove={(key, marker) =>
          change((s) => ({
            ...s,
            buildings: s.buildings.map((b, i) => (String(i) === key ? { ...b, marker } : b)),
          }))
        }
      />

      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          Buildings
        </Typography>
        <Button onClick={() => setDialog('building')} disabled={readOnly}>
          Add building
        </Button>
      </Stack>
      {request?.requestSubType === REQUEST_SUBTYPE.buildingSizeCalculation && point && (
        <FootprintOffer
          requestID={requestID}
          sectionID={sectionID}
          section={section}
          sections={report.draft}
          point={point}
          disabled={readOnly}
          unsaved={report.edited}
          onDone={setMessage}
        />
      )}
      <Table size="small" aria-label="Buildings">
        <TableHead>
          <TableRow>
            <TableCell>No.</TableCell>
            <TableCell>Name</TableCell>
            <TableCell>Group</TableCell>
            <TableCell align="right">Area (m²)</TableCell>
            <TableCell align="right">Total</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {section.buildings.map((building, i) => (
            <TableRow key={`${i}-${building.name}`}>
              <TableCell>{building.marker?.number ?? i + 1}</TableCell>
              <TableCell>
                <Link to={buildingOverviewHref(requestID, sectionID, String(i))}>{building.name}</Link>
              </TableCell>
              <TableCell>{building.group}</TableCell>
              <TableCell align="right">{sectionTotals ? sectionTotals.buildings[i]?.area : ''}</TableCell>
              <TableCell align="right">
                {sectionTotals?.buildings[i] ? formatMoney(sectionTotals.buildings[i].total) : ''}
              </TableCell>
              <TableCell>
                <IconButton
                  aria-label={`Delete building ${building.name}`}
                  disabled={readOnly}
                  onClick={() => change((s) => ({ ...s, buildings: removeAndRenumber(s.buildings, i) }))}
                >
                  ✕
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {sectionTotals && (
        <Typography sx={{ mt: 1 }} data-testid="section-subtotal">
          Section subtotal: {formatMoney(sectionTotals.subtotal)}
        </Typography>
      )}
      <ImprovementsTable
        requestID={requestID}
        sectionID={sectionID}
        buildingID={null}
        improvements={section.improvements}
        point={report.details?.coordinates ?? request?.coordinates}
        disabled={readOnly}
        onChange={(improvements) => change((s) => ({ ...s, improvements }))}
      />

      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 3 }}>
        <Typography variant="h6" component="h2">
          Groups
        </Typography>
        <Button onClick={() => setDialog('group')} disabled={readOnly}>
          Add group
        </Button>
      </Stack>
      <List dense aria-label="Groups">
        {section.groups.map((group, i) => (
          <ListItem
            key={group.name}
            secondaryAction={
              <IconButton
                aria-label={`Delete group ${group.name}`}
                disabled={readOnly}
                onClick={() => change((s) => ({ ...s, groups: s.groups.filter((_, j) => j !== i) }))}
              >
                ✕
              </IconButton>
            }
          >
            <ListItemText primary={group.name} />
          </ListItem>
        ))}
      </List>

      {dialog === 'building' && (
        <NameDialog
          title="Add building"
          label="Building name"
          errorOf={(name) => buildingNameError(name, section)}
          onClose={() => setDialog(null)}
          onAdd={addBuilding}
        />
      )}
      {dialog === 'group' && (
        <NameDialog
          title="Add group"
          label="Group name"
          errorOf={(name) => groupNameError(name, section)}
          onClose={() => setDialog(null)}
          onAdd={(name) => {
            change((s) => ({ ...s, groups: [...s.groups, { name }] }));
            setDialog(null);
          }}
        />
      )}
      {dialog === 'comment' && (
        <CommentDialog
          comment={section.comment}
          onClose={() => setDialog(null)}
          onDone={(comment) => {
            change((s) => ({ ...s, comment }));
            setDialog(null);
          }}
        />
      )}
      {prompt}
    </Box>
  );
}
