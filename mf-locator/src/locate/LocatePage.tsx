import Typography from '@mui/material/Typography';

/** Locate (being built). */
export function LocatePage() {
  return <Typography variant="h1">Locate</Typography>;
}
