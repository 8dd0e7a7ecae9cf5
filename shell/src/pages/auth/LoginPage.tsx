import { Link as RouterLink, useLocation } from '@portal/web-kit';
import { useFormik } from 'formik';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { ACCOUNT_TEXT, loginSchema, normaliseEmail, TIMING } from '@portal/domain';
import { errorMessages, useLoginMutation } from '@portal/web-kit';
import { FormTextField } from '../../forms/FormTextField';
import { SubmitButton } from '../../forms/SubmitButton';
import { useTimedMessage } from '../../forms/useTimedMessage';
import { AuthCard } from './AuthCard';

/**
 * /auth/login (spec 01 §2, §4). On success the auth slice holds the user, and RequireAnonymous around
 * /auth takes them to the earlier URL (or '/'). A failure shows for 2 s (spec 01 §9).
 */
export function LoginPage() {
  const [login] = useLoginMutation();
  const [failure, showFailure] = useTimedMessage(TIMING.loginErrorMs);
  const location = useLocation();

  const formik = useFormik({
    initialValues: { email: '', password: '' },
    validationSchema: loginSchema,
    onSubmit: async ({ email, password }) => {
      const result = await login({ email: normaliseEmail(email), password });
      if (result.error) showFailure(errorMessages(result.error)[0] ?? ACCOUNT_TEXT.loginFailed);
    },
  });

  return (
    <AuthCard title="Log in">
      <Box component="form" noValidate onSubmit={formik.handleSubmit}>
        <FormTextField
          formik={formik}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
        />
        <FormTextField
          formik={formik}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        {failure && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
        <SubmitButton submitting={formik.isSubmitting}>Log in</SubmitButton>
      </Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 2 }}>
        <Link component={RouterLink} to="/forgot-password" variant="body2">
          Forgot your password?
        </Link>
        <Link component={RouterLink} to="/auth/register" state={location.state} variant="body2">
          Register
        </Link>
      </Stack>
    </AuthCard>
  );
}
