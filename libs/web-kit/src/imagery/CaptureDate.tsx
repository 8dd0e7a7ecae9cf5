import Typography, { type TypographyProps } from '@mui/material/Typography';
import { formatSaLongDate } from '@portal/domain';
import { CAPTURE_TEXT } from './texts';

/** '14 March 2019' from a capture date (YYYY-MM-DD, a calendar day: read in SAST, never shifted a day). */
export const formatCapturedOn = (capturedOn: string) => formatSaLongDate(capturedOn);

/** 'Captured 14 March 2019' (with ' · provider' when given); the undated text without a date. */
export function captureDateText(capturedOn: string | null | undefined, provider?: string | null): string {
  if (!capturedOn) return CAPTURE_TEXT.undated;
  const date = formatCapturedOn(capturedOn);
  return provider ? CAPTURE_TEXT.capturedBy(date, provider) : CAPTURE_TEXT.captured(date);
}

export interface CaptureDateProps {
  /** The picture's capture date (YYYY-MM-DD), as every imagery answer carries it. */
  capturedOn: string | null | undefined;
  /** The imagery provider's name, printed after the date. */
  provider?: string | null;
  /**
   * Print it over a picture (bottom-left, white on a dark band) instead of as a line of text; the parent
   * must be `position: relative`. 'right': bottom-right (a swipe's second date).
   */
  overlay?: boolean | 'left' | 'right';
  variant?: TypographyProps['variant'];
}

/** The capture date of a picture, as printed on every picture the portal shows: "Captured 14 March 2019". */
export function CaptureDate({
  capturedOn,
  provider,
  overlay = false,
  variant = 'caption',
}: CaptureDateProps) {
  const text = captureDateText(capturedOn, provider);
  return (
    <Typography
      variant={variant}
      data-testid="capture-date"
      sx={
        overlay
          ? {
              position: 'absolute',
              ...(overlay === 'right' ? { right: 8 } : { left: 8 }),
              bottom: 8,
              zIndex: 2,
              px: 1,
              py: 0.25,
              borderRadius: 1,
              bgcolor: 'rgba(0, 0, 0, 0.7)',
              color: 'common.white',
              pointerEvents: 'none',
            }
          : { color: 'text.secondary' }
      }
    >
      {text}
    </Typography>
  );
}
