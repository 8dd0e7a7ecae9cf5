import Typography from '@mui/material/Typography';

/** The request tool (being built). */
export function SaviPage() {
  return <Typography variant="h1">The request tool</Typography>;
}
