import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatGps, type PlaceDetails, type SelectedPlace } from '@portal/web-kit/locator';
import { LOCATE_TEXT } from '../../../texts';

/** What is known about the selected place: its address, the parcel and the addresses on it, or its area. */
export function PlaceSummary({ place, details }: { place: SelectedPlace; details: PlaceDetails }) {
  const { reverse, area } = details;
  const address = reverse?.address?.formatted_address ?? place.item?.formatted_address ?? null;
  return (
    <Stack spacing={1} component="section" aria-label={LOCATE_TEXT.place} data-testid="locate-summary">
      <Typography variant="subtitle2" component="h2">
        {LOCATE_TEXT.place}
      </Typography>
      {address && (
        <Typography variant="body1" data-testid="locate-address">
          {address}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary">
        {LOCATE_TEXT.gps}: {formatGps(place.point)}
      </Typography>
      {details.loading && <Typography variant="body2">{LOCATE_TEXT.loading}</Typography>}
      {details.failed && <Alert severity="error">{LOCATE_TEXT.failed}</Alert>}
      {area && (
        <Typography variant="body2">
          {LOCATE_TEXT.area}: {area.name}
        </Typography>
      )}
      {reverse && !details.loading && (
        <>
          <Typography variant="body2" data-testid="locate-parcel">
            {LOCATE_TEXT.parcel}:{' '}
            {reverse.parcel
              ? reverse.parcel.portion > 0
                ? `Erf ${reverse.parcel.parcelNumber}/${reverse.parcel.portion}`
                : `Erf ${reverse.parcel.parcelNumber}`
              : LOCATE_TEXT.noParcel}
          </Typography>
          {!!reverse.parcel?.addresses.length && (
            <>
              <Typography variant="subtitle2" component="h3">
                {LOCATE_TEXT.addressesOnParcel}
              </Typography>
              <List dense disablePadding aria-label={LOCATE_TEXT.addressesOnParcel}>
                {reverse.parcel.addresses.map((entry) => (
                  <ListItem key={entry.id} disableGutters>
                    <ListItemText primary={entry.short_formatted_address} />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </>
      )}
    </Stack>
  );
}
