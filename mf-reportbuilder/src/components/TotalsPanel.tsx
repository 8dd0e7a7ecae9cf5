import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatMoney, sumInsuredCheck, type ReportTotals } from '@portal/domain';

/** GET totals' sum insured (issue 13 "Beyond the spec"): the client's figure and the tolerance. */
export interface SumInsuredReference {
  value: number;
  tolerancePercent: number;
}

/**
 * The sum-insured check against the live grand total: 'Sum insured R x — under-insured by y %' (red),
 * '— over-insured by y %' (amber) or '— within z %'. Nothing without a sum insured or a total.
 */
function SumInsuredLine({ sumInsured, grandTotal }: { sumInsured: SumInsuredReference; grandTotal: number }) {
  const check = sumInsuredCheck(sumInsured.value, grandTotal, sumInsured.tolerancePercent);
  if (!check) return null;
  const by = `${Math.abs(check.differencePercent)} %`;
  const [verdict, color] =
    check.verdict === 'under-insured'
      ? [`under-insured by ${by}`, 'error.main']
      : check.verdict === 'over-insured'
        ? [`over-insured by ${by}`, 'warning.dark']
        : [`within ${sumInsured.tolerancePercent} %`, 'text.primary'];
  return (
    <Typography role="status" aria-label="Sum insured" sx={{ mt: 1, color, fontWeight: 500 }}>
      {`Sum insured R ${formatMoney(sumInsured.value)} — ${verdict}`}
    </Typography>
  );
}

/** Spec 02 §4.5: the report's totals, 2 decimals, en-US; and the sum-insured check when there is one. */
export function TotalsPanel({
  totals,
  extraLabel,
  sumInsured = null,
}: {
  totals: ReportTotals;
  extraLabel: string;
  sumInsured?: SumInsuredReference | null;
}) {
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
      {sumInsured && <SumInsuredLine sumInsured={sumInsured} grandTotal={totals.grandTotal} />}
    </>
  );
}
