import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { NearRequest } from '@portal/contracts';
import { duplicateRveText, formatSaDate } from '@portal/domain';

/**
 * Spec 03 "Duplicate check": location, reference, client, status, finalised or created date, and the
 * final RVE, the preliminary RVE or 'Insufficient Data', in rand.
 */
export function NearPopup({ request, onClose }: { request: NearRequest; onClose: () => void }) {
  const rows: [string, string][] = [
    ['Location', request.location],
    ['Reference', request.reference],
    ['Client', request.client ?? ''],
    ['Status', request.status],
    [request.dateKind === 'finalised' ? 'Finalised' : 'Created', formatSaDate(request.date)],
    ['RVE', duplicateRveText(request)],
  ];
  return (
    <Paper
      role="dialog"
      aria-label={`Request ${request.gripReference}`}
      data-testid="near-popup"
      elevation={6}
      sx={{ position: 'absolute', top: 12, right: 12, width: 320, p: 1.5, zIndex: 2 }}
    >
      <Typography variant="subtitle2" sx={{ display: 'flex', justifyContent: 'space-between' }}>
        {request.gripReference}
        <button type="button" onClick={onClose} aria-label="Close">
          ×
        </button>
      </Typography>
      <Table size="small">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" sx={{ fontWeight: 600, width: 100 }}>
                {label}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
