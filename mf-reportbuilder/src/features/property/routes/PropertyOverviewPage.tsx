import { useEffect, useMemo, useState } from 'react';
import { isPortalError, Link, skipToken, useAppDispatch } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  canDeleteSection,
  deleteSection,
  formatMoney,
  nextMarkerNumber,
  parseExtraFieldValue,
  reportTotals,
  sectionCategory,
} from '@portal/domain';
import {
  useReportCommentsQuery,
  useReportNoteQuery,
  useReportTotalsQuery,
  useSaveCommentsMutation,
  useSaveExtraFieldMutation,
  useSaveNoteMutation,
} from '../../../api/reportBuilderApi';
import { editReportAddressHref, sectionOverviewHref, viewReportHref } from '../../../paths';
import { IMPROVEMENT_AND_REPORT_TEXT, TEXT } from '../../../texts';
import { useRouteParams } from '../../../report/useRouteParams';
import { MarkedImage } from '../../../components/MarkedImage';
import { SaveBar } from '../../../components/SaveBar';
import { TotalsPanel } from '../../../components/TotalsPanel';
import { emptySection } from '../../../report/emptyItems';
import { newSectionId } from '../../../report/newId';
import { failureMessage, readVersion, useReport, type SaveMessage } from '../../../report/useReport';
import { useUnsavedChanges } from '../../../report/useUnsavedChanges';
import { SectionPopup } from '../components/SectionPopup';

const PARAMS = ['requestID'] as const;

/** A text that follows the server's value until the user edits it. */
function useEditableText(serverValue: string | undefined) {
  const [value, setValue] = useState('');
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (serverValue !== undefined && !edited) setValue(serverValue);
  }, [serverValue, edited]);
  return {
    value,
    edited,
    change: (next: string) => {
      setValue(next);
      setEdited(true);
    },
    reset: () => setEdited(false),
  };
}

interface ExtraDraft {
  include: boolean;
  description: string;
  value: string;
}

/**
 * Spec 02 §2.1 property-overview (?requestID): the sections (add with the section popup, delete only
 * without buildings), notes, comments, the extra field and the totals, live; one Save sends what changed,
 * each part through its call.
 */
