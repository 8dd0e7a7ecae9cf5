import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { PROPERTY_TYPES } from '@portal/domain';

/** The property type of a request's fee (spec 02 §6, §7.2): one of the domain's PROPERTY_TYPES. */
export function PropertyTypeSelect({
  value,
  onChange,
  sx,
}: {
  value: string;
  onChange: (type: string) => void;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      select
      label="Property type"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={sx}
    >
      {PROPERTY_TYPES.map((type) => (
        <MenuItem key={type} value={type}>
          {type}
        </MenuItem>
      ))}
    </TextField>
  );
}
