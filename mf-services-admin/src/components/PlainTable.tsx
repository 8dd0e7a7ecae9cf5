import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** A moment as the integration pages show it ("14 Mar 2026, 10:05", South African English); `none` for none. */
export const whenText = (iso: string | null, none = '') =>
  iso ? new Date(iso).toLocaleString('en-ZA', { dateStyle: 'medium', timeStyle: 'short' }) : none;

/** Read by screen readers, not shown. */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * A plain, outlined table for a handful of rows a page (a group's API keys, webhook endpoints, deliveries),
 * not a data grid: its label, its headers and, for a last column of buttons, a header only screen readers
 * read (`hiddenHeader`). The rows are the children.
 */
export function PlainTable({
  label,
  headers,
  hiddenHeader,
  children,
}: {
  label: string;
  headers: readonly string[];
  hiddenHeader?: string;
  children: ReactNode;
}) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header}>{header}</TableCell>
            ))}
            {hiddenHeader && (
              <TableCell>
                <Box component="span" sx={VISUALLY_HIDDEN}>
                  {hiddenHeader}
                </Box>
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}
