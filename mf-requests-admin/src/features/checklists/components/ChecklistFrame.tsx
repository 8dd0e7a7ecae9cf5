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
  const record = useRequestRecordQuery(requestID, { skip: !requestID });
  return (
    <QueuePage title={title}>
      <Paper sx={{ p: 3, maxWidth: 760 }}>
        {!requestID && <Alert severity="error">No request was named (requestID).</Alert>}
        {record.isLoading && <LinearProgress aria-label="Loading the request" />}
        {record.isError && (
          <Alert severity="error">{`${TEXT.loadingError}: ${errorMessages(record.error).join(' ')}`}</Alert>
        )}
        {record.data && (
          <>
            <Typography variant="h2" sx={{ fontSize: 20 }}>
              {record.data.gripReference}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              Status: {record.data.status}
              {record.data.coordinates
                ? ` · ${record.data.coordinates.lat.toFixed(6)}, ${record.data.coordinates.lng.toFixed(6)}`
                : ''}
            </Typography>
            {children(record.data)}
          </>
        )}
      </Paper>
    </QueuePage>
  );
}
