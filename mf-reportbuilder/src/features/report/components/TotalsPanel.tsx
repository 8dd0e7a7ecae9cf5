import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatMoney, type ReportTotals } from '@portal/domain';

/** Spec 02 §4.5: the report's totals, 2 decimals, en-US. */
export function TotalsPanel({ totals, extraLabel }: { totals: ReportTotals; extraLabel: string }) {
  const rows: [string, number][] = [
    ...(totals.extraField !== 0
      ? [[extraLabel || 'Extra field', totals.extraField] as [string, number]]
      : []),
    ['Subtotal', totals.subtotal],
    ['Professional fee', totals.professionalFee],
    ['VAT', totals.vat],
    ['Total', totals.grandTotal],
  ];
  return (
    <>
      <Typography variant="h6" component="h2">
        Totals
      </Typography>
      <Table size="small" aria-label="Totals" sx={{ maxWidth: 480 }}>
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell align="right" data-testid={`total-${label}`}>
                {formatMoney(value)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
