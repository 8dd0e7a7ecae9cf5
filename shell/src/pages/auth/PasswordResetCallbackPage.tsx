import { useState } from 'react';
import { Navigate, useSearchParams } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import { ACCOUNT_TEXT, TIMING } from '@portal/domain';
import { usePasswordResetCallbackMutation } from '@portal/web-kit';
import { useDelayedNavigate } from '../../forms/useDelayedNavigate';
import { AuthCard } from './AuthCard';
import { NewPasswordForm } from './NewPasswordForm';

/**
 * /password-reset?key=… (spec 01 §2): the link from the password-reset mail. Without a key it returns
 * home; after a successful reset it goes to /login after 4 s.
 */
export function PasswordResetCallbackPage() {
  const [searchParams] = useSearchParams();
  const key = searchParams.get('key');
  const [passwordResetCallback] = usePasswordResetCallbackMutation();
  const navigateLater = useDelayedNavigate();
  const [updated, setUpdated] = useState(false);

  if (!key) return <Navigate to="/" replace />;

  return (
    <AuthCard title="Choose a new password">
      {updated ? (
        <Alert severity="success" role="status">
          {ACCOUNT_TEXT.passwordUpdated}
        </Alert>
      ) : (
        <NewPasswordForm
          submit={async (values) => {
            const result = await passwordResetCallback({ key, ...values });
            if (!result.error) {
              setUpdated(true);
              navigateLater('/login', TIMING.resetCallbackRedirectMs);
            }
            return result;
          }}
        />
      )}
    </AuthCard>
  );
}
