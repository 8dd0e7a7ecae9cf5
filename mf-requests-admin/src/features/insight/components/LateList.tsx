import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InsightAnswer } from '@portal/contracts';
import { formatSaDateTime } from '@portal/domain';
import { Link as RouterLink } from '@portal/web-kit';
import { consoleRequestHref } from '../../../paths';
import { INSIGHT_TEXT } from '../texts';

/**
 * The requests late now, most overdue first, a page at a time (the server pages them): each reference one
 * click from the request in the console.
 */
export function LateList({ late, onPage }: { late: InsightAnswer['late']; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(late.total / late.pageSize));
  return (
    <Stack spacing={1}>
      <Typography variant="body2" role="status">
        {INSIGHT_TEXT.lateIntro(late.total)}
      </Typography>
      {late.rows.length > 0 && (
        <Table size="small" aria-label="Late requests">
          <TableHead>
            <TableRow>
              <TableCell>GRiP reference</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Group</TableCell>
              <TableCell>Created</TableCell>
              <TableCell align="right">Hours in status</TableCell>
              <TableCell align="right">Target hours</TableCell>
              <TableCell align="right">Hours over</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {late.rows.map((row) => {
              const reference = row.gripReference ?? row.requestID;
              return (
                <TableRow key={row.requestID} data-late={row.requestID}>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={consoleRequestHref(reference)}
                      aria-label={INSIGHT_TEXT.lateOpen(reference)}
                    >
                      {reference}
                    </Link>
                  </TableCell>
                  <TableCell>{row.subtype ? `${row.type} – ${row.subtype}` : row.type}</TableCell>
                  <TableCell>{row.status}</TableCell>
                  <TableCell>{row.groupName}</TableCell>
                  <TableCell>{formatSaDateTime(row.created)}</TableCell>
                  <TableCell align="right">{row.hoursInStatus}</TableCell>
                  <TableCell align="right">{row.targetHours}</TableCell>
                  <TableCell align="right">{row.hoursOver}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {pages > 1 && (
        <Pagination
          count={pages}
          page={late.page}
          onChange={(_, page) => onPage(page)}
          aria-label={INSIGHT_TEXT.latePage}
          size="small"
        />
      )}
    </Stack>
  );
}
