import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { CropBox } from '@portal/domain';
import { moveCropBox, resizeCropBox, type Size } from '../cropGeometry';
import { IMAGE_TEXT } from '../imageTexts';

/** One key press moves or resizes the crop box by this many image pixels (five times with Shift). */
export const KEY_STEP_PX = 10;
const CROP_KEYS_HINT =
  'From the keyboard: focus the crop box, then the arrow keys move it and + or - resize it (Shift for bigger steps).';

type Drag = { mode: 'move' | 'resize'; startX: number; startY: number; box: CropBox; scale: number };

/**
 * The crop box over the image (spec 02 §5): ratio 2, at least 640 × 400 (so 800 × 400), inside the image;
 * every change goes through clampCropBox. Dragged with pointer events (the box moves it, its corner
 * resizes it) or typed in image pixels.
 */
export function CropEditor({
  src,
  image,
  box,
  onChange,
}: {
  src: string;
  image: Size;
  box: CropBox;
  onChange: (box: CropBox) => void;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const pct = (value: number, of: number) => `${(value / of) * 100}%`;

  const start = (mode: Drag['mode']) => (event: React.PointerEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const shown = frame.current?.getBoundingClientRect().width || image.width;
    drag.current = { mode, startX: event.clientX, startY: event.clientY, box, scale: image.width / shown };
    (event.currentTarget as Element).setPointerCapture?.(event.pointerId);
  };
  const move = (event: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = (event.clientX - d.startX) * d.scale;
    const dy = (event.clientY - d.startY) * d.scale;
    onChange(
      d.mode === 'move' ? moveCropBox(d.box, dx, dy, image) : resizeCropBox(d.box, d.box.width + dx, image),
    );
  };
  const end = () => {
    drag.current = null;
  };
  // The keyboard's drag (issue 24, WCAG 2.1.1): arrows move the box, + and - resize it, in image pixels
  // (Shift for bigger steps); the same clamping as a drag.
  const nudge = (event: React.KeyboardEvent) => {
    const step = event.shiftKey ? KEY_STEP_PX * 5 : KEY_STEP_PX;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const by = moves[event.key];
    // With Shift held the minus key types '_' (and '=' types '+'): both spellings of each key resize.
    if (by) onChange(moveCropBox(box, by[0], by[1], image));
    else if (event.key === '+' || event.key === '=') onChange(resizeCropBox(box, box.width + step, image));
    else if (event.key === '-' || event.key === '_') onChange(resizeCropBox(box, box.width - step, image));
    else return;
    event.preventDefault();
  };

  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary">
        {IMAGE_TEXT.cropHint}
      </Typography>
      <Typography variant="body2" color="text.secondary" id="crop-keys-hint">
        {CROP_KEYS_HINT}
      </Typography>
      <Box
        ref={frame}
        data-testid="crop-frame"
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        sx={{ position: 'relative', width: '100%', maxWidth: 800, userSelect: 'none', touchAction: 'none' }}
      >
        <Box
          component="img"
          src={src}
          alt="Image to crop"
          sx={{ width: '100%', display: 'block' }}
          draggable={false}
        />
        <Box
          role="region"
          aria-label="Crop box"
          aria-describedby="crop-keys-hint"
          tabIndex={0}
          onKeyDown={nudge}
          data-box={`${box.x},${box.y},${box.width},${box.height}`}
          onPointerDown={start('move')}
          onPointerMove={move}
          onPointerUp={end}
          sx={{
            position: 'absolute',
            left: pct(box.x, image.width),
            top: pct(box.y, image.height),
            width: pct(box.width, image.width),
            height: pct(box.height, image.height),
            outline: '2px solid #fff',
            boxShadow: '0 0 0 9999px rgba(0,0,0,0.45)',
            cursor: 'move',
            '&:focus-visible': { outline: '3px solid #1565c0', outlineOffset: 2 },
          }}
        >
          <Box
            aria-label="Resize the crop box"
            data-testid="crop-handle"
            onPointerDown={start('resize')}
            onPointerMove={move}
            onPointerUp={end}
            sx={{
              position: 'absolute',
              right: -8,
              bottom: -8,
              width: 16,
              height: 16,
              bgcolor: '#fff',
              border: '1px solid #333',
              cursor: 'nwse-resize',
            }}
          />
        </Box>
      </Box>
      <Stack direction="row" spacing={1}>
        <PixelField
          label="X"
          value={box.x}
          onCommit={(x) => onChange(moveCropBox(box, x - box.x, 0, image))}
        />
        <PixelField
          label="Y"
          value={box.y}
          onCommit={(y) => onChange(moveCropBox(box, 0, y - box.y, image))}
        />
        <PixelField
          label="Width"
          value={box.width}
          onCommit={(w) => onChange(resizeCropBox(box, w, image))}
        />
        <TextField label="Height" size="small" value={box.height} slotProps={{ input: { readOnly: true } }} />
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Image {image.width} × {image.height} px
      </Typography>
    </Stack>
  );
}

/** A number in image pixels, applied (and clamped) when the field is left or Enter is pressed. */
function PixelField({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: number;
  onCommit: (value: number) => void;
}) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Number(text);
    if (text.trim() !== '' && Number.isFinite(n)) onCommit(n);
    else setText(String(value));
  };
  return (
    <TextField
      label={label}
      size="small"
      type="number"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
      sx={{ width: 110 }}
    />
  );
}
