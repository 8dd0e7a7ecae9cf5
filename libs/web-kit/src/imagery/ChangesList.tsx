import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { BuildingChange, ChangesAnswer } from '@portal/contracts';
import { formatCapturedOn } from './CaptureDate';
import { formatArea } from './measureFigures';
import { CHANGE_COLOURS } from './measureStyles';
import { CHANGES_TEXT } from './texts';

export interface ChangesListProps {
  /** The changes answer; undefined while loading. */
  changes: ChangesAnswer | undefined;
  loading?: boolean;
  failed?: boolean;
  /** Heading level of the list's title (default h3). */
  headingComponent?: 'h2' | 'h3' | 'h4';
}

interface Row {
  change: BuildingChange;
  group: 'added' | 'removed' | 'changed';
  title: string;
}

const area = (value: number | null) => (value === null ? '—' : formatArea(value));

/** One line per building: what it is and its area at each date ("Extended: House, 120.0 m² → 168.5 m²"). */
export function changeRows(changes: ChangesAnswer): Row[] {
  const grown = (change: BuildingChange) => (change.areaToM2 ?? 0) >= (change.areaFromM2 ?? 0);
  return [
    ...changes.added.map((change) => ({ change, group: 'added' as const, title: CHANGES_TEXT.added })),
    ...changes.removed.map((change) => ({ change, group: 'removed' as const, title: CHANGES_TEXT.removed })),
    ...changes.changed.map((change) => ({
      change,
      group: 'changed' as const,
      title: grown(change) ? CHANGES_TEXT.changed : CHANGES_TEXT.reduced,
    })),
  ];
}

/** What changed on the parcel between two surveys, with the areas at both dates, coloured as on the map. */
export function ChangesList({
  changes,
  loading = false,
  failed = false,
  headingComponent = 'h3',
}: ChangesListProps) {
  if (failed) return <Alert severity="warning">{CHANGES_TEXT.failed}</Alert>;
  if (loading || !changes)
    return (
      <Typography variant="body2" color="text.secondary">
        {CHANGES_TEXT.loading}
      </Typography>
    );
  const title = CHANGES_TEXT.title(
    formatCapturedOn(changes.from.capturedOn),
    formatCapturedOn(changes.to.capturedOn),
  );
  const rows = changeRows(changes);
  return (
    <Stack spacing={0.5} component="section" aria-label={title} data-testid="changes-list">
      <Typography variant="subtitle2" component={headingComponent}>
        {title}
      </Typography>
      {changes.parcelId === null ? (
        <Typography variant="body2" color="text.secondary">
          {CHANGES_TEXT.noParcel}
        </Typography>
      ) : rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {CHANGES_TEXT.none}
        </Typography>
      ) : (
        <List dense disablePadding>
          {rows.map(({ change, group, title: what }) => (
            <ListItem key={`${group}-${change.buildingId}`} disableGutters data-change={group}>
              <Box
                aria-hidden
                sx={{
                  width: 12,
                  height: 12,
                  mr: 1,
                  flexShrink: 0,
                  borderRadius: 0.5,
                  bgcolor: CHANGE_COLOURS[group],
                }}
              />
              <ListItemText
                primary={`${what}: ${CHANGES_TEXT.building(change.kind)}`}
                secondary={
                  group === 'added'
                    ? area(change.areaToM2)
                    : group === 'removed'
                      ? area(change.areaFromM2)
                      : CHANGES_TEXT.areaChange(area(change.areaFromM2), area(change.areaToM2))
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
