import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ThumbnailsAnswer } from '../../../api/imagesApi';
import { IMAGE_TEXT } from '../imageTexts';

type Thumbnail = ThumbnailsAnswer['images'][number];

/**
 * The request's earlier uploads in their order: pick one to crop; rearrange by dragging one onto another
 * or with its arrow buttons (each a POST image/rearrange {sourceIndex, destinationIndex}).
 */
export function ThumbnailList({
  images,
  disabled,
  onPick,
  onMove,
}: {
  images: Thumbnail[];
  disabled?: boolean;
  onPick: (image: Thumbnail) => void;
  onMove: (sourceIndex: number, destinationIndex: number) => void;
}) {
  const [dragged, setDragged] = useState<number | null>(null);
  if (images.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {IMAGE_TEXT.noUploads}
      </Typography>
    );
  return (
    <Stack
      component="ul"
      aria-label="Uploads"
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ flexWrap: 'wrap', p: 0, m: 0 }}
    >
      {images.map((image, i) => (
        <Box
          component="li"
          key={image.name}
          aria-label={`Upload ${i + 1}`}
          draggable={!disabled}
          onDragStart={(e: React.DragEvent) => {
            setDragged(i);
            e.dataTransfer?.setData('text/plain', String(i));
          }}
          onDragOver={(e: React.DragEvent) => e.preventDefault()}
          onDrop={(e: React.DragEvent) => {
            e.preventDefault();
            const from = dragged ?? Number(e.dataTransfer?.getData('text/plain'));
            setDragged(null);
            if (Number.isInteger(from) && from !== i) onMove(from, i);
          }}
          sx={{ listStyle: 'none', border: '1px solid', borderColor: 'divider', p: 0.5, textAlign: 'center' }}
        >
          <Box
            component="img"
            src={image.thumbnail}
            alt={`Upload ${i + 1}`}
            sx={{ height: 100, display: 'block' }}
          />
          <Stack direction="row" sx={{ justifyContent: 'center', alignItems: 'center' }}>
            <IconButton
              size="small"
              aria-label={`Move upload ${i + 1} earlier`}
              disabled={disabled || i === 0}
              onClick={() => onMove(i, i - 1)}
            >
              ←
            </IconButton>
            <Button size="small" onClick={() => onPick(image)}>
              Use
            </Button>
            <IconButton
              size="small"
              aria-label={`Move upload ${i + 1} later`}
              disabled={disabled || i === images.length - 1}
              onClick={() => onMove(i, i + 1)}
            >
              →
            </IconButton>
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
