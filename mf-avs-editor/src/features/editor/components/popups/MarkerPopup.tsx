import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AddressEditorData, AvsEditorSettings } from '@portal/contracts';
import { investigateDisabled, unAddressableDisabled } from '@portal/domain';
import { TEXT } from '../../../../texts';
import type { EditOutcome } from '../../useEditAction';
import { AddAddressForm, AddPoiForm, type NewAddress, type NewPoi } from './AddForms';
import { PopupFrame } from './PopupFrame';

const describeParcel = (data: AddressEditorData) =>
  data.parcelNo === null
    ? TEXT.noParcel
    : `Erf ${data.parcelNo}${data.portionNo ? `/${data.portionNo}` : ''} · type ${data.parcelTypeId} · quality ${data.dataQualityId}`;

export interface MarkerPopupProps {
  data: AddressEditorData;
  settings: AvsEditorSettings | undefined;
  busy: boolean;
  outcome: EditOutcome | null;
  onClose: () => void;
  onInvestigate: () => void;
  onUnaddressable: () => void;
  onValidate: (parcelTypeId: number) => void;
  onAddAddress: (input: NewAddress) => Promise<boolean>;
  onAddPoi: (input: NewPoi) => Promise<boolean>;
  onResolveAtMarker?: () => void;
}

/**
 * The marker's popup (spec 03 §2): the parcel under it with Investigate, Un-Addressable and — for
 * validators — Validate Parcel (spec 03 §5's disable rules), Add address on a road of closestRoads, Add POI.
 */
export function MarkerPopup(props: MarkerPopupProps) {
  const { data, busy, settings } = props;
  const [form, setForm] = useState<'address' | 'poi' | null>(null);
  const hasParcel = data.parcelId !== null;
  const codes = { parcelTypeId: data.parcelTypeId ?? 0, dataQualityId: data.dataQualityId ?? 0 };
  return (
    <PopupFrame
      label={TEXT.markerPopup}
      title={describeParcel(data)}
      onClose={props.onClose}
      outcome={props.outcome}
    >
      <Typography variant="body2" color="text.secondary">
        {[data.road, data.suburb, data.town].filter(Boolean).join(', ') || ' '}
      </Typography>
      {hasParcel && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
          <Button size="small" disabled={busy || investigateDisabled(codes)} onClick={props.onInvestigate}>
            {TEXT.investigate}
          </Button>
          <Button
            size="small"
            disabled={busy || unAddressableDisabled(codes)}
            onClick={props.onUnaddressable}
          >
            {TEXT.unAddressable}
          </Button>
          <Button size="small" disabled={busy} onClick={() => setForm(form === 'address' ? null : 'address')}>
            {TEXT.addAddress}
          </Button>
          <Button size="small" disabled={busy} onClick={() => setForm(form === 'poi' ? null : 'poi')}>
            {TEXT.addPoi}
          </Button>
        </Stack>
      )}
      {hasParcel && settings?.canValidate && (
        <ValidateParcel busy={busy} parcelTypes={settings.parcelTypes} onValidate={props.onValidate} />
      )}
      {form === 'address' && (
        <AddAddressForm
          data={data}
          busy={busy}
          onCancel={() => setForm(null)}
          onSave={async (input) => {
            if (await props.onAddAddress(input)) setForm(null);
          }}
        />
      )}
      {form === 'poi' && (
        <AddPoiForm
          data={data}
          busy={busy}
          onCancel={() => setForm(null)}
          onSave={async (input) => {
            if (await props.onAddPoi(input)) setForm(null);
          }}
        />
      )}
      {props.onResolveAtMarker && (
        <Button
          size="small"
          color="secondary"
          sx={{ mt: 1 }}
          disabled={busy}
          onClick={props.onResolveAtMarker}
        >
          {TEXT.resolveAtMarker}
        </Button>
      )}
    </PopupFrame>
  );
}

function ValidateParcel({
  busy,
  parcelTypes,
  onValidate,
}: {
  busy: boolean;
  parcelTypes: AvsEditorSettings['parcelTypes'];
  onValidate: (parcelTypeId: number) => void;
}) {
  const [type, setType] = useState(parcelTypes[0]?.id ?? 1);
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label={TEXT.parcelType}
        value={type}
        onChange={(event) => setType(Number(event.target.value))}
        sx={{ minWidth: 150 }}
      >
        {parcelTypes.map((option) => (
          <MenuItem key={option.id} value={option.id}>
            {`${option.label} (${option.id})`}
          </MenuItem>
        ))}
      </TextField>
      <Button size="small" variant="outlined" disabled={busy} onClick={() => onValidate(type)}>
        {TEXT.validateParcel}
      </Button>
    </Stack>
  );
}
