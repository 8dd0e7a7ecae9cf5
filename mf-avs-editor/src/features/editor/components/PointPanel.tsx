import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AddressEditorData } from '@portal/contracts';
import { padCode } from '@portal/domain';
import { POI_TYPE_LABELS, TEXT } from '../../../texts';
import type { Picked } from './EditorLayers';

/** What a field shows (spec 03 §8): 'Loading ... ' while loading, 'Loading error' on error. */
export type FieldState = 'loading' | 'error' | 'ready';

const PARCEL_FIELDS: [label: string, value: (data: AddressEditorData) => string][] = [
  [
    'Parcel',
    (d) => (d.parcelNo === null ? TEXT.noParcel : `Erf ${d.parcelNo}${d.portionNo ? `/${d.portionNo}` : ''}`),
  ],
  ['Parcel type', (d) => (d.parcelTypeId === null ? '' : String(d.parcelTypeId))],
  ['Data quality', (d) => (d.dataQualityId === null ? '' : String(d.dataQualityId))],
  ['Road', (d) => d.road],
  ['Suburb', (d) => d.suburb],
  ['Town', (d) => d.town],
  ['Municipality', (d) => d.municipality],
  ['District', (d) => d.district],
  // Spec 03 §5: padded to 4 digits (the service pads them too; a stale or foreign answer is padded here).
  ['Street code', (d) => padCode(d.streetCode)],
  ['Box code', (d) => padCode(d.boxCode)],
  [TEXT.editedBy, (d) => d.editedBy ?? ''],
  ['Location', (d) => `${d.lat.toFixed(6)}, ${d.lng.toFixed(6)}`],
];

/**
 * The point's data beside the map (spec 03 §3 "Address editor data"), with the addresses and POIs on the
 * parcel as a list that opens their popups.
 */
export function PointPanel({
  state,
  data,
  picked,
  onPick,
  onMarkerPopup,
}: {
  state: FieldState;
  data: AddressEditorData | undefined;
  picked: Picked | null;
  onPick: (picked: Picked) => void;
  onMarkerPopup: () => void;
}) {
  const shown = (value: (d: AddressEditorData) => string) =>
    state === 'error' ? TEXT.loadingError : state === 'loading' || !data ? TEXT.loading : value(data) || '–';
  return (
    <Box data-testid="point-panel">
      <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
        {TEXT.pointData}
      </Typography>
      <Table size="small" aria-label={TEXT.pointData}>
        <TableBody>
          {PARCEL_FIELDS.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" sx={{ fontWeight: 600, width: 120, py: 0.5 }}>
                {label}
              </TableCell>
              <TableCell sx={{ py: 0.5 }} data-field={label}>
                {shown(value)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Button size="small" sx={{ mt: 1 }} onClick={onMarkerPopup} disabled={!data || state !== 'ready'}>
        {TEXT.markerPopup}
      </Button>
      {data && state === 'ready' && (
        <>
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            {`${TEXT.addresses} (${data.addresses.length})`}
          </Typography>
          <List dense aria-label={TEXT.addresses} sx={{ maxHeight: 260, overflow: 'auto' }}>
            {data.addresses.length === 0 && (
              <ListItem>
                <Typography variant="body2" color="text.secondary">
                  {TEXT.none}
                </Typography>
              </ListItem>
            )}
            {data.addresses.map((address) => (
              <ListItem key={address.addressId} disablePadding>
                <ListItemButton
                  selected={picked?.kind === 'address' && picked.id === address.addressId}
                  onClick={() => onPick({ kind: 'address', id: address.addressId })}
                >
                  <ListItemText
                    primary={address.formattedAddress}
                    secondary={`${address.qualityCode} (${address.quality})${address.official ? ' · OFA' : ''}${
                      address.review ? ` · ${address.review}` : ''
                    }`}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          <Typography variant="subtitle2">{`${TEXT.pois} (${data.pois.length})`}</Typography>
          <List dense aria-label={TEXT.pois}>
            {data.pois.length === 0 && (
              <ListItem>
                <Typography variant="body2" color="text.secondary">
                  {TEXT.none}
                </Typography>
              </ListItem>
            )}
            {data.pois.map((poi) => (
              <ListItem key={poi.poiId} disablePadding>
                <ListItemButton
                  selected={picked?.kind === 'poi' && picked.id === poi.poiId}
                  onClick={() => onPick({ kind: 'poi', id: poi.poiId })}
                >
                  <ListItemText
                    primary={poi.name}
                    secondary={POI_TYPE_LABELS[poi.poiType] ?? String(poi.poiType)}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </>
      )}
    </Box>
  );
}
