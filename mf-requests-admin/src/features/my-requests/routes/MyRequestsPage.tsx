import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import type { RequestRow } from '@portal/contracts';
import { formatSaDateTime, statusDisplay } from '@portal/domain';
import { useSearchParams } from '@portal/web-kit';
import { ServerDataGrid, useGridQuery } from '@portal/web-kit/grid';
import { pagerParams } from '../../../api/gridQuery';
import { useRequestPageQuery } from '../../../api/requestsApi';
import { QueuePage } from '../../../layout/QueuePage';
import { TEXT } from '../../../texts';
import { ReportDownloadButton } from '../../../components/ReportDownloadButton';
import { clientReferenceColumn } from '../../../components/clientReferenceColumn';

/** Spec 03 "User's request list": the columns (and the client references), the request id and PDF link hidden. */
const COLUMNS: GridColDef<RequestRow>[] = [
  { field: 'requestID', headerName: 'Id', width: 280 },
  { field: 'reportPdfUrl', headerName: 'PDF link', width: 200 },
  { field: 'type', headerName: 'Type', width: 100 },
  { field: 'gripReference', headerName: 'GRiP Reference', width: 170 },
  clientReferenceColumn(),
  {
    field: 'created',
    headerName: 'Created',
    width: 180,
    filterable: false,
    valueFormatter: (value: string) => formatSaDateTime(value),
  },
  {
    field: 'status',
    headerName: 'Status',
    width: 300,
    renderCell: ({ row }) =>
      statusDisplay({ status: row.status, finalRve: row.rve, preliminaryRve: row.preliminaryRve }),
  },
  { field: 'address', headerName: 'Address', flex: 1, minWidth: 260 },
  {
    field: 'actions',
    headerName: 'Actions',
    width: 180,
    sortable: false,
    filterable: false,
    renderCell: ({ row }) => <ReportDownloadButton row={row} />,
  },
];

/** /requests: the signed-in user's own requests, paged, sorted and filtered by the server (spec 03). */
export function MyRequestsPage() {
  const grid = useGridQuery([{ field: 'created', sort: 'asc' }]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // A link to one request (a notification's mail or bell: ?grip_reference=…) opens the list on it alone.
  const [searchParams, setSearchParams] = useSearchParams();
  const reference = searchParams.get('grip_reference') ?? '';
  const params = useMemo(
    () =>
      pagerParams(grid.query, {
        start_date: from,
        end_date: to,
        ...(reference ? { grip_reference: reference } : {}),
      }),
    [grid.query, from, to, reference],
  );
  const page = useRequestPageQuery(params);
  return (
    <QueuePage title={TEXT.myRequests} subtitle="Your requests, and their reports once they are ready.">
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        <TextField
          type="date"
          label="Created from"
          size="small"
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          label="Created to"
          size="small"
          value={to}
          onChange={(event) => setTo(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {reference && (
          <Button size="small" onClick={() => setSearchParams({})}>
            Showing {reference} only: show all my requests
          </Button>
        )}
      </Stack>
      <ServerDataGrid<RequestRow>
        aria-label="My requests"
        grid={grid}
        rows={page.data?.docs ?? []}
        rowCount={page.data?.total ?? 0}
        getRowId={(row) => row.requestID}
        columns={COLUMNS}
        loading={page.isFetching}
        loadFailed={page.isError}
        onRetry={() => void page.refetch()}
        initialState={{ columns: { columnVisibilityModel: { requestID: false, reportPdfUrl: false } } }}
      />
    </QueuePage>
  );
}
