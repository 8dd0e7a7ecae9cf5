import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { POI_TYPE_VALUES, type AddressEditorData, type PoiType } from '@portal/contracts';
import { houseNumberProblem } from '@portal/domain';
import { POI_TYPE_LABELS, TEXT } from '../../../../texts';

/** An address to add at the marker, as the form has it (unit '' for none). */
export interface NewAddress {
  roadId: string;
  houseNumber: string;
  unit: string;
}

/** A POI to add at the marker, as the form has it (addressId '' for none). */
export interface NewPoi {
  name: string;
  poiType: PoiType;
  addressId: string;
}

interface AddFormProps<T> {
  /** The point data under the marker: its closest roads and addresses. */
  data: AddressEditorData;
  busy: boolean;
  onCancel: () => void;
  onSave: (input: T) => void;
}

/** The frame of a form in a popup: its fields, then Save (a submit) and Cancel. */
function PopupForm({
  label,
  saveDisabled,
  onSubmit,
  onCancel,
  children,
}: {
  label: string;
  saveDisabled: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Box
      component="form"
      aria-label={label}
      sx={{ mt: 1.5, display: 'grid', gap: 1 }}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <Stack direction="row" spacing={1}>
        <Button type="submit" size="small" variant="contained" disabled={saveDisabled}>
          {TEXT.save}
        </Button>
        <Button size="small" onClick={onCancel}>
          {TEXT.cancel}
        </Button>
      </Stack>
    </Box>
  );
}

/** Add address (spec 03 §2): on one of the closest roads, a street number (checked as typed), a unit. */
export function AddAddressForm({ data, busy, onCancel, onSave }: AddFormProps<NewAddress>) {
  const [roadId, setRoadId] = useState(data.closestRoads[0]?.roadId ?? '');
  const [houseNumber, setHouseNumber] = useState('');
  const [unit, setUnit] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = houseNumberProblem(houseNumber);
  return (
    <PopupForm
      label={TEXT.addAddress}
      saveDisabled={busy}
      onSubmit={() => {
        setTouched(true);
        if (!problem && roadId) onSave({ roadId, houseNumber, unit });
      }}
      onCancel={onCancel}
    >
      <TextField
        select
        size="small"
        label={TEXT.street}
        value={roadId}
        onChange={(event) => setRoadId(event.target.value)}
      >
        {data.closestRoads.map((road) => (
          <MenuItem key={road.roadId} value={road.roadId}>
            {`${road.roadNameEng}${road.suburb ? `, ${road.suburb}` : ''} (${Math.round(road.distance)} m)`}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label={TEXT.streetNumber}
        value={houseNumber}
        onChange={(event) => setHouseNumber(event.target.value)}
        error={touched && problem !== null}
        helperText={touched && problem ? problem : undefined}
      />
      <TextField
        size="small"
        label={TEXT.unit}
        value={unit}
        onChange={(event) => setUnit(event.target.value)}
      />
    </PopupForm>
  );
}

/** Add POI (spec 03 §2): a name, its type, and the address it is attached to, if any. */
export function AddPoiForm({ data, busy, onCancel, onSave }: AddFormProps<NewPoi>) {
  const [name, setName] = useState('');
  const [poiType, setPoiType] = useState<PoiType>(10000);
  const [addressId, setAddressId] = useState('');
  return (
    <PopupForm
      label={TEXT.addPoi}
      saveDisabled={busy || !name.trim()}
      onSubmit={() => {
        if (name.trim()) onSave({ name, poiType, addressId });
      }}
      onCancel={onCancel}
    >
      <TextField
        size="small"
        label={TEXT.poiName}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        select
        size="small"
        label={TEXT.poiType}
        value={poiType}
        onChange={(event) => setPoiType(Number(event.target.value) as PoiType)}
      >
        {POI_TYPE_VALUES.map((type) => (
          <MenuItem key={type} value={type}>
            {POI_TYPE_LABELS[type]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Attach to address"
        value={addressId}
        onChange={(event) => setAddressId(event.target.value)}
      >
        <MenuItem value="">{TEXT.none}</MenuItem>
        {data.addresses.map((address) => (
          <MenuItem key={address.addressId} value={address.addressId}>
            {address.formattedAddress}
          </MenuItem>
        ))}
      </TextField>
    </PopupForm>
  );
}
