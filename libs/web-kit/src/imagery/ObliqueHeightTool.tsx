import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng, ObliqueCamera } from '@portal/contracts';
import { CaptureDate } from './CaptureDate';
import { formatLength, type MeasurementDraft } from './measureFigures';
import {
  heightDraft,
  heightOfPicks,
  initialPicks,
  pickAt,
  picksAfterKey,
  type HeightPicks,
  type Pixel,
} from './obliqueHeight';
import { HEIGHT_TEXT } from './texts';

export interface ObliqueHeightToolProps {
  /** The oblique picture. */
  imageUrl: string;
  /** The camera it was taken with (ImageUrlAnswer.camera). */
  camera: ObliqueCamera;
  /** A height was read (the top picked above the base). */
  onMeasured: (draft: MeasurementDraft) => void;
  /** The picture's point (where the height was read; the draft's geometry). Default: none given, 0, 0. */
  point?: LatLng;
  surveyId?: number | null;
  capturedOn?: string | null;
  /** The orientation's name, for the picture's accessible name ("North"). */
  orientationName?: string;
}

const percent = (value: number, of: number) => `${(value / of) * 100}%`;

/**
 * Height on an oblique (issue 21): the user picks the base and then the top of a wall on the picture, by
 * click or keyboard (the picture is a tab stop: arrows move a cross, Enter picks, Escape starts again);
 * the height follows from the camera (libs/domain heightFromPicks) and is emitted as a 'height' draft.
 */
export function ObliqueHeightTool({
  imageUrl,
  camera,
  onMeasured,
  point = { lat: 0, lng: 0 },
  surveyId = null,
  capturedOn = null,
  orientationName = '',
}: ObliqueHeightToolProps) {
  const [picks, setPicks] = useState<HeightPicks>(() => initialPicks(camera));
  const [announcement, setAnnouncement] = useState(HEIGHT_TEXT.pickBase);
  const pictureRef = useRef<HTMLDivElement>(null);
  const instructionsId = useId();
  const result = heightOfPicks(picks, camera);
  const oblique = camera.orientation !== 'o';

  const apply = (next: HeightPicks) => {
    setPicks(next);
    if (!next.base) return setAnnouncement(HEIGHT_TEXT.pickBase);
    if (!next.top) return next.base !== picks.base ? setAnnouncement(HEIGHT_TEXT.pickTop) : undefined;
    if (next.top === picks.top) return undefined;
    const outcome = heightOfPicks(next, camera);
    if (outcome && 'height' in outcome) {
      setAnnouncement(HEIGHT_TEXT.picked(formatLength(outcome.height)));
      onMeasured(
        heightDraft({ camera, base: next.base, top: next.top }, outcome.height, {
          point,
          surveyId,
          capturedOn,
        }),
      );
    } else setAnnouncement(HEIGHT_TEXT.topBelowBase);
    return undefined;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const next = picksAfterKey(picks, camera, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    apply(next);
  };

  const onClick = (event: MouseEvent) => {
    const box = pictureRef.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return;
    const at: Pixel = [
      ((event.clientX - box.left) / box.width) * camera.width,
      ((event.clientY - box.top) / box.height) * camera.height,
    ];
    apply(pickAt(picks, at));
  };

  if (!oblique) return <Alert severity="info">{HEIGHT_TEXT.notOblique}</Alert>;

  const marker = (at: Pixel, colour: string, testId: string) => (
    <Box
      aria-hidden
      data-testid={testId}
      sx={{
        position: 'absolute',
        left: percent(at[0], camera.width),
        top: percent(at[1], camera.height),
        width: 12,
        height: 12,
        ml: '-6px',
        mt: '-6px',
        borderRadius: '50%',
        border: '2px solid #000',
        bgcolor: colour,
        pointerEvents: 'none',
      }}
    />
  );

  return (
    <Stack spacing={1} data-testid="oblique-height-tool">
      <Typography variant="subtitle2">{HEIGHT_TEXT.title}</Typography>
      <Typography variant="caption" id={instructionsId}>
        {HEIGHT_TEXT.instructions}
      </Typography>
      <Box
        ref={pictureRef}
        role="application"
        tabIndex={0}
        aria-label={HEIGHT_TEXT.picture(orientationName)}
        aria-describedby={instructionsId}
        onKeyDown={onKeyDown}
        onClick={onClick}
        sx={{
          position: 'relative',
          width: '100%',
          aspectRatio: `${camera.width} / ${camera.height}`,
          cursor: 'crosshair',
          '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <Box
          component="img"
          src={imageUrl}
          alt=""
          draggable={false}
          sx={{ width: '100%', height: '100%', display: 'block', userSelect: 'none' }}
        />
        {picks.base && picks.top && (
          <Box
            aria-hidden
            sx={{
              position: 'absolute',
              left: percent(picks.base[0], camera.width),
              top: percent(Math.min(picks.base[1], picks.top[1]), camera.height),
              height: percent(Math.abs(picks.base[1] - picks.top[1]), camera.height),
              borderLeft: '2px dashed #ffcc33',
              pointerEvents: 'none',
            }}
          />
        )}
        {picks.base && marker(picks.base, '#2e7d32', 'height-base')}
        {picks.top && marker(picks.top, '#ffcc33', 'height-top')}
        {/* The keyboard's cross. */}
        <Box
          aria-hidden
          data-testid="height-cross"
          sx={{
            position: 'absolute',
            left: percent(picks.cross[0], camera.width),
            top: percent(picks.cross[1], camera.height),
            width: 20,
            height: 20,
            ml: '-10px',
            mt: '-10px',
            pointerEvents: 'none',
            '&::before, &::after': {
              content: '""',
              position: 'absolute',
              bgcolor: '#fff',
              boxShadow: '0 0 0 1px #000',
            },
            '&::before': { left: 9, top: 0, width: 2, height: 20 },
            '&::after': { top: 9, left: 0, height: 2, width: 20 },
          }}
        />
        <CaptureDate capturedOn={capturedOn} overlay />
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography
          role="status"
          aria-live="polite"
          variant="body2"
          sx={{ flex: 1 }}
          data-testid="height-status"
        >
          {result && 'height' in result
            ? HEIGHT_TEXT.picked(formatLength(result.height))
            : result
              ? HEIGHT_TEXT.topBelowBase
              : announcement}
        </Typography>
        <Button size="small" onClick={() => apply(initialPicks(camera))} disabled={!picks.base}>
          {HEIGHT_TEXT.restart}
        </Button>
      </Stack>
    </Stack>
  );
}
