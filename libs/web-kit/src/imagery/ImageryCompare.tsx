import { useEffect, useId, useRef, useState } from 'react';
import type OlMap from 'ol/Map';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import { ChangesList } from './ChangesList';
import { useChangesQuery, useSurveysQuery } from './imageryApi';
import { OrthoSurveyMap } from './OrthoSurveyMap';
import { SurveyTimeline } from './SurveyTimeline';
import { COMPARE_TEXT } from './texts';

export type CompareLayout = 'side-by-side' | 'swipe';

export interface ImageryCompareProps {
  point: LatLng;
  /** The parcel's GeoJSON geometry, outlined on both pictures. */
  parcel?: unknown;
  /** The surveys compared at first (default: the second newest and the newest). */
  initialBefore?: number;
  initialAfter?: number;
  /** Default 'side-by-side'. */
  initialLayout?: CompareLayout;
  /** Each map's height (default 360 px). */
  height?: number | string;
}

/**
 * Compare mode (issue 21): two survey pickers (before, after), the two pictures side by side with one
 * shared view (panning or zooming either moves both) or as a swipe over one map (the later picture left of
 * a keyboard-operable slider), the changed buildings outlined (added green, removed red, extended orange)
 * and listed with their areas.
 */
export function ImageryCompare({
  point,
  parcel,
  initialBefore,
  initialAfter,
  initialLayout = 'side-by-side',
  height = 360,
}: ImageryCompareProps) {
  const surveys = useSurveysQuery({ lat: point.lat, lng: point.lng });
  const list = surveys.data?.surveys ?? [];
  const [before, setBefore] = useState<number | null>(initialBefore ?? null);
  const [after, setAfter] = useState<number | null>(initialAfter ?? null);
  const [layout, setLayout] = useState<CompareLayout>(initialLayout);
  const [share, setShare] = useState(50);
  const swipeLabelId = useId();
  const beforeId = before ?? list[1]?.id ?? null;
  const afterId = after ?? list[0]?.id ?? null;
  const comparable = beforeId !== null && afterId !== null && beforeId !== afterId;
  const changes = useChangesQuery(
    { lat: point.lat, lng: point.lng, from: beforeId ?? 0, to: afterId ?? 0 },
    { skip: !comparable },
  );

  // Side by side: the second map shares the first one's view.
  const maps = useRef<{ before?: OlMap; after?: OlMap }>({});
  const share2 = () => {
    const { before: first, after: second } = maps.current;
    if (first && second && second.getView() !== first.getView()) second.setView(first.getView());
  };
  useEffect(() => {
    maps.current = {};
  }, [layout]);

  if (surveys.isSuccess && list.length < 2) return <Alert severity="info">{COMPARE_TEXT.needTwo}</Alert>;
  if (!surveys.isSuccess) return <SurveyTimeline point={point} value={null} onChange={() => {}} />;

  return (
    <Stack spacing={1.5} component="section" aria-label={COMPARE_TEXT.title} data-testid="imagery-compare">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <SurveyTimeline
            point={point}
            surveys={list}
            value={beforeId}
            onChange={(survey) => setBefore(survey.id)}
            label={COMPARE_TEXT.before}
            disabledIds={afterId !== null ? [afterId] : []}
          />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <SurveyTimeline
            point={point}
            surveys={list}
            value={afterId}
            onChange={(survey) => setAfter(survey.id)}
            label={COMPARE_TEXT.after}
            disabledIds={beforeId !== null ? [beforeId] : []}
          />
        </Box>
      </Stack>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={layout}
        onChange={(_event, value: CompareLayout | null) => value && setLayout(value)}
        aria-label={COMPARE_TEXT.layout}
      >
        <ToggleButton value="side-by-side">{COMPARE_TEXT.sideBySide}</ToggleButton>
        <ToggleButton value="swipe">{COMPARE_TEXT.swipe}</ToggleButton>
      </ToggleButtonGroup>
      {!comparable && <Alert severity="info">{COMPARE_TEXT.pickTwo}</Alert>}
      {comparable && layout === 'side-by-side' && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <OrthoSurveyMap
              key={`before-${beforeId}`}
              point={point}
              surveyId={beforeId}
              parcel={parcel}
              buildings={false}
              height={height}
              onMapReady={(map) => {
                maps.current.before = map;
                share2();
              }}
            />
          </Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <OrthoSurveyMap
              key={`after-${afterId}`}
              point={point}
              surveyId={afterId}
              parcel={parcel}
              buildings={false}
              changes={changes.data}
              height={height}
              onMapReady={(map) => {
                maps.current.after = map;
                share2();
              }}
            />
          </Box>
        </Stack>
      )}
      {comparable && layout === 'swipe' && (
        <Stack spacing={0.5}>
          <OrthoSurveyMap
            point={point}
            surveyId={beforeId}
            parcel={parcel}
            buildings={false}
            changes={changes.data}
            swipe={{ surveyId: afterId, share: share / 100 }}
            height={height}
          />
          <Typography variant="caption" id={swipeLabelId}>
            {COMPARE_TEXT.swipePosition}
          </Typography>
          <Slider
            value={share}
            onChange={(_event, value) => setShare(value as number)}
            min={0}
            max={100}
            step={1}
            shiftStep={10}
            aria-labelledby={swipeLabelId}
            getAriaValueText={(value) => COMPARE_TEXT.swipeValue(value)}
            data-testid="swipe-slider"
          />
        </Stack>
      )}
      {comparable && (
        <ChangesList changes={changes.data} loading={changes.isFetching} failed={changes.isError} />
      )}
    </Stack>
  );
}
