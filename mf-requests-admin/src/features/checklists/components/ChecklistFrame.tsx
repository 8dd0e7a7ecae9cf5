import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { errorMessages } from '@portal/web-kit';
import { useRequestRecordQuery } from '../../../api/requestsApi';
import { QueuePage } from '../../../layout/QueuePage';
import { TEXT } from '../../../texts';

/** A checklist's page: the request it is about (GRiP reference, status, point), then the checklist. */
export function ChecklistFrame({
  title,
  requestID,
  children,
}: {
  title: string;
  requestID: string;
  children: (record: NonNullable<ReturnType<typeof useRequestRecordQuery>['data']>) => ReactNode;
}) {
  const recordQuery = useRequestRecordQuery(requestID, { skip: !requestID });
  return (
    <QueuePage title={title}>
      <Paper sx={{ p: 3, maxWidth: 760 }}>
        {!requestID && <Alert severity="error">No request was named (requestID).</Alert>}
        {recordQuery.isLoading && <LinearProgress aria-label="Loading the request" />}
        {recordQuery.isError && (
          <Alert severity="error">{`${TEXT.loadingError}: ${errorMessages(recordQuery.error).join(' ')}`}</Alert>
        )}
        {recordQuery.data && (
          <>
            <Typography variant="h2" sx={{ fontSize: 20 }}>
              {recordQuery.data.gripReference}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              Status: {recordQuery.data.status}
              {recordQuery.data.coordinates
                ? ` · ${recordQuery.data.coordinates.lat.toFixed(6)}, ${recordQuery.data.coordinates.lng.toFixed(6)}`
                : ''}
            </Typography>
            {children(recordQuery.data)}
          </>
        )}
      </Paper>
    </QueuePage>
  );
}
