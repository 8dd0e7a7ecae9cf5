import TextField from '@mui/material/TextField';
import { PLEASE_SELECT_A_VALUE } from '@portal/domain';

/** A native select with the spec's placeholder first (spec 02 §4.4). */
export function Choice({
  label,
  value,
  options,
  placeholder = PLEASE_SELECT_A_VALUE,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: readonly (string | { value: string; label: string })[];
  placeholder?: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const listed = options.map((o) => (typeof o === 'string' ? { value: o, label: o } : o));
  // A value the rates no longer offer is still shown as it is.
  const all = value && !listed.some((o) => o.value === value) ? [{ value, label: value }, ...listed] : listed;
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 200 }}
      disabled={disabled}
    >
      <option value="">{placeholder}</option>
      {all.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </TextField>
  );
}
