import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { serviceLabel } from '../../../constants';

/** A user's services as tags. */
export function ServiceChips({ services }: { services: readonly string[] }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%', overflow: 'hidden' }}>
      {services.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          None
        </Typography>
      ) : (
        services.map((service) => (
          <Chip key={service} label={serviceLabel(service)} size="small" color="primary" variant="outlined" />
        ))
      )}
    </Stack>
  );
}
