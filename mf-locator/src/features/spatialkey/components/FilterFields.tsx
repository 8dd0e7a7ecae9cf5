import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';

// The mapping service's filter fields.

/** A filter of several values: none chosen reads `allLabel` (every value). */
export function MultiSelect<V extends string>({
  label,
  allLabel,
  options,
  value,
  onChange,
}: {
  label: string;
  allLabel: string;
  options: readonly V[];
  value: V[];
  onChange: (value: V[]) => void;
}) {
  const id = `spatialkey-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <FormControl size="small" sx={{ minWidth: 180 }}>
      <InputLabel id={`${id}-label`} shrink>
        {label}
      </InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        multiple
        displayEmpty
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          onChange((typeof next === 'string' ? next.split(',') : next) as V[]);
        }}
        input={<OutlinedInput notched label={label} />}
        renderValue={(selected) => (selected.length ? selected.join(', ') : allLabel)}
      >
        {options.map((option) => (
          <MenuItem key={option} value={option}>
            {option}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** A day filter ('YYYY-MM-DD', or '' for none), the browser's date input. */
export function DateFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      size="small"
      type="date"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}
