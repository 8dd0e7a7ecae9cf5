import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Measurement } from '@portal/contracts';
import { formatSaDateTime } from '@portal/domain';
import { formatCapturedOn } from './CaptureDate';
import { useDeleteMeasurementMutation, useMeasurementsQuery } from './imageryApi';
import { formatLength, formatMeasuredValue, type MeasurementDraft } from './measureFigures';
import { MEASURE_TEXT, MEASUREMENT_LIST_TEXT } from './texts';

export type ListedDraft = MeasurementDraft & { key?: string };

export interface MeasurementListProps {
  /** The request whose saved measurements are listed (GET …/measurements). */
  requestId?: string;
  /** Measurements not saved yet (made in /savi before logging), listed after the saved ones. */
  drafts?: readonly ListedDraft[];
  /** Removes a draft (its `key`, else its index as a string); without it drafts have no Delete button. */
  onDelete?: (key: string) => void;
  /** Saved measurements get a Delete button (staff; the service checks). */
  canDeleteSaved?: boolean;
  /** Heading level of the title (default h3). */
  headingComponent?: 'h2' | 'h3' | 'h4';
}

/** What a saved measurement reads: "148.2 m² · perimeter 52.10 m". */
export function savedMeasurementText(measurement: Measurement): string {
  const value = formatMeasuredValue(measurement.value, measurement.unit);
  return measurement.perimeterM !== null
    ? `${value} · ${MEASUREMENT_LIST_TEXT.perimeter(formatLength(measurement.perimeterM))}`
    : value;
}

/** The second line of a saved measurement: its survey's capture date, who measured and when. */
export const savedMeasurementByline = (measurement: Measurement): string =>
  `${MEASUREMENT_LIST_TEXT.survey(formatCapturedOn(measurement.capturedOn))} · ${MEASUREMENT_LIST_TEXT.by(
    measurement.createdBy.email,
    formatSaDateTime(measurement.createdAt),
  )}`;

/**
 * A request's measurements: kind and label, value with its unit, the survey's capture date, who measured
 * and when; then the drafts not saved yet.
 */
export function MeasurementList({
  requestId,
  drafts = [],
  onDelete,
  canDeleteSaved = false,
  headingComponent = 'h3',
}: MeasurementListProps) {
  const saved = useMeasurementsQuery(requestId ?? '', { skip: !requestId });
  const [remove, removal] = useDeleteMeasurementMutation();
  const measurements = saved.data?.measurements ?? [];
  const empty = measurements.length === 0 && drafts.length === 0;

  return (
    <Stack
      spacing={0.5}
      component="section"
      aria-label={MEASUREMENT_LIST_TEXT.title}
      data-testid="measurement-list"
    >
      <Typography variant="subtitle2" component={headingComponent}>
        {MEASUREMENT_LIST_TEXT.title}
      </Typography>
      {saved.isError && <Alert severity="warning">{MEASUREMENT_LIST_TEXT.failed}</Alert>}
      {requestId && saved.isLoading ? (
        <Typography variant="body2" color="text.secondary">
          {MEASUREMENT_LIST_TEXT.loading}
        </Typography>
      ) : empty ? (
        <Typography variant="body2" color="text.secondary">
          {MEASUREMENT_LIST_TEXT.none}
        </Typography>
      ) : (
        <List dense disablePadding>
          {measurements.map((measurement) => {
            const name = measurement.label || MEASURE_TEXT.kind[measurement.kind];
            return (
              <ListItem
                key={measurement.id}
                disableGutters
                data-measurement-id={measurement.id}
                secondaryAction={
                  canDeleteSaved && requestId ? (
                    <Button
                      size="small"
                      color="error"
                      disabled={removal.isLoading}
                      aria-label={MEASUREMENT_LIST_TEXT.delete(name)}
                      onClick={() => void remove({ requestId, measurementId: measurement.id })}
                    >
                      ✕
                    </Button>
                  ) : undefined
                }
              >
                <ListItemText
                  primary={`${name}: ${savedMeasurementText(measurement)}`}
                  secondary={savedMeasurementByline(measurement)}
                />
              </ListItem>
            );
          })}
          {drafts.map((draft, index) => {
            const key = draft.key ?? String(index);
            const name = draft.label || MEASURE_TEXT.kind[draft.kind];
            return (
              <ListItem
                key={`draft-${key}`}
                disableGutters
                data-draft-key={key}
                secondaryAction={
                  onDelete ? (
                    <Button
                      size="small"
                      color="error"
                      aria-label={MEASUREMENT_LIST_TEXT.delete(name)}
                      onClick={() => onDelete(key)}
                    >
                      ✕
                    </Button>
                  ) : undefined
                }
              >
                <ListItemText
                  primary={`${name}: ${draft.text}`}
                  secondary={[
                    draft.capturedOn
                      ? MEASUREMENT_LIST_TEXT.survey(formatCapturedOn(draft.capturedOn))
                      : null,
                    MEASUREMENT_LIST_TEXT.notSaved,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              </ListItem>
            );
          })}
        </List>
      )}
    </Stack>
  );
}
