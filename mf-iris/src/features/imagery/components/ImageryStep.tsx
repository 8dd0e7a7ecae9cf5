import { useState } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import { ImageryCompare, SurveyTimeline } from '@portal/web-kit/imagery';
import { TEXT } from '../../../texts';
import { useAerialViews } from '../useAerialViews';
import { AerialPicker } from './AerialPicker';
import { OrthoMeasure } from './OrthoMeasure';

export type ImageryMode = 'views' | 'compare' | 'measure';

/**
 * The report's imagery step (spec 03 §4; issue 21): the survey timeline (the newest at the point first,
 * older ones a step back), and three ways of looking — the five views of the survey shown, one of which
 * goes into the PDF with its capture date; two surveys compared (side by side or swiped, the changed
 * buildings outlined and listed); and measuring on the ortho. The views' status and default picture are
 * posted once, whatever the user does next.
 */
export function ImageryStep({
  reportId,
  requestId,
  point,
}: {
  reportId: string;
  requestId: string;
  point: LatLng;
}) {
  const [survey, setSurvey] = useState<number | null>(null);
  const [mode, setMode] = useState<ImageryMode>('views');
  const views = useAerialViews(reportId, point, survey);
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label={TEXT.aerial}
      sx={{ p: 2, gridColumn: '1 / -1' }}
      data-testid="iris-imagery"
    >
      <Stack spacing={1.5}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Typography variant="h6" component="h2">
            {TEXT.aerial}
          </Typography>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={mode}
            onChange={(_event, next: ImageryMode | null) => next && setMode(next)}
            aria-label={TEXT.imageryMode}
          >
            <ToggleButton value="views">{TEXT.modeViews}</ToggleButton>
            <ToggleButton value="compare">{TEXT.modeCompare}</ToggleButton>
            <ToggleButton value="measure">{TEXT.modeMeasure}</ToggleButton>
          </ToggleButtonGroup>
        </Stack>
        {mode !== 'compare' && (
          <SurveyTimeline point={point} value={survey} onChange={(picked) => setSurvey(picked.id)} />
        )}
        {mode === 'views' && <AerialPicker views={views} />}
        {mode === 'compare' && <ImageryCompare point={point} />}
        {mode === 'measure' && <OrthoMeasure requestId={requestId} point={point} surveyId={survey} />}
      </Stack>
    </Paper>
  );
}
