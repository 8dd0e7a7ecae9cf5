import { useState } from 'react';
import { Link as RouterLink, useLocation } from '@portal/web-kit';
import { useFormik } from 'formik';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { ACCOUNT_TEXT, normaliseEmail, registerSchema, TIMING } from '@portal/domain';
import { baseApi, errorMessages, useAppDispatch, useRegisterMutation } from '@portal/web-kit';
import { FormTextField } from '../../forms/FormTextField';
import { SubmitButton } from '../../forms/SubmitButton';
import { MessageList } from '../../forms/MessageList';
import { AuthCard } from './AuthCard';

/**
 * /auth/register (spec 01 §2, §4, §5). Failures show as a list of messages or a single message. On
 * success the message shows; 2 s later the session is read again, and as registering logs the new user
 * in (docs/decisions.md), RequireAnonymous takes them to the earlier URL.
 */
export function RegisterPage() {
  const [register] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const location = useLocation();
  const [failures, setFailures] = useState<string[]>([]);
  const [registered, setRegistered] = useState<string | null>(null);

  const formik = useFormik({
    initialValues: { name: '', email: '', password: '', confirmPassword: '' },
    validationSchema: registerSchema,
    onSubmit: async (values) => {
      setFailures([]);
      const result = await register({
        ...values,
        name: values.name.trim(),
        email: normaliseEmail(values.email),
      });
      if (result.error) {
        setFailures(errorMessages(result.error));
        return;
      }
      setRegistered(result.data?.message || ACCOUNT_TEXT.registered);
      // Not cancelled if the page is left sooner: the new user is logged in either way.
      setTimeout(() => dispatch(baseApi.util.invalidateTags(['Me'])), TIMING.registerRedirectMs);
    },
  });

  if (registered) {
    return (
      <AuthCard title="Register">
        <Alert severity="success" role="status">
          {registered}
        </Alert>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Register">
      <Box component="form" noValidate onSubmit={formik.handleSubmit}>
        <FormTextField formik={formik} name="name" label="Name" autoComplete="name" autoFocus />
        <FormTextField formik={formik} name="email" label="Email" type="email" autoComplete="email" />
        <FormTextField
          formik={formik}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
        />
        <FormTextField
          formik={formik}
          name="confirmPassword"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
        />
        <MessageList messages={failures} />
        <SubmitButton submitting={formik.isSubmitting}>Register</SubmitButton>
      </Box>
      <Typography variant="body2" sx={{ mt: 2 }}>
        Already registered?{' '}
        <Link component={RouterLink} to="/auth/login" state={location.state}>
          Log in
        </Link>
      </Typography>
    </AuthCard>
  );
}
