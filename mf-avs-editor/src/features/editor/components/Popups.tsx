import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ADDRESS_QUALITY_CODES,
  POI_TYPE_VALUES,
  type AddressEditorData,
  type AddressQualityCode,
  type AvsEditorSettings,
  type EditorAddress,
  type EditorPoi,
  type PoiType,
} from '@portal/contracts';
import {
  acceptDisabled,
  detachDisabled,
  houseNumberProblem,
  investigateDisabled,
  officialDisabled,
  unAddressableDisabled,
} from '@portal/domain';
import { POI_TYPE_LABELS, TEXT } from '../../../texts';
import type { EditOutcome } from '../useEditAction';

/** The frame of every popup on the map: a title, a close button, what went wrong or right last. */
export function PopupFrame({
  label,
  title,
  onClose,
  outcome,
  children,
}: {
  label: string;
  title: string;
  onClose: () => void;
  outcome: EditOutcome | null;
  children: ReactNode;
}) {
  return (
    <Paper
      role="dialog"
      aria-label={label}
      elevation={6}
      sx={{ width: 320, maxHeight: 420, overflow: 'auto', p: 1.5 }}
      data-testid="editor-popup"
    >
      <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2">{title}</Typography>
        <IconButton size="small" aria-label={TEXT.close} onClick={onClose}>
          ×
        </IconButton>
      </Stack>
      {children}
      {outcome && (
        <Alert severity={outcome.severity} sx={{ mt: 1 }} role="status">
          {outcome.text}
        </Alert>
      )}
    </Paper>
  );
}

const describeParcel = (data: AddressEditorData) =>
  data.parcelNo === null
    ? TEXT.noParcel
    : `Erf ${data.parcelNo}${data.portionNo ? `/${data.portionNo}` : ''} · type ${data.parcelTypeId} · quality ${data.dataQualityId}`;

/** The quality chooser of Accept and Reject (spec 03 §5: CNF, EST, DDS, VR, SV). */
function QualitySelect({
  value,
  onChange,
  qualities,
}: {
  value: AddressQualityCode;
  onChange: (code: AddressQualityCode) => void;
  qualities: AvsEditorSettings['qualities'];
}) {
  const options = qualities.length ? qualities : ADDRESS_QUALITY_CODES.map((code) => ({ code, value: 0 }));
  return (
    <TextField
      select
      size="small"
      label={TEXT.quality}
      value={value}
      onChange={(event) => onChange(event.target.value as AddressQualityCode)}
      sx={{ minWidth: 120 }}
    >
      {options.map((option) => (
        <MenuItem key={option.code} value={option.code}>
          {option.value ? `${option.code} (${option.value})` : option.code}
        </MenuItem>
      ))}
    </TextField>
  );
}

export interface AddressPopupProps {
  address: EditorAddress;
  qualities: AvsEditorSettings['qualities'];
  busy: boolean;
  outcome: EditOutcome | null;
  onClose: () => void;
  onOfficial: () => void;
  onAccept: (quality: AddressQualityCode) => void;
  onReject: (quality: AddressQualityCode) => void;
  /** Shown while a can't-locate request is being worked. */
  onResolve?: () => void;
}

/** An address's popup: Mark OFA, Accept or Reject with a quality (spec 03 §2, §5), resolve a request. */
export function AddressPopup(props: AddressPopupProps) {
  const { address, busy } = props;
  const [quality, setQuality] = useState<AddressQualityCode>(address.qualityCode);
  return (
    <PopupFrame
      label={`Address ${address.formattedAddress}`}
      title={address.formattedAddress}
      onClose={props.onClose}
      outcome={props.outcome}
    >
      <Typography variant="body2" data-testid="address-facts">
        {`Quality ${address.qualityCode} (${address.quality}) · ${address.official ? 'OFA' : 'not OFA'}${
          address.review ? ` · ${address.review}` : ''
        }${address.editedBy ? ` · ${TEXT.editedBy} ${address.editedBy}` : ''}`}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <QualitySelect value={quality} onChange={setQuality} qualities={props.qualities} />
        <Button
          size="small"
          variant="contained"
          disabled={busy || acceptDisabled(address.quality)}
          onClick={() => props.onAccept(quality)}
        >
          {TEXT.accept}
        </Button>
        <Button size="small" variant="outlined" disabled={busy} onClick={() => props.onReject(quality)}>
          {TEXT.reject}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Button size="small" disabled={busy || officialDisabled(address)} onClick={props.onOfficial}>
          {TEXT.markOfa}
        </Button>
        {props.onResolve && (
          <Button
            size="small"
            color="secondary"
            variant="contained"
            disabled={busy}
            onClick={props.onResolve}
          >
            {TEXT.resolveWithAddress}
          </Button>
        )}
      </Stack>
    </PopupFrame>
  );
}

