import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { formatGps } from '../gps';
import { POPUP_TEXT } from '../texts';
import type { PlaceDetails } from './usePlaceDetails';
import { POPUP_SIZE } from './MapPopup';

export interface MarkerPopupProps {
  point: LatLng;
  details: PlaceDetails;
  draggable: boolean;
  /** The user's includeIds option (spec 01 §2: Get ID only then). */
  includeIds: boolean;
  onClose: () => void;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The main marker's popup (spec 01 §2), 300 × 280 px. */
export function MarkerPopup({ point, details, draggable, includeIds, onClose }: MarkerPopupProps) {
  const notify = useNotify();
  const copied = (ok: boolean, text: string) =>
    notify({ message: ok ? `${POPUP_TEXT.copied}: ${text}` : text, severity: ok ? 'success' : 'info' });
  const address = details.reverse?.address ?? null;
  const parcel = details.reverse?.parcel ?? null;
  const id = address ? (address.sourceKey ?? address.id) : parcel ? (parcel.sgKey ?? parcel.id) : null;
  return (
    <Box
      data-testid="marker-popup"
      sx={{
        width: POPUP_SIZE.width,
        height: POPUP_SIZE.height,
        bgcolor: 'background.paper',
        boxShadow: 4,
        borderRadius: 1,
        p: 1.5,
        overflow: 'auto',
        boxSizing: 'border-box',
      }}
    >
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'start' }}>
        <Typography variant="subtitle2" component="div">
          {details.loading ? POPUP_TEXT.loading : (address?.formatted_address ?? details.area?.name ?? '')}
        </Typography>
        <IconButton size="small" aria-label="Close" onClick={onClose}>
          ×
        </IconButton>
      </Stack>
      {!details.loading && (
        <>
          {!address && !details.area && <Typography variant="body2">{POPUP_TEXT.noAddress}</Typography>}
          {parcel ? (
            parcel.addresses.length > 0 && (
              <Box>
                <Typography variant="caption" color="text.secondary">
                  {POPUP_TEXT.addressesOnParcel}
                </Typography>
                <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label={POPUP_TEXT.addressesOnParcel}>
                  {parcel.addresses.map((entry) => (
                    <Typography component="li" variant="body2" key={entry.id}>
                      {entry.short_formatted_address}
                    </Typography>
                  ))}
                </Box>
              </Box>
            )
          ) : (
            <Typography variant="body2">{POPUP_TEXT.noParcel}</Typography>
          )}
        </>
      )}
      <Divider sx={{ my: 1 }} />
      <Typography variant="caption" component="div">
        {formatGps(point)}
      </Typography>
      {draggable && (
        <Typography variant="caption" color="text.secondary" component="div">
          {POPUP_TEXT.draggable}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          size="small"
          variant="outlined"
          onClick={async () => copied(await copy(formatGps(point)), formatGps(point))}
        >
          {POPUP_TEXT.copyGps}
        </Button>
        {includeIds && id && (
          <Button size="small" variant="outlined" onClick={async () => copied(await copy(id), id)}>
            {POPUP_TEXT.getId}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
