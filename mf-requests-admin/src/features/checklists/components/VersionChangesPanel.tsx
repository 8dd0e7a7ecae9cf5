import { useEffect } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { VersionChanges } from '@portal/contracts';
import { formatMoney } from '@portal/domain';
import { useReportVersionsQuery } from '../../../api/requestsApi';

/** The report's details as the versions name them (services/reportbuilder versions.ts). */
const DETAIL_NAMES: Record<string, string> = {
  location: 'Location',
  suburbTownCity: 'Suburb, town or city',
  comments: 'Comments',
  note: 'Note',
  extraField: 'Extra field',
};

const money = (rand: number | null) => (rand === null ? '—' : `R ${formatMoney(rand)}`);

/** True when the comparison found anything (a grand total equal before and after is no change). */
export const hasChanges = (changes: VersionChanges) =>
  changes.sectionsAdded.length > 0 ||
  changes.sectionsRemoved.length > 0 ||
  changes.sectionsChanged.length > 0 ||
  changes.detailsChanged.length > 0 ||
  changes.grandTotalBefore !== changes.grandTotalAfter;

function ChangesList({ changes, label }: { changes: VersionChanges; label: string }) {
  if (!hasChanges(changes)) return <Typography variant="body2">No changes.</Typography>;
  const lines: [string, string][] = [
    ['Sections added', changes.sectionsAdded.join(', ')],
    ['Sections removed', changes.sectionsRemoved.join(', ')],
    ['Sections changed', changes.sectionsChanged.join(', ')],
    ['Details changed', changes.detailsChanged.map((key) => DETAIL_NAMES[key] ?? key).join(', ')],
  ];
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, pl: 3 }}>
      {lines
        .filter(([, value]) => value !== '')
        .map(([name, value]) => (
          <li key={name}>
            <Typography variant="body2">{`${name}: ${value}`}</Typography>
          </li>
        ))}
      <li>
        <Typography variant="body2">
          {`Grand total: ${money(changes.grandTotalBefore)} → ${money(changes.grandTotalAfter)}`}
        </Typography>
      </li>
    </Box>
  );
}

/**
 * Issue 13 "Beyond the spec": what changed in the report since the last submitted version — the newest
 * submission against the one before it, and any edit made after the newest submission. A failed load is
 * only logged (spec 02 §8): the panel then says nothing is known.
 */
export function VersionChangesPanel({ requestID }: { requestID: string }) {
  const answer = useReportVersionsQuery(requestID, { skip: !requestID });
  useEffect(() => {
    if (answer.isError)
      console.error('[requests-admin] the report versions could not be loaded', requestID, answer.error);
  }, [answer.isError, answer.error, requestID]);
  const versions = answer.data?.versions ?? [];
  const [newest, previous] = versions;
  const sinceLast = answer.data?.sinceLast ?? null;
  return (
    <Box component="section" aria-labelledby="version-changes-title">
      <Typography id="version-changes-title" variant="h3" sx={{ fontSize: 16, fontWeight: 600, mb: 1 }}>
        Changes since the last submitted version
      </Typography>
      {answer.isLoading && <LinearProgress aria-label="Loading the report versions" />}
      {answer.isError && (
        <Typography variant="body2" color="text.secondary">
          Nothing is known about earlier versions.
        </Typography>
      )}
      {answer.data && !previous && <Typography variant="body2">First submission</Typography>}
      {answer.data && newest && previous && (
        <>
          <Typography variant="body2" color="text.secondary">
            {`Version ${newest.number} against version ${previous.number}`}
          </Typography>
          <ChangesList changes={newest.changes} label={`Changes in version ${newest.number}`} />
        </>
      )}
      {newest && sinceLast && hasChanges(sinceLast) && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {`Edited since version ${newest.number} was submitted`}
          </Typography>
          <ChangesList changes={sinceLast} label={`Changes since version ${newest.number}`} />
        </>
      )}
    </Box>
  );
}
