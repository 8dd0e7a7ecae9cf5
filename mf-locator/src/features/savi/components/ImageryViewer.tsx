import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import type { LatLng, ObliqueCamera, Orientation } from '@portal/contracts';
import { CaptureDate, ObliqueHeightTool, type MeasurementDraft } from '@portal/web-kit/imagery';
import { IMAGERY_RETRIES, VIEWER_ZOOM } from '../../../config';
import { IMAGERY_TEXT, PICTURE_TOOLS_TEXT } from '../../../texts';
import { stepZoom } from '../pictureView';

export interface ImageryViewerProps {
  urls: Partial<Record<Orientation, string>>;
  /** The pictures' capture date, printed on each (issue 21). */
  capturedOn?: string | null;
  /** The camera of each picture: an oblique with one offers 'Measure a height'. */
  cameras?: Partial<Record<Orientation, ObliqueCamera>>;
  point?: LatLng;
  surveyId?: number | null;
  /** A height was measured on an oblique. */
  onMeasured?: (draft: MeasurementDraft) => void;
}

/**
 * The oblique (n, e, s, w) and ortho viewer: one image at a time, zoomed in steps of 0.2 within 0.2–4, its
 * capture date printed on it; on an oblique, 'Measure a height' swaps the picture for the height tool.
 */
export function ImageryViewer({
  urls,
  capturedOn = null,
  cameras = {},
  point,
  surveyId = null,
  onMeasured,
}: ImageryViewerProps) {
  const orientations = (['n', 'e', 's', 'w', 'o'] as const).filter((orientation) => urls[orientation]);
  const [shown, setShown] = useState<Orientation>(orientations[0] ?? 'o');
  const [zoom, setZoom] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [measuringHeight, setMeasuringHeight] = useState(false);
  const url = urls[shown];
  if (!url) return null;
  const camera = cameras[shown];
  const canMeasureHeight = shown !== 'o' && !!camera && !!onMeasured && !!point;
  // A failed render is retried with a fresh URL up to IMAGERY_RETRIES times (spec 01 §9).
  const failed = attempt > IMAGERY_RETRIES;
  const src = attempt === 0 ? url : `${url}${url.includes('?') ? '&' : '?'}retry=${attempt}`;
  return (
    <Stack spacing={1} sx={{ height: '100%' }} data-testid="imagery-viewer">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Tabs
          value={shown}
          onChange={(_event, value: Orientation) => {
            setShown(value);
            setAttempt(0);
            if (value === 'o') setMeasuringHeight(false);
          }}
          variant="scrollable"
        >
          {orientations.map((orientation) => (
            <Tab key={orientation} value={orientation} label={IMAGERY_TEXT.orientation[orientation]} />
          ))}
        </Tabs>
        {canMeasureHeight && (
          <ToggleButton
            value="height"
            size="small"
            selected={measuringHeight}
            onChange={() => setMeasuringHeight((value) => !value)}
          >
            {PICTURE_TOOLS_TEXT.measureHeight}
          </ToggleButton>
        )}
        <ButtonGroup size="small">
          <Button
            aria-label={IMAGERY_TEXT.zoomOut}
            disabled={zoom <= VIEWER_ZOOM.min}
            onClick={() => setZoom((value) => stepZoom(value, -1))}
          >
            −
          </Button>
          <Button disabled>{`${Math.round(zoom * 100)}%`}</Button>
          <Button
            aria-label={IMAGERY_TEXT.zoomIn}
            disabled={zoom >= VIEWER_ZOOM.max}
            onClick={() => setZoom((value) => stepZoom(value, 1))}
          >
            +
          </Button>
        </ButtonGroup>
      </Stack>
      {canMeasureHeight && measuringHeight ? (
        <ObliqueHeightTool
          key={`${shown}-${url}`}
          imageUrl={url}
          camera={camera}
          point={point}
          surveyId={surveyId}
          capturedOn={capturedOn}
          orientationName={IMAGERY_TEXT.orientation[shown]}
          onMeasured={onMeasured}
        />
      ) : (
        <Box sx={{ position: 'relative', flex: 1, minHeight: 200 }}>
          <Box sx={{ position: 'absolute', inset: 0, overflow: 'auto', bgcolor: 'grey.900' }}>
            {failed ? (
              <Typography sx={{ color: 'common.white', p: 2 }}>{IMAGERY_TEXT.obliqueMissing}</Typography>
            ) : (
              <Box
                component="img"
                key={src}
                src={src}
                alt={IMAGERY_TEXT.orientation[shown]}
                onError={() => setAttempt((value) => value + 1)}
                sx={{
                  transform: `scale(${zoom})`,
                  transformOrigin: 'top left',
                  display: 'block',
                  maxWidth: '100%',
                }}
              />
            )}
          </Box>
          <CaptureDate capturedOn={capturedOn} overlay />
        </Box>
      )}
    </Stack>
  );
}
