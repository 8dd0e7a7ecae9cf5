import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  formatMoney,
  fromCents,
  improvementNameError,
  improvementValueCents,
  type ReportImprovement,
} from '@portal/domain';
import { Link } from '@portal/web-kit';
import { improvementOverviewHref } from '../paths';
import { IMPROVEMENT_AND_REPORT_TEXT } from '../texts';
import { NameDialog } from './NameDialog';
import { addImprovement, deleteImprovement } from '../report/improvements';

/**
 * The improvements of a section or a building (spec 02 §2.3, §3): numbered by their markers, each linked
 * to its overview, with its value; added with the improvement popup (name required, §5) and deleted with
 * the markers of the rest renumbered (§4.4). `onChange` gets the new list (the page keeps it unsaved).
 */
export function ImprovementsTable({
  requestID,
  sectionID,
  buildingID,
  improvements,
  point,
  disabled,
  onChange,
}: {
  requestID: string;
  sectionID: string;
  /** The building's index (as its screens name it), or null for the section's own improvements. */
  buildingID: string | null;
  improvements: readonly ReportImprovement[];
  /** Where a new improvement's marker starts (the request's point), until it is placed on the map. */
  point: { lat: number; lng: number } | null | undefined;
  disabled?: boolean;
  onChange: (improvements: ReportImprovement[]) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 3 }}>
        <Typography variant="h6" component="h2">
          Improvements
        </Typography>
        <Button onClick={() => setAdding(true)} disabled={disabled}>
          {IMPROVEMENT_AND_REPORT_TEXT.addImprovement}
        </Button>
      </Stack>
      <Table size="small" aria-label="Improvements">
        <TableHead>
          <TableRow>
            <TableCell>No.</TableCell>
            <TableCell>Name</TableCell>
            <TableCell align="right">Units</TableCell>
            <TableCell align="right">Value</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {improvements.map((improvement, i) => (
            <TableRow key={`${i}-${improvement.name}`}>
              <TableCell>{improvement.marker?.number ?? i + 1}</TableCell>
              <TableCell>
                <Link to={improvementOverviewHref(requestID, sectionID, buildingID, String(i))}>
                  {improvement.name}
                </Link>
              </TableCell>
              <TableCell align="right">{improvement.numberOfUnits ?? ''}</TableCell>
              <TableCell align="right">
                {formatMoney(fromCents(improvementValueCents(improvement)))}
              </TableCell>
              <TableCell>
                <IconButton
                  aria-label={`Delete improvement ${improvement.name}`}
                  disabled={disabled}
                  onClick={() => onChange(deleteImprovement(improvements, i))}
                >
                  ✕
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {adding && (
        <NameDialog
          title={IMPROVEMENT_AND_REPORT_TEXT.addImprovement}
          label={IMPROVEMENT_AND_REPORT_TEXT.improvementName}
          errorOf={improvementNameError}
          onClose={() => setAdding(false)}
          onAdd={(name) => {
            onChange(addImprovement(improvements, name, point));
            setAdding(false);
          }}
        />
      )}
    </>
  );
}
