import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ADDRESS_QUALITY_CODES,
  type AddressQualityCode,
  type AvsEditorSettings,
  type EditorAddress,
} from '@portal/contracts';
import { acceptDisabled, officialDisabled } from '@portal/domain';
import { TEXT } from '../../../../texts';
import type { EditOutcome } from '../../useEditAction';
import { PopupFrame } from './PopupFrame';

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
