import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { ADMIN_API } from '@portal/contracts';
import { canAccess } from '@portal/domain';
import { NOTIFY_DURATION, useCurrentUser, useNotify } from '@portal/web-kit';
import { ADMIN_ROLES } from '../../../access';
import { failureText, reasonOf } from '../../../api/answers';
import { AdminPage } from '../../../layout/AdminPage';
import { AddIcon, DownloadIcon, SaveIcon, UploadIcon } from '../../../layout/icons';
import { ratesHref } from '../../../paths';
import { ADMIN_TEXT } from '../../../texts';
import { useAllGroupsQuery } from '../../../api/groupsApi';
import { useImportRatesMutation, useRatesQuery, useSaveRatesMutation } from '../../../api/ratesApi';
import { newRateRow, rateProblems, toEditableRows, toRateRows, type EditableRateRow } from '../rateRows';
import { lazyGrid } from '@portal/web-kit/grid';

const RatesGrid = lazyGrid(async () => (await import('../components/RatesGrid')).RatesGrid);

/** How many problems the list above the grid names; the cells show all of them. */
const LISTED_PROBLEMS = 5;

/** /services/admin/rates/?groupID= (spec 03 "Rates editor"), for admins and rates editors. */
export function RatesPage() {
  const [searchParams] = useSearchParams();
  const groupID = searchParams.get('groupID')?.trim();
  if (!groupID) return <NoGroupChosen />;
  // A new group starts a new editor: nothing unsaved carries over.
  return <RatesEditor key={groupID} groupID={groupID} />;
}

function NoGroupChosen() {
  const { user } = useCurrentUser();
  return (
    <AdminPage title="Rates editor">
      <Alert
        severity="info"
        action={
          user?.groupID ? (
            <Button color="inherit" size="small" component={RouterLink} to={ratesHref(user.groupID)}>
              Edit the rates of {user.groupName || 'my group'}
            </Button>
          ) : undefined
        }
      >
        {ADMIN_TEXT.noGroupChosen}
      </Alert>
    </AdminPage>
  );
}

function RatesEditor({ groupID }: { groupID: string }) {
  const notify = useNotify();
  const { user } = useCurrentUser();
  const savedRates = useRatesQuery(groupID);
  const [saveRates, { isLoading: saving }] = useSaveRatesMutation();
  const [importRates, { isLoading: importing }] = useImportRatesMutation();
  // The table being edited; null while it is the saved one.
  const [draft, setDraft] = useState<EditableRateRow[] | null>(null);
  const [focusRowId, setFocusRowId] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const rows = draft ?? toEditableRows(savedRates.data ?? []);
  const unsaved = draft !== null;
  const problems = rateProblems(rows);
  const groupName = useGroupName(groupID);

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const addRow = () => {
    const id = rows.reduce((max, row) => Math.max(max, row.id), -1) + 1;
    setDraft([...rows, newRateRow(id)]);
    setFocusRowId(id);
  };

  const save = async () => {
    if (problems.length > 0) return;
    const result = await saveRates({ groupID, rates: toRateRows(rows) });
    if (result.error) {
      notify({ message: failureText(ADMIN_TEXT.failedToSaveRates, result.error), severity: 'error' });
      return;
    }
    setDraft(null);
    notify({ message: ADMIN_TEXT.ratesSaved, severity: 'success', durationMs: NOTIFY_DURATION.saved });
  };

  const importFile = async (file: File) => {
    const result = await importRates({ groupID, file });
    if (result.error) {
      notify({ message: failureText(ADMIN_TEXT.failedToImportRates, result.error), severity: 'error' });
      return;
    }
    setDraft(toEditableRows(result.data));
    notify({
      message: `${result.data.length} rows read from ${file.name}. Check them, then save.`,
      severity: 'info',
    });
  };

  return (
    <AdminPage
      title="Rates editor"
      backToAdmin={canAccess(user, ADMIN_ROLES)}
      subtitle={groupName ? `Rate table of ${groupName}` : `Rate table of group ${groupID}`}
      actions={
        <>
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            onClick={addRow}
            disabled={!savedRates.isSuccess}
          >
            Add row
          </Button>
          <Button
            variant="outlined"
            startIcon={<UploadIcon />}
            onClick={() => fileInput.current?.click()}
            disabled={!savedRates.isSuccess || importing}
          >
            Import .xlsx
          </Button>
          <Tooltip title="Downloads the rate table as saved">
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              href={ADMIN_API.ratesExport(groupID)}
              download
              disabled={!savedRates.isSuccess}
            >
              Export .xlsx
            </Button>
          </Tooltip>
          {unsaved && (
            <Button onClick={() => setDraft(null)} disabled={saving}>
              Discard changes
            </Button>
          )}
          <Button
            variant="contained"
            startIcon={<SaveIcon />}
            onClick={() => void save()}
            disabled={!unsaved || saving || problems.length > 0}
          >
            Save
          </Button>
        </>
      }
    >
      <input
        ref={fileInput}
        type="file"
        hidden
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        aria-label="Rate table spreadsheet"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
      {savedRates.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void savedRates.refetch()}>
              Try again
            </Button>
          }
        >
          <AlertTitle>{ADMIN_TEXT.loadingError}</AlertTitle>
          {reasonOf(savedRates.error)}
        </Alert>
      ) : (
        <>
          <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', minHeight: 32 }}>
            <Chip
              size="small"
              label={`${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`}
              variant="outlined"
            />
            {unsaved && <Chip size="small" color="warning" label="Unsaved changes" />}
          </Stack>
          {problems.length > 0 && (
            <Alert severity="error" sx={{ mb: 1.5 }}>
              <AlertTitle>Rates must be numbers, and the rates 0 or more. Fix these to save:</AlertTitle>
              <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
                {problems.slice(0, LISTED_PROBLEMS).map((problem) => (
                  <li key={`${problem.id}-${problem.field}`}>
                    Row {problem.rowNumber}: {problem.message}
                  </li>
                ))}
                {problems.length > LISTED_PROBLEMS && (
                  <li>… and {problems.length - LISTED_PROBLEMS} more.</li>
                )}
              </ul>
            </Alert>
          )}
          <RatesGrid
            rows={rows}
            loading={savedRates.isLoading || importing}
            onRowsChange={setDraft}
            focusRowId={focusRowId}
          />
        </>
      )}
    </AdminPage>
  );
}

/**
 * The group's name for the title: an admin can look it up; a rates editor is normally editing their
 * own group, whose name the session has.
 */
function useGroupName(groupID: string): string | undefined {
  const { user } = useCurrentUser();
  const isAdmin = canAccess(user, ADMIN_ROLES);
  const groups = useAllGroupsQuery(undefined, { skip: !isAdmin });
  if (user?.groupID === groupID) return user.groupName;
  return groups.data?.find((group) => group._id === groupID)?.name;
}
