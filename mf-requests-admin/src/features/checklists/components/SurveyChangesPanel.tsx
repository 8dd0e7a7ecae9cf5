import { useEffect } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatSaDate } from '@portal/domain';
import { useImageryChangesQuery, useSurveysAtQuery } from '../../../api/requestsApi';
import { SURVEY_CHANGES_TEXT as TEXT } from '../../../texts';
import { changeLines, comparedSurveys, formatAreaM2 } from './comparedSurveys';

const kindName = (kind: string) => (kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : '—');

/**
 * Issue 21: "Changes since the survey before this request" on the QS and QC checklists — the buildings on
 * the request's parcel added, removed, extended or reduced between the survey before the request and the
 * newest (comparedSurveys.ts), from the locator's imagery calls. An extension the client's sum insured may
 * not know about is what insurers pay for. A failed load is only logged (spec 02 §8), as the versions panel does.
 */
export function SurveyChangesPanel({
  point,
  loggedAt,
}: {
  point: { lat: number; lng: number } | null;
  loggedAt: string;
}) {
  const surveys = useSurveysAtQuery(point ?? { lat: 0, lng: 0 }, { skip: !point });
  const pair = surveys.data ? comparedSurveys(surveys.data.surveys, loggedAt) : null;
  const changes = useImageryChangesQuery(
    point && pair ? { ...point, from: pair.from.id, to: pair.to.id } : { lat: 0, lng: 0, from: 1, to: 1 },
    { skip: !point || !pair },
  );
  const failure = surveys.error ?? changes.error;
  useEffect(() => {
    if (failure) console.error(TEXT.logged, point, failure);
  }, [failure, point]);

  const fromDate = pair ? formatSaDate(pair.from.capturedOn) : '';
  const toDate = pair ? formatSaDate(pair.to.capturedOn) : '';
  const lines = changes.data ? changeLines(changes.data) : [];
  const note = (text: string) => (
    <Typography variant="body2" color="text.secondary">
      {text}
    </Typography>
  );
  return (
    <Box component="section" aria-labelledby="survey-changes-title">
      <Typography id="survey-changes-title" variant="h3" sx={{ fontSize: 16, fontWeight: 600, mb: 1 }}>
        {TEXT.title}
      </Typography>
      {!point && note(TEXT.noLocation)}
      {(surveys.isLoading || changes.isLoading) && <LinearProgress aria-label={TEXT.loading} />}
      {failure && note(TEXT.unknown)}
      {surveys.data && surveys.data.surveys.length === 0 && note(TEXT.noSurvey)}
      {surveys.data?.surveys.length === 1 &&
        note(TEXT.oneSurvey(formatSaDate(surveys.data.surveys[0].capturedOn)))}
      {pair && !failure && note(TEXT.comparing(fromDate, toDate))}
      {changes.data && changes.data.parcelId === null && note(TEXT.noParcel)}
      {changes.data && changes.data.parcelId !== null && lines.length === 0 && (
        <Typography variant="body2">{TEXT.noChanges}</Typography>
      )}
      {lines.length > 0 && (
        <Table size="small" aria-label={TEXT.tableLabel(fromDate, toDate)} sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell scope="col">{TEXT.change}</TableCell>
              <TableCell scope="col">{TEXT.building}</TableCell>
              <TableCell scope="col" align="right">
                {TEXT.areaOn(fromDate)}
              </TableCell>
              <TableCell scope="col" align="right">
                {TEXT.areaOn(toDate)}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map(({ kind, building }) => (
              <TableRow key={`${kind}-${building.buildingId}`}>
                <TableCell component="th" scope="row">
                  {TEXT.kinds[kind]}
                </TableCell>
                <TableCell>{kindName(building.kind)}</TableCell>
                <TableCell align="right">{formatAreaM2(building.areaFromM2)}</TableCell>
                <TableCell align="right">{formatAreaM2(building.areaToM2)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
