import Typography from '@mui/material/Typography';

/** Mapping service (being built). */
export function SpatialKeyPage() {
  return <Typography variant="h1">Mapping service</Typography>;
}
