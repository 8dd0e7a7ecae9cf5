import type { ReactNode } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { FormikProps } from 'formik';

type FormTextFieldProps<Values> = Pick<OutlinedInputProps, 'type' | 'autoComplete' | 'autoFocus'> & {
  formik: FormikProps<Values>;
  name: keyof Values & string;
  label: string;
  helperText?: ReactNode;
};

/**
 * An outlined text field bound to a formik field; its validation message shows once it was touched.
 * Built from the input parts rather than MUI's TextField, which also brings Select, Menu and Modal
 * into the login page's first load.
 */
export function FormTextField<Values>({
  formik,
  name,
  label,
  helperText,
  ...inputProps
}: FormTextFieldProps<Values>) {
  const touched = formik.touched[name];
  const error = formik.errors[name];
  const message = touched && typeof error === 'string' ? error : undefined;
  const helperId = `${name}-helper-text`;
  const help = message ?? helperText;
  return (
    <FormControl fullWidth margin="normal" error={message !== undefined}>
      <InputLabel htmlFor={name}>{label}</InputLabel>
      <OutlinedInput
        {...inputProps}
        {...formik.getFieldProps(name)}
        id={name}
        label={label}
        aria-describedby={help ? helperId : undefined}
      />
      {help && <FormHelperText id={helperId}>{help}</FormHelperText>}
    </FormControl>
  );
}
