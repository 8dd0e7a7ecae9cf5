import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';

/** Shown while a page, or the session, is on its way. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <Box sx={{ maxWidth: 320, mx: 'auto', py: 8 }}>
      <LinearProgress aria-label={label} />
    </Box>
  );
}
