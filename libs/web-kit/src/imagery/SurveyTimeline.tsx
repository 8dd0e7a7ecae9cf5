import { useId, useRef, type KeyboardEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng, Survey } from '@portal/contracts';
import { formatCapturedOn } from './CaptureDate';
import { useSurveysQuery } from './imageryApi';
import { surveyIndexAfterKey } from './surveyKeys';
import { TIMELINE_TEXT } from './texts';

export interface SurveyTimelineProps {
  /** The point whose surveys are listed. */
  point: LatLng;
  /** The survey shown; null: the newest at the point (what the spec's calls answer from). */
  value: number | null;
  /** A survey was chosen (click, or arrow keys / Home / End within the timeline). */
  onChange: (survey: Survey) => void;
  /** The group's accessible name (default 'Imagery surveys'); give one per timeline when a page has two. */
  label?: string;
  /** Surveys to offer instead of asking the service (a caller that already has them). */
  surveys?: readonly Survey[];
  /** Surveys that may not be chosen (compare mode: the other side's). */
  disabledIds?: readonly number[];
}

/**
 * The surveys at a point, newest first, as one radio group (WAI-ARIA: one tab stop, the arrow keys move
 * and choose, Home / End jump to the newest / oldest); the current survey is named with its date above.
 */
export function SurveyTimeline({
  point,
  value,
  onChange,
  label = TIMELINE_TEXT.label,
  surveys: given,
  disabledIds = [],
}: SurveyTimelineProps) {
  const query = useSurveysQuery({ lat: point.lat, lng: point.lng }, { skip: !!given });
  const surveys = given ?? query.data?.surveys ?? [];
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const headingId = useId();

  if (!given && query.isLoading)
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CircularProgress size={16} aria-label={TIMELINE_TEXT.loading} />
      </Stack>
    );
  if (!given && query.isError) return <Alert severity="warning">{TIMELINE_TEXT.failed}</Alert>;
  if (surveys.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {TIMELINE_TEXT.none}
      </Typography>
    );

  const found = surveys.findIndex((survey) => survey.id === value);
  const currentIndex = found === -1 ? 0 : found;
  const current = surveys[currentIndex];

  const choose = (index: number) => {
    const survey = surveys[index];
    if (!survey || disabledIds.includes(survey.id)) return;
    onChange(survey);
    buttons.current[index]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    let next = surveyIndexAfterKey(surveys.length, currentIndex, event.key);
    if (next === null) return;
    event.preventDefault();
    // Step over surveys that may not be chosen, in the key's direction.
    const step = next > currentIndex ? 1 : -1;
    while (next >= 0 && next < surveys.length && disabledIds.includes(surveys[next].id)) next += step;
    if (next >= 0 && next < surveys.length) choose(next);
  };

  return (
    <Stack spacing={0.5}>
      <Typography variant="subtitle2" id={headingId}>
        {label}: {TIMELINE_TEXT.current(formatCapturedOn(current.capturedOn))}
        {currentIndex === 0 ? ` (${TIMELINE_TEXT.newest})` : ''}
      </Typography>
      <Box
        role="radiogroup"
        aria-labelledby={headingId}
        onKeyDown={onKeyDown}
        data-testid="survey-timeline"
        sx={{ display: 'flex', gap: 0.5, overflowX: 'auto', pb: 0.5 }}
      >
        {surveys.map((survey, index) => {
          const checked = index === currentIndex;
          const date = formatCapturedOn(survey.capturedOn);
          const kind = TIMELINE_TEXT.kind[survey.kind] ?? survey.kind;
          return (
            <Button
              key={survey.id}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              role="radio"
              aria-checked={checked}
              aria-label={TIMELINE_TEXT.option(date, kind, survey.provider)}
              aria-disabled={disabledIds.includes(survey.id) || undefined}
              title={TIMELINE_TEXT.option(date, kind, survey.provider)}
              tabIndex={checked ? 0 : -1}
              size="small"
              variant={checked ? 'contained' : 'outlined'}
              onClick={() => choose(index)}
              sx={{ minWidth: 64, flexShrink: 0, opacity: disabledIds.includes(survey.id) ? 0.5 : 1 }}
            >
              {survey.capturedOn.slice(0, 4)}
            </Button>
          );
        })}
      </Box>
    </Stack>
  );
}
