import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { REQUEST_STATUSES, REQUEST_TYPES } from '@portal/contracts';

/** The console's filters: every filter name of spec 02 §7.2 / spec 03 §7, by name. */
export type ConsoleFilterValues = Record<string, string>;

/** Spec 02 §9: the console opens on SAVI requests that were located. */
export const DEFAULT_CONSOLE_FILTERS: ConsoleFilterValues = { request_type: 'SAVI', cantlocate: 'No' };

const TEXT_FILTERS = [
  ['grip_reference', 'GRiP reference'],
  ['client', 'Client'],
  ['client_reference', 'Client reference'],
  ['email', 'E-mail'],
  ['address', 'Address'],
  ['firstUser', 'First QS'],
  ['invoiceNumber', 'Invoice'],
] as const;
const YES_NO_FILTERS = [
  ['cantlocate', "Can't locate"],
  ['priority', 'Priority'],
  ['reportDisputed', 'Disputed'],
  ['downloaded', 'Downloaded'],
] as const;

function Choice({
  name,
  label,
  options,
  values,
  onChange,
}: {
  name: string;
  label: string;
  options: readonly string[];
  values: ConsoleFilterValues;
  onChange: (values: ConsoleFilterValues) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={values[name] ?? ''}
      onChange={(event) => onChange({ ...values, [name]: event.target.value })}
      sx={{ minWidth: 140 }}
    >
      <MenuItem value="">Any</MenuItem>
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function ConsoleFilters({
  values,
  onChange,
}: {
  values: ConsoleFilterValues;
  onChange: (values: ConsoleFilterValues) => void;
}) {
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={1.5}
      sx={{ flexWrap: 'wrap', mb: 2 }}
      role="search"
      aria-label="Filters"
    >
      <Choice name="request_type" label="Type" options={REQUEST_TYPES} values={values} onChange={onChange} />
      <Choice name="status" label="Status" options={REQUEST_STATUSES} values={values} onChange={onChange} />
      {TEXT_FILTERS.map(([name, label]) => (
        <TextField
          key={name}
          size="small"
          label={label}
          value={values[name] ?? ''}
          onChange={(event) => onChange({ ...values, [name]: event.target.value })}
          sx={{ width: 170 }}
        />
      ))}
      {YES_NO_FILTERS.map(([name, label]) => (
        <Choice
          key={name}
          name={name}
          label={label}
          options={['Yes', 'No']}
          values={values}
          onChange={onChange}
        />
      ))}
      <TextField
        type="date"
        size="small"
        label="Created from"
        value={values.start_date ?? ''}
        onChange={(event) => onChange({ ...values, start_date: event.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        size="small"
        label="Created to"
        value={values.end_date ?? ''}
        onChange={(event) => onChange({ ...values, end_date: event.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <Button onClick={() => onChange({})}>Clear filters</Button>
      <Button onClick={() => onChange(DEFAULT_CONSOLE_FILTERS)}>Default filters</Button>
    </Stack>
  );
}