export function PropertyOverviewPage() {
  const { requestID } = useRouteParams(PARAMS);
  const dispatch = useAppDispatch();
  const report = useReport(requestID);
  const comments = useEditableText(useReportCommentsQuery(requestID ?? skipToken).data?.comment);
  const note = useEditableText(useReportNoteQuery(requestID ?? skipToken).data?.note.text);
  // The sum-insured check (issue 13): the client's figure from GET totals, checked against the live total.
  const sumInsured = useReportTotalsQuery(requestID ?? skipToken).data?.sumInsured ?? null;
  const [saveComments] = useSaveCommentsMutation();
  const [saveNote] = useSaveNoteMutation();
  const [saveExtraField] = useSaveExtraFieldMutation();

  const serverExtra = report.details?.extraField;
  const [extra, setExtra] = useState<ExtraDraft | null>(null);
  const [extraEdited, setExtraEdited] = useState<Set<keyof ExtraDraft>>(new Set());
  useEffect(() => {
    if (serverExtra && extraEdited.size === 0)
      setExtra({
        include: serverExtra.include,
        description: serverExtra.description,
        value: String(serverExtra.value),
      });
  }, [serverExtra, extraEdited]);
  const editExtra = <K extends keyof ExtraDraft>(field: K, value: ExtraDraft[K]) => {
    setExtra((current) => (current ? { ...current, [field]: value } : current));
    setExtraEdited((current) => new Set(current).add(field));
  };
  const extraValueError =
    extra && parseExtraFieldValue(extra.value) === null ? TEXT.extraValueNotNumber : null;

  const [popupOpen, setPopupOpen] = useState(false);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const dirty = report.edited || comments.edited || note.edited || extraEdited.size > 0;

  const resetAll = () => {
    report.setEdited(false);
    comments.reset();
    note.reset();
    setExtraEdited(new Set());
  };

  /** Saves every part that changed, each through its call, one after another (each with the version read). */
  const saveAll = async (): Promise<boolean> => {
    if (!requestID) return false;
    if (extraValueError) {
      setMessage({ severity: 'error', text: extraValueError });
      return false;
    }
    const stop = (error: unknown, what: string) => {
      const shown = failureMessage(error, what);
      if (isPortalError(error) && error.status === 409) resetAll();
      setMessage(shown);
      return false;
    };
    if (report.edited) {
      const result = await report.save();
      if (!result.ok) {
        if (result.message?.severity === 'warning') resetAll();
        setMessage(result.message);
        return false;
      }
    }
    const version = () => dispatch(readVersion(requestID));
    try {
      if (comments.edited) {
        await saveComments({ ID: requestID, comment: comments.value, version: version() }).unwrap();
        comments.reset();
      }
    } catch (error) {
      return stop(error, 'comments');
    }
    try {
      if (note.edited) {
        await saveNote({ ID: requestID, note: note.value, version: version() }).unwrap();
        note.reset();
      }
    } catch (error) {
      return stop(error, 'note');
    }
    try {
      if (extra && extraEdited.has('include'))
        await saveExtraField({
          requestID,
          field: 'included',
          included: extra.include,
          version: version(),
        }).unwrap();
      if (extra && extraEdited.has('description'))
        await saveExtraField({
          requestID,
          field: 'description',
          description: extra.description,
          version: version(),
        }).unwrap();
      if (extra && extraEdited.has('value'))
        await saveExtraField({ requestID, field: 'value', value: extra.value, version: version() }).unwrap();
      setExtraEdited(new Set());
    } catch (error) {
      return stop(error, 'extra field');
    }
    setMessage({ severity: 'success', text: TEXT.saved });
    return true;
  };
  const { prompt } = useUnsavedChanges(dirty, saveAll);

  const totals = useMemo(
    () =>
      report.draft && report.settings
        ? reportTotals(report.draft, extra ? { ...extra } : null, report.settings)
        : null,
    [report.draft, report.settings, extra],
  );

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  if (!report.draft) return report.sectionsFailed ? null : <LinearProgress aria-label={TEXT.loading} />;
  const sections = report.draft;
  const entries = Object.entries(sections);
  const readOnly = !report.editable;

  const addSection = ({ name, type }: { name: string; type: string }) => {
    const point = report.details?.coordinates;
    report.edit((current) => ({
      ...current,
      [newSectionId(Object.keys(current))]: emptySection(
        name,
        type,
        point
          ? {
              lat: point.lat,
              lng: point.lng,
              number: nextMarkerNumber(Object.keys(current)),
              draggable: true,
            }
          : null,
      ),
    }));
    setPopupOpen(false);
  };

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Property overview
      </Typography>
      {report.details && (
        <Typography color="text.secondary">
          {[report.details.gripReference, report.details.location, report.details.suburbTownCity]
            .filter(Boolean)
            .join(' · ')}{' '}
          · <Link to={editReportAddressHref(requestID)}>{IMPROVEMENT_AND_REPORT_TEXT.editAddress}</Link>
        </Typography>
      )}
      {readOnly && <Alert severity="info">{TEXT.readOnly}</Alert>}
      <SaveBar dirty={dirty} disabled={readOnly} onSave={saveAll} message={message}>
        {/* Spec 02 §2.3 "preview as PDF": the report as last saved (leaving asks to save first). */}
        <Button variant="outlined" component={Link} to={viewReportHref(requestID)}>
          {IMPROVEMENT_AND_REPORT_TEXT.preview}
        </Button>
      </SaveBar>
      <MarkedImage
        requestID={requestID}
        label="Property image"
        disabled={readOnly}
        items={entries.map(([id, s]) => ({ key: id, name: s.name, marker: s.marker }))}
        onMove={(id, marker) =>
          report.edit((current) => (current[id] ? { ...current, [id]: { ...current[id], marker } } : current))
        }
      />

      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          Sections
        </Typography>
        <Button onClick={() => setPopupOpen(true)} disabled={readOnly}>
          Add section
        </Button>
      </Stack>
      <Table size="small" aria-label="Sections">
        <TableHead>
          <TableRow>
            <TableCell>No.</TableCell>
            <TableCell>Name</TableCell>
            <TableCell>Category</TableCell>
            <TableCell align="right">Buildings</TableCell>
            <TableCell align="right">Subtotal</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map(([id, section], i) => (
            <TableRow key={id}>
              <TableCell>{section.marker?.number ?? i + 1}</TableCell>
              <TableCell>
                <Link to={sectionOverviewHref(requestID, id)}>{section.name}</Link>
              </TableCell>
              <TableCell>{sectionCategory(section.type)}</TableCell>
              <TableCell align="right">{section.buildings.length}</TableCell>
              <TableCell align="right">
                {totals?.sections[id] ? formatMoney(totals.sections[id].subtotal) : ''}
              </TableCell>
              <TableCell>
                <Tooltip
                  title={canDeleteSection(section) ? '' : 'Only a section without buildings can be deleted.'}
                >
                  <span>
                    <IconButton
                      aria-label={`Delete section ${section.name}`}
                      disabled={readOnly || !canDeleteSection(section)}
                      onClick={() => report.edit((current) => deleteSection(current, id) ?? current)}
                    >
                      ✕
                    </IconButton>
                  </span>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>

      <Stack spacing={2} sx={{ my: 3, maxWidth: 716 }}>
        <TextField
          label="Notes"
          multiline
          minRows={2}
          value={note.value}
          onChange={(e) => note.change(e.target.value)}
          disabled={readOnly}
        />
        <TextField
          label="Comments"
          multiline
          minRows={2}
          value={comments.value}
          onChange={(e) => comments.change(e.target.value)}
          disabled={readOnly}
        />
        {extra && (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={extra.include}
                  onChange={(e) => editExtra('include', e.target.checked)}
                  disabled={readOnly}
                />
              }
              label="Include extra field"
            />
            <TextField
              label="Extra field description"
              value={extra.description}
              onChange={(e) => editExtra('description', e.target.value)}
              disabled={readOnly}
            />
            <TextField
              label="Extra field value"
              value={extra.value}
              onChange={(e) => editExtra('value', e.target.value)}
              error={!!extraValueError}
              helperText={extraValueError ?? undefined}
              disabled={readOnly}
            />
          </Stack>
        )}
      </Stack>
      {totals && (
        <TotalsPanel totals={totals} extraLabel={extra?.description ?? ''} sumInsured={sumInsured} />
      )}
      {popupOpen && (
        <SectionPopup sections={sections} onClose={() => setPopupOpen(false)} onAdd={addSection} />
      )}
      {prompt}
    </Box>
  );
}
