import { useRef, useState } from 'react';
import { Link, skipToken } from '@portal/web-kit';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReportMarker } from '@portal/domain';
import { useImageExistsQuery } from '../api/imagesApi';
import { croppedImageUrl, imageTargetOf, imageScreenHref } from '../report/imageTargets';
import { markerAt, markerPoint, type ImagePoint } from '../report/markerPosition';

/**
 * The property's or a section's cropped image (716 × 358, spec 02 §9; the .compressed.jpg) with the items'
 * numbered markers over it, dragged with pointer events (or moved with the arrow keys, 1 % a press). A
 * moved marker goes to `onMove` as lat/lng = the fraction of the image (markerPosition.ts) and is saved
 * with the sections. Without an image yet the markers sit on an empty panel with a link to capture one.
 */
export function MarkedImage({
  requestID,
  sectionID,
  label,
  items,
  disabled,
  onMove,
}: {
  requestID: string;
  /** The section whose image this is; none for the property's. */
  sectionID?: string;
  label: string;
  items: { key: string; name: string; marker?: ReportMarker | null }[];
  disabled?: boolean;
  onMove: (key: string, marker: ReportMarker) => void;
}) {
  const screen = sectionID === undefined ? 'property' : 'section';
  const target = imageTargetOf(screen, { requestID, sectionID });
  const exists = useImageExistsQuery(target?.exists ?? skipToken);
  const frame = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<{ key: string; point: ImagePoint } | null>(null);

  const pointOf = (event: React.PointerEvent): ImagePoint | null => {
    const rect = frame.current?.getBoundingClientRect();
    if (!rect || rect.width <= 0 || rect.height <= 0) return null;
    return { x: (event.clientX - rect.left) / rect.width, y: (event.clientY - rect.top) / rect.height };
  };

  return (
    <Paper variant="outlined" role="region" aria-label={label} sx={{ maxWidth: 716, p: 1, mb: 2 }}>
      <Box
        ref={frame}
        data-testid="marker-frame"
        sx={{
          position: 'relative',
          width: '100%',
          aspectRatio: '2 / 1',
          bgcolor: 'grey.200',
          touchAction: 'none',
        }}
      >
        {exists.data === true && target ? (
          <Box
            component="img"
            src={`${croppedImageUrl(requestID, target.stem)}?v=${exists.fulfilledTimeStamp ?? 0}`}
            alt={label}
            draggable={false}
            sx={{ width: '100%', height: '100%', display: 'block', objectFit: 'cover' }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2, pt: 8, textAlign: 'center' }}>
            No image yet.
          </Typography>
        )}
        {items.map((item, i) => {
          const marker = item.marker;
          if (!marker) return null;
          const point = dragging?.key === item.key ? dragging.point : markerPoint(marker, i);
          const finish = (to: ImagePoint) => {
            setDragging(null);
            onMove(item.key, markerAt(marker, to));
          };
          return (
            <Box
              key={item.key}
              role="button"
              tabIndex={disabled ? -1 : 0}
              aria-label={`Marker ${marker.number}: ${item.name}`}
              data-x={point.x}
              data-y={point.y}
              onPointerDown={(e: React.PointerEvent) => {
                if (disabled) return;
                e.preventDefault();
                (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
                setDragging({ key: item.key, point });
              }}
              onPointerMove={(e: React.PointerEvent) => {
                const to = dragging?.key === item.key ? pointOf(e) : null;
                if (to) setDragging({ key: item.key, point: to });
              }}
              onPointerUp={(e: React.PointerEvent) => {
                if (dragging?.key !== item.key) return;
                finish(pointOf(e) ?? dragging.point);
              }}
              onKeyDown={(e: React.KeyboardEvent) => {
                if (disabled) return;
                const step = {
                  ArrowLeft: [-0.01, 0],
                  ArrowRight: [0.01, 0],
                  ArrowUp: [0, -0.01],
                  ArrowDown: [0, 0.01],
                }[e.key];
                if (!step) return;
                e.preventDefault();
                finish({ x: point.x + step[0]!, y: point.y + step[1]! });
              }}
              sx={{
                position: 'absolute',
                left: `${point.x * 100}%`,
                top: `${point.y * 100}%`,
                transform: 'translate(-50%, -50%)',
                width: 28,
                height: 28,
                borderRadius: '50%',
                bgcolor: 'primary.main',
                color: 'primary.contrastText',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                fontWeight: 700,
                fontSize: 14,
                cursor: disabled ? 'default' : 'grab',
                boxShadow: 2,
              }}
            >
              {marker.number}
            </Box>
          );
        })}
      </Box>
      {target && (
        <Link to={imageScreenHref(screen, { requestID, sectionID })}>
          {exists.data === true ? 'Change the image' : 'Add an image'}
        </Link>
      )}
    </Paper>
  );
}