/** A POI's popup: what it is, what it is attached to, and Detach POI. */
export function PoiPopup({
  poi,
  busy,
  outcome,
  onClose,
  onDetach,
}: {
  poi: EditorPoi;
  busy: boolean;
  outcome: EditOutcome | null;
  onClose: () => void;
  onDetach: () => void;
}) {
  return (
    <PopupFrame label={`POI ${poi.name}`} title={poi.name} onClose={onClose} outcome={outcome}>
      <Typography variant="body2">
        {POI_TYPE_LABELS[poi.poiType] ?? poi.poiType}
        {poi.category ? ` · ${poi.category}` : ''}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {poi.addressId || poi.parentId
          ? `Attached to ${[
              poi.addressId && `address ${poi.addressId}`,
              poi.parentId && `estate POI ${poi.parentId}`,
            ]
              .filter(Boolean)
              .join(' and ')}`
          : 'Not attached'}
      </Typography>
      <Button size="small" sx={{ mt: 1 }} disabled={busy || detachDisabled(poi)} onClick={onDetach}>
        {TEXT.detachPoi}
      </Button>
    </PopupFrame>
  );
}

export interface MarkerPopupProps {
  data: AddressEditorData;
  settings: AvsEditorSettings | undefined;
  busy: boolean;
  outcome: EditOutcome | null;
  onClose: () => void;
  onInvestigate: () => void;
  onUnaddressable: () => void;
  onValidate: (parcelTypeId: number) => void;
  onAddAddress: (input: { roadId: string; houseNumber: string; unit: string }) => Promise<boolean>;
  onAddPoi: (input: { name: string; poiType: PoiType; addressId: string }) => Promise<boolean>;
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

function AddAddressForm({
  data,
  busy,
  onCancel,
  onSave,
}: {
  data: AddressEditorData;
  busy: boolean;
  onCancel: () => void;
  onSave: (input: { roadId: string; houseNumber: string; unit: string }) => void;
}) {
  const [roadId, setRoadId] = useState(data.closestRoads[0]?.roadId ?? '');
  const [houseNumber, setHouseNumber] = useState('');
  const [unit, setUnit] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = houseNumberProblem(houseNumber);
  return (
    <Box
      component="form"
      aria-label={TEXT.addAddress}
      sx={{ mt: 1.5, display: 'grid', gap: 1 }}
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (!problem && roadId) onSave({ roadId, houseNumber, unit });
      }}
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
      <Stack direction="row" spacing={1}>
        <Button type="submit" size="small" variant="contained" disabled={busy}>
          {TEXT.save}
        </Button>
        <Button size="small" onClick={onCancel}>
          {TEXT.cancel}
        </Button>
      </Stack>
    </Box>
  );
}

function AddPoiForm({
  data,
  busy,
  onCancel,
  onSave,
}: {
  data: AddressEditorData;
  busy: boolean;
  onCancel: () => void;
  onSave: (input: { name: string; poiType: PoiType; addressId: string }) => void;
}) {
  const [name, setName] = useState('');
  const [poiType, setPoiType] = useState<PoiType>(10000);
  const [addressId, setAddressId] = useState('');
  return (
    <Box
      component="form"
      aria-label={TEXT.addPoi}
      sx={{ mt: 1.5, display: 'grid', gap: 1 }}
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) onSave({ name, poiType, addressId });
      }}
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
      <Stack direction="row" spacing={1}>
        <Button type="submit" size="small" variant="contained" disabled={busy || !name.trim()}>
          {TEXT.save}
        </Button>
        <Button size="small" onClick={onCancel}>
          {TEXT.cancel}
        </Button>
      </Stack>
    </Box>
  );
}
