import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { Orientation } from '@portal/contracts';
import { IMAGERY_RETRIES, VIEWER_ZOOM } from '../../../config';
import { IMAGERY_TEXT } from '../../../texts';
import { stepZoom } from '../pictureView';

/** The oblique (n, e, s, w) and ortho viewer: one image at a time, zoomed in steps of 0.2 within 0.2–4. */
export function ImageryViewer({ urls }: { urls: Partial<Record<Orientation, string>> }) {
  const orientations = (['n', 'e', 's', 'w', 'o'] as const).filter((orientation) => urls[orientation]);
  const [shown, setShown] = useState<Orientation>(orientations[0] ?? 'o');
  const [zoom, setZoom] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const url = urls[shown];
  if (!url) return null;
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
          }}
          variant="scrollable"
        >
          {orientations.map((orientation) => (
            <Tab key={orientation} value={orientation} label={IMAGERY_TEXT.orientation[orientation]} />
          ))}
        </Tabs>
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
      <Box sx={{ flex: 1, overflow: 'auto', bgcolor: 'grey.900', minHeight: 200 }}>
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
    </Stack>
  );
}
