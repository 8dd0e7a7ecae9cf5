import { useState } from 'react';
import { Link as RouterLink } from '@portal/web-kit';
import { useFormik } from 'formik';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { ACCOUNT_TEXT, emailOnlySchema, normaliseEmail } from '@portal/domain';
import { errorMessages, useForgotPasswordMutation } from '@portal/web-kit';
import { FormTextField } from '../../forms/FormTextField';
import { SubmitButton } from '../../forms/SubmitButton';
import { MessageList } from '../../forms/MessageList';
import { AuthCard } from './AuthCard';

/**
 * /forgot-password: asks for a reset link by e-mail. The answer is the same whether or not the address
 * has an account, so the page cannot be used to find out who is registered.
 */
export function ForgotPasswordPage() {
  const [forgotPassword] = useForgotPasswordMutation();
  const [failures, setFailures] = useState<string[]>([]);
  const [sent, setSent] = useState(false);

  const formik = useFormik({
    initialValues: { email: '' },
    validationSchema: emailOnlySchema,
    onSubmit: async ({ email }) => {
      setFailures([]);
      const result = await forgotPassword({ email: normaliseEmail(email) });
      if (result.error) setFailures(errorMessages(result.error));
      else setSent(true);
    },
  });

  return (
    <AuthCard title="Forgot password">
      {sent ? (
        <Alert severity="info" role="status">
          {ACCOUNT_TEXT.resetMailSent}
        </Alert>
      ) : (
        <Box component="form" noValidate onSubmit={formik.handleSubmit}>
          <Typography variant="body2" color="text.secondary">
            Enter your e-mail address and we will send you a link to choose a new password.
          </Typography>
          <FormTextField
            formik={formik}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
          />
          <MessageList messages={failures} />
          <SubmitButton submitting={formik.isSubmitting}>Send reset link</SubmitButton>
        </Box>
      )}
      <Typography variant="body2" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/auth/login">
          Back to log in
        </Link>
      </Typography>
    </AuthCard>
  );
}
