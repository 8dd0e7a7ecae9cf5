import { useState } from 'react';
import { Link as RouterLink, useParams } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { ACCOUNT_TEXT } from '@portal/domain';
import { useResetByTokenMutation } from '@portal/web-kit';
import { AuthCard } from './AuthCard';
import { NewPasswordForm } from './NewPasswordForm';

/** /reset/{tokenId}: the link from the forgot-password mail (POST reset/{tokenId}). */
export function ResetPasswordPage() {
  const { tokenId = '' } = useParams();
  const [resetByToken] = useResetByTokenMutation();
  const [updated, setUpdated] = useState<string | null>(null);

  return (
    <AuthCard title="Choose a new password">
      {updated ? (
        <>
          <Alert severity="success" role="status">
            {updated}
          </Alert>
          <Button component={RouterLink} to="/auth/login" variant="contained" fullWidth sx={{ mt: 2 }}>
            Log in
          </Button>
        </>
      ) : (
        <NewPasswordForm
          submit={async (values) => {
            const result = await resetByToken({ tokenId, ...values });
            if (!result.error) setUpdated(result.data?.message || ACCOUNT_TEXT.passwordUpdated);
            return result;
          }}
        />
      )}
    </AuthCard>
  );
}
