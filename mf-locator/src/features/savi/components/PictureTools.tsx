import { useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import {
  ImageryCompare,
  MeasurementList,
  OrthoSurveyMap,
  SurveyTimeline,
  type ListedDraft,
  type MeasurementDraft,
} from '@portal/web-kit/imagery';
import { IMAGERY_TEXT, PICTURE_TOOLS_TEXT } from '../../../texts';
import type { PictureView } from '../usePictureView';
import { ImageryViewer } from './ImageryViewer';

type ToolView = 'pictures' | 'measure' | 'compare';

export interface PictureToolsProps {
  picture: PictureView;
  point: LatLng;
  /** The parcel's GeoJSON geometry: outlined on the ortho and snapped to. */
  parcel?: unknown;
  drafts: readonly ListedDraft[];
  /** A measurement was made (or an ortho one edited: the same `key`). */
  onMeasured: (draft: MeasurementDraft & { key?: string }) => void;
  onDeleteDraft: (key: string) => void;
}

/**
 * The picture view's body (spec 01 §4 with issue 21): the survey timeline to step back, then the pictures
 * (capture date printed, a height measurable on an oblique), the ortho to measure on, or the comparison of
 * two surveys; the measurements made so far, which travel with the request.
 */
export function PictureTools({
  picture,
  point,
  parcel,
  drafts,
  onMeasured,
  onDeleteDraft,
}: PictureToolsProps) {
  const [view, setView] = useState<ToolView>('pictures');
  return (
    <Stack spacing={1} sx={{ height: '100%', minHeight: 0 }} data-testid="picture-tools">
      <SurveyTimeline
        point={point}
        value={picture.surveyId}
        onChange={(survey) => void picture.chooseSurvey(survey)}
      />
      <Tabs
        value={view}
        onChange={(_event, value: ToolView) => setView(value)}
        aria-label={PICTURE_TOOLS_TEXT.views}
        variant="scrollable"
      >
        <Tab value="pictures" label={PICTURE_TOOLS_TEXT.pictures} />
        <Tab value="measure" label={PICTURE_TOOLS_TEXT.measure} />
        <Tab value="compare" label={PICTURE_TOOLS_TEXT.compare} />
      </Tabs>
      <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        {picture.loading ? (
          <Stack sx={{ alignItems: 'center', p: 2 }}>
            <CircularProgress aria-label={IMAGERY_TEXT.loading} />
          </Stack>
        ) : view === 'pictures' ? (
          <ImageryViewer
            urls={picture.urls}
            capturedOn={picture.capturedOn}
            cameras={picture.cameras}
            point={point}
            surveyId={picture.surveyId}
            onMeasured={onMeasured}
          />
        ) : view === 'measure' ? (
          <Stack spacing={1}>
            <Typography variant="body2" color="text.secondary">
              {PICTURE_TOOLS_TEXT.measureHint}
            </Typography>
            <OrthoSurveyMap
              point={point}
              surveyId={picture.surveyId}
              parcel={parcel}
              measure
              onMeasured={onMeasured}
              height={420}
            />
          </Stack>
        ) : (
          <ImageryCompare point={point} parcel={parcel} height={300} />
        )}
      </Box>
      <MeasurementList drafts={drafts} onDelete={onDeleteDraft} headingComponent="h2" />
    </Stack>
  );
}
