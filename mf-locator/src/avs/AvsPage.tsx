import Typography from '@mui/material/Typography';

/** Address validation (being built). */
export function AvsPage() {
  return <Typography variant="h1">Address validation</Typography>;
}
