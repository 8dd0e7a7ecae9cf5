import { useCallback, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import {
  QUEUE_DASHBOARD_PATH,
  REQUEST_ADMIN_API,
  type ConsoleJob,
  type RequestRow,
  type SavedView,
} from '@portal/contracts';
import { DEFAULT_AGEING_TARGETS, rowColour, showPrioritise, type RequestAction } from '@portal/domain';
import {
  errorMessages,
  isPortalError,
  useAppDispatch,
  useCurrentUser,
  useNavigate,
  useNotify,
  useSearchParams,
} from '@portal/web-kit';
import { ServerDataGrid, useGridQuery } from '@portal/web-kit/grid';
import { pagerParams } from '../../../api/gridQuery';
import {
  requestsApi,
  useBulkChangeMutation,
  useChangeRequestMutation,
  useConsoleSettingsQuery,
  useInlineEditMutation,
  useRequestPageQuery,
  useStartExportMutation,
  useStartZipMutation,
  type InlineEdit,
} from '../../../api/requestsApi';
import { QueuePage } from '../../../layout/QueuePage';
import { duplicateCheckHref, qcLauncherHref, qsChecklistHref, reportBuilderHref } from '../../../paths';
import { useRequestEvents } from '../../../realtime/useRequestEvents';
import { TEXT } from '../../../texts';
import { openReport } from '../../../components/ReportDownloadButton';
import {
  ConsoleFilters,
  DEFAULT_CONSOLE_FILTERS,
  type ConsoleFilterValues,
} from '../components/ConsoleFilters';
import { CommentDialog, FeeDialog, InvoiceDialog } from '../components/Dialogs';
import { JobProgress } from '../components/JobProgress';
import { RequestDetail } from '../components/RequestDetail';
import { SavedViews } from '../components/SavedViews';
import { StatusChips } from '../components/StatusChips';
import { EDITABLE_FIELDS, consoleColumns } from '../components/columns';

const EMPTY_SELECTION: GridRowSelectionModel = { type: 'include', ids: new Set() };

/** The inline edit a changed cell stands for (spec 02 §7.2: each field its own call), or a reason it is refused. */
function editOf(next: RequestRow, before: RequestRow): InlineEdit | string | null {
  const field = EDITABLE_FIELDS.find((name) => next[name] !== before[name]);
  const base = { id: before.requestID, version: before.version };
  switch (field) {
    case 'priority':
      return { ...base, kind: 'priority', priority: next.priority === 'Yes' };
    case 'status':
      return { ...base, kind: 'status', status: next.status };
    case 'rveType':
      return next.rveType ? { ...base, kind: 'propertyType', propertyType: next.rveType } : null;
    case 'numberOfBuildings': {
      const value = Number(next.numberOfBuildings);
      if (next.numberOfBuildings === null || !Number.isInteger(value) || value < 0)
        return 'The number of buildings must be a whole number, 0 or more.';
      return { ...base, kind: 'numberOfBuildings', numberOfBuildings: value };
    }
    case 'unitPrice': {
      const value = Number(next.unitPrice);
      if (next.unitPrice === null || !Number.isFinite(value) || value < 0)
        return 'The unit price must be 0 or more.';
      return { ...base, kind: 'unitPrice', unitPrice: value };
    }
    default:
      return null;
  }
}

/** /requests/admin: the request administration console (spec 02 §2.2, §2.3 "Request admin grid"). */
export function ConsolePage() {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const notify = useNotify();
  const dispatch = useAppDispatch();
  const grid = useGridQuery();
  // A link to one request (the operations dashboard's late list: ?grip_reference=…) opens the console on it
  // alone, whatever its type; otherwise the spec's default filters.
  const [searchParams] = useSearchParams();
  const [filters, setFilters] = useState<ConsoleFilterValues>(() => {
    const reference = searchParams.get('grip_reference');
    return reference ? { grip_reference: reference } : DEFAULT_CONSOLE_FILTERS;
  });
  const params = useMemo(() => pagerParams(grid.query, filters), [grid.query, filters]);
  const page = useRequestPageQuery(params);
  const settings = useConsoleSettingsQuery();
  const [inlineEdit] = useInlineEditMutation();
  const [change] = useChangeRequestMutation();
  const [bulkChange] = useBulkChangeMutation();
  const [startExport] = useStartExportMutation();
  const [startZip] = useStartZipMutation();
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [detail, setDetail] = useState<RequestRow | null>(null);
  const [disputing, setDisputing] = useState<RequestRow | null>(null);
  const [dialog, setDialog] = useState<'fees' | 'invoice' | null>(null);
  const [refused, setRefused] = useState<string[] | null>(null);
  const [jobs, setJobs] = useState<ConsoleJob[]>([]);
  const [pushedJobs, setPushedJobs] = useState<Record<string, ConsoleJob>>({});

  const rows = useMemo(() => page.data?.docs ?? [], [page.data]);
  const selectedIds = useMemo(
    () =>
      selection.type === 'include'
        ? [...selection.ids].map(String)
        : rows.map((row) => row.requestID).filter((id) => !selection.ids.has(id)),
    [selection, rows],
  );

  const refreshAll = useCallback(() => {
    dispatch(requestsApi.util.invalidateTags([{ type: 'Request', id: 'PAGE' }]));
  }, [dispatch]);
  const live = useRequestEvents({
    onRequest: (row) => {
      dispatch(
        requestsApi.util.updateQueryData('requestPage', params, (draft) => {
          const index = draft.docs.findIndex((doc) => doc.requestID === row.requestID);
          if (index >= 0 && draft.docs[index].version <= row.version) draft.docs[index] = row;
        }),
      );
      dispatch(requestsApi.util.invalidateTags([{ type: 'Request', id: row.requestID }]));
    },
    onRequests: refreshAll,
    onJob: (job) => setPushedJobs((current) => ({ ...current, [job.id]: job })),
  });

  const failed = (error: unknown) => {
    notify({ message: errorMessages(error).join(' '), severity: 'error' });
    if (isPortalError(error) && error.status === 409) refreshAll();
  };

  const setStatusAndOpen = async (row: RequestRow) => {
    const result = await change({
      url: REQUEST_ADMIN_API.updateStatus,
      id: row.requestID,
      body: { _id: row.requestID, status: 'In progress', version: row.version },
    });
    if ('error' in result) return failed(result.error);
    window.open(reportBuilderHref(row.requestID), '_blank');
  };

  const onAction = (row: RequestRow, action: RequestAction) => {
    switch (action) {
      case 'QS check':
        return navigate(qsChecklistHref(row.requestID, row.coordinates));
      case 'Start report':
      case 'Revisit report':
        return void setStatusAndOpen(row);
      case 'Continue report':
        return void window.open(reportBuilderHref(row.requestID), '_blank');
      case 'QC check':
        return void window.open(qcLauncherHref(row.requestID, row.coordinates), '_blank');
      case 'Download report':
        return openReport(row);
      case 'Dispute':
        return setDisputing(row);
    }
  };

  const columns = useMemo(
    () =>
      consoleColumns({
        canPrioritise: showPrioritise(user?.isAdmin ? '1' : '0'),
        canEditStatus: Boolean(user?.roles.includes('admin')),
        ageingTargets: settings.data?.ageingTargets ?? (DEFAULT_AGEING_TARGETS as Record<string, number>),
        onAction,
        onDetail: setDetail,
        onDuplicates: (row) => navigate(duplicateCheckHref(row.requestID)),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onAction reads the latest state when clicked
    [user, settings.data],
  );

  const bulk = async (url: string, body: object, done: string) => {
    const result = await bulkChange({ url, body });
    if ('error' in result) {
      // A refused bulk change (409) names the requests that stopped it, one message each.
      const error = result.error;
      if (isPortalError(error) && error.status === 409 && error.messages?.length) setRefused(error.messages);
      return failed(error);
    }
    setRefused(null);
    notify({ message: `${done}: ${result.data.updated} requests.`, severity: 'success' });
    setSelection(EMPTY_SELECTION);
  };

  const addJob = (job: ConsoleJob) =>
    setJobs((current) => [job, ...current.filter((item) => item.id !== job.id)]);

  const viewState = { filters, sortModel: grid.query.sortModel, pageSize: grid.query.pageSize };
  const applyView = (view: SavedView) => {
    const state = view.state as Partial<typeof viewState>;
    setFilters(state.filters ?? {});
    if (state.sortModel) grid.setSortModel(state.sortModel);
    if (state.pageSize) grid.setPageSize(state.pageSize);
  };

  const nothingSelected = selectedIds.length === 0;
  return (
    <QueuePage
      title={TEXT.console}
      subtitle="Double-click a priority, status, RVE type, buildings or unit price to change it; each change is saved at once."
      actions={
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <SavedViews state={viewState} onApply={applyView} />
          {user?.roles.includes('admin') && (
            // The operators' dashboard of every background queue (Bull Board, served by iris): a page of
            // its own, outside the shell, for administrators only (the server answers others 403).
            <Button size="small" href={QUEUE_DASHBOARD_PATH} target="_blank" rel="noopener">
              Job queues
            </Button>
          )}
          <Chip
            size="small"
            color={live ? 'success' : 'default'}
            label={live ? TEXT.live : TEXT.offline}
            data-testid="realtime-status"
          />
        </Stack>
      }
    >
      <StatusChips
        filters={filters}
        selected={filters.status ?? ''}
        onSelect={(status) => setFilters({ ...filters, status })}
      />
      <ConsoleFilters values={filters} onChange={setFilters} />
      <Stack
        direction="row"
        useFlexGap
        spacing={1}
        sx={{ flexWrap: 'wrap', mb: 1.5 }}
        aria-label="Bulk actions"
      >
        {showPrioritise(user?.isAdmin ? '1' : '0') && (
          <Button
            variant="outlined"
            disabled={nothingSelected}
            onClick={() => bulk(REQUEST_ADMIN_API.prioritiseAll, { ids: selectedIds }, 'Prioritised')}
          >
            Prioritise all
          </Button>
        )}
        <Button
          variant="outlined"
          disabled={nothingSelected}
          onClick={() => bulk(REQUEST_ADMIN_API.allToDelivered, { ids: selectedIds }, 'Delivered')}
        >
          All to Delivered
        </Button>
        <Button variant="outlined" disabled={nothingSelected} onClick={() => setDialog('fees')}>
          Update all fees
        </Button>
        <Button variant="outlined" disabled={nothingSelected} onClick={() => setDialog('invoice')}>
          Mark invoiced
        </Button>
        <Button
          variant="outlined"
          onClick={async () => {
            const result = await startExport(
              nothingSelected ? { filters: params.filters } : { requests: selectedIds },
            );
            if ('error' in result) return failed(result.error);
            addJob(result.data);
          }}
        >
          {nothingSelected ? 'Export all matches to Excel' : 'Export selection to Excel'}
        </Button>
        <Button
          variant="outlined"
          disabled={nothingSelected}
          onClick={async () => {
            const result = await startZip(selectedIds);
            if ('error' in result) return failed(result.error);
            addJob(result.data);
          }}
        >
          Zip reports
        </Button>
      </Stack>
      {refused && refused.length > 0 && (
        <Alert severity="warning" onClose={() => setRefused(null)} sx={{ mb: 1.5 }}>
          Nothing was changed. Not in Dispatch: {refused.join(', ')}
        </Alert>
      )}
      {jobs.map((job) => (
        <JobProgress key={job.id} job={job} pushed={pushedJobs[job.id]} />
      ))}
      <ServerDataGrid<RequestRow>
        aria-label="Requests"
        grid={grid}
        rows={rows}
        rowCount={page.data?.total ?? 0}
        getRowId={(row) => row.requestID}
        columns={columns}
        loading={page.isFetching}
        loadFailed={page.isError}
        onRetry={() => void page.refetch()}
        // Every column drawn (there are 26; the page's rows stay virtualised): a cell scrolled into view
        // is there at once, and an edit's result is in the row whether or not it is scrolled to.
        columnBufferPx={6000}
        checkboxSelection
        keepNonExistentRowsSelected
        rowSelectionModel={selection}
        onRowSelectionModelChange={setSelection}
        getRowClassName={({ row }) => {
          const colour = rowColour({
            priority: row.priority,
            status: row.status,
            disputed: row.disputed === 'Yes',
          });
          return colour ? `request-row-${colour}` : '';
        }}
        processRowUpdate={async (next, before) => {
          const edit = editOf(next, before);
          if (edit === null) return before;
          if (typeof edit === 'string') {
            notify({ message: edit, severity: 'error' });
            return before;
          }
          const result = await inlineEdit(edit);
          if ('error' in result) {
            failed(result.error);
            return before;
          }
          notify({ message: TEXT.saved, severity: 'success', durationMs: 1500 });
          return result.data;
        }}
        onProcessRowUpdateError={(error) => failed(error)}
        sx={{
          '& .request-row-red': { bgcolor: '#fdd8d6', '&:hover': { bgcolor: '#fbc4c0' } },
          '& .request-row-orange': { bgcolor: '#ffe6c7', '&:hover': { bgcolor: '#ffd9a8' } },
        }}
      />
      <RequestDetail row={detail} onClose={() => setDetail(null)} />
      <CommentDialog
        title={disputing ? `Dispute ${disputing.gripReference}` : 'Dispute'}
        action="Dispute"
        open={disputing !== null}
        onClose={() => setDisputing(null)}
        onSubmit={async (comment) => {
          if (!disputing) return;
          const result = await change({
            url: REQUEST_ADMIN_API.dispute,
            id: disputing.requestID,
            body: { _id: disputing.requestID, comment, version: disputing.version },
          });
          if ('error' in result) return failed(result.error);
          setDisputing(null);
        }}
      />
      <FeeDialog
        open={dialog === 'fees'}
        count={selectedIds.length}
        onClose={() => setDialog(null)}
        onSubmit={async (fees) => {
          await bulk(REQUEST_ADMIN_API.updateAllFees, { ids: selectedIds, ...fees }, 'Fees updated');
          setDialog(null);
        }}
      />
      <InvoiceDialog
        open={dialog === 'invoice'}
        count={selectedIds.length}
        onClose={() => setDialog(null)}
        onSubmit={async (invoiceNumber) => {
          await bulk(REQUEST_ADMIN_API.markInvoiced, { requestids: selectedIds, invoiceNumber }, 'Invoiced');
          setDialog(null);
        }}
      />
    </QueuePage>
  );
}
