import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { REFERENCE_TEXT } from '@portal/contracts';
import { fieldLabel, type FormReference } from './references';

export interface ReferenceFieldsProps {
  fields: readonly FormReference[];
  values: Readonly<Record<string, string>>;
  /** The problem per key (`validateReferences`). */
  errors: Readonly<Record<string, string>>;
  /** Whether a field shows its problem: all of them, or per key (e.g. once the user has been in it). */
  touched: boolean | Readonly<Record<string, boolean>>;
  onChange: (key: string, value: string) => void;
  onBlur?: (key: string) => void;
}

/**
 * The group's reference fields of a request form (spec 01 §5): the label (optional ones end with
 * ' (optional)'), 'Please provide {label}' as placeholder, and a touched field's problem as its helper
 * text.
 */
export function ReferenceFields({ fields, values, errors, touched, onChange, onBlur }: ReferenceFieldsProps) {
  if (fields.length === 0) return null;
  return (
    <Stack spacing={2}>
      {fields.map((field) => {
        const shown = typeof touched === 'boolean' ? touched : !!touched[field.key];
        return (
          <TextField
            key={field.key}
            size="small"
            label={fieldLabel(field)}
            placeholder={REFERENCE_TEXT.placeholder(field.label)}
            value={values[field.key] ?? ''}
            required={field.required}
            onChange={(event) => onChange(field.key, event.target.value)}
            onBlur={onBlur ? () => onBlur(field.key) : undefined}
            error={shown && !!errors[field.key]}
            helperText={shown ? errors[field.key] : undefined}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        );
      })}
    </Stack>
  );
}
