import { useState } from 'react';
import { useFormik } from 'formik';
import Box from '@mui/material/Box';
import { newPasswordSchema } from '@portal/domain';
import { FormTextField } from '../../forms/FormTextField';
import { SubmitButton } from '../../forms/SubmitButton';
import { MessageList } from '../../forms/MessageList';
import { newPasswordFailure } from './newPassword';

export interface NewPassword {
  password: string;
  confirmPassword: string;
}

/**
 * Password and confirmation, checked by the shared rules; `submit` resolves with the call's error, if
 * any, which shows under the fields.
 */
export function NewPasswordForm({
  submit,
}: {
  submit: (values: NewPassword) => Promise<{ error?: unknown }>;
}) {
  const [failures, setFailures] = useState<string[]>([]);
  const formik = useFormik<NewPassword>({
    initialValues: { password: '', confirmPassword: '' },
    validationSchema: newPasswordSchema,
    onSubmit: async (values) => {
      setFailures([]);
      const { error } = await submit(values);
      if (error) setFailures(newPasswordFailure(error));
    },
  });

  return (
    <Box component="form" noValidate onSubmit={formik.handleSubmit}>
      <FormTextField
        formik={formik}
        name="password"
        label="New Password"
        type="password"
        autoComplete="new-password"
        autoFocus
      />
      <FormTextField
        formik={formik}
        name="confirmPassword"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
      />
      <MessageList messages={failures} />
      <SubmitButton submitting={formik.isSubmitting}>Update password</SubmitButton>
    </Box>
  );
}
