import { useState } from 'react';
import { useFormik } from 'formik';
import * as yup from 'yup';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@portal/contracts';
import { messages } from '@portal/domain';
import { useNotify } from '@portal/web-kit';
import { reasonOf } from '../../../api/answers';
import { LAYOUT } from '../../../constants';
import { DialogForm } from '../../../layout/DialogForm';
import { ADMIN_TEXT } from '../../../texts';
import { useAllGroupsQuery } from '../../../api/groupsApi';
import { useUpdateUserMutation } from '../../../api/usersApi';
import { USER_FLAGS, userChanges, type UserFlag } from '../../../api/userChanges';

type UserFormValues = Pick<AdminUser, 'name' | UserFlag> & {
  /** The group's id, '' for none (a select's value cannot be null). */
  group: string;
};

const userSchema = yup.object({
  name: yup.string().trim().required(messages.notEmpty('Name')).max(200, 'Name is too long.'),
});

/**
 * The user dialog (spec 03 "Services admin screen"), 775 px high (spec 03 §9). The contract has no call
 * that creates a user (people register themselves), so it only updates. A failure puts it in its failed
 * state with the spec's text.
 */
export function UserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const notify = useNotify();
  const [updateUser] = useUpdateUserMutation();
  const groups = useAllGroupsQuery();
  const [failure, setFailure] = useState<{ reason?: string } | null>(null);

  const formik = useFormik<UserFormValues>({
    initialValues: { ...user, group: user.group ?? '' },
    validationSchema: userSchema,
    onSubmit: async (values) => {
      setFailure(null);
      const changes = userChanges(user, { ...user, ...values, group: values.group || null });
      if (Object.keys(changes).length > 0) {
        const result = await updateUser({ id: user._id, changes });
        if (result.error) {
          setFailure({ reason: reasonOf(result.error) });
          return;
        }
        notify({ message: `User ${result.data.name} updated.`, severity: 'success' });
      }
      onClose();
    },
  });
  const nameError = formik.touched.name ? formik.errors.name : undefined;
  const groupHelp = groups.isLoading
    ? ADMIN_TEXT.loading
    : groups.isError
      ? ADMIN_TEXT.loadingError
      : 'The group decides the services, rates and references the user works with.';

  return (
    <Dialog
      open
      onClose={formik.isSubmitting ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      slotProps={{ paper: { sx: { height: LAYOUT.userDialogHeight, maxHeight: 'calc(100% - 64px)' } } }}
    >
      <DialogForm onSubmit={formik.handleSubmit}>
        <DialogTitle>Update user {user.name}</DialogTitle>
        <DialogContent dividers>
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              <AlertTitle>{ADMIN_TEXT.failedToUpdateUser}</AlertTitle>
              {failure.reason}
            </Alert>
          )}
          <Stack spacing={2.5} sx={{ pt: 0.5 }}>
            <TextField
              {...formik.getFieldProps('name')}
              id="user-name"
              label="Name"
              required
              margin="none"
              autoFocus
              error={nameError !== undefined}
              helperText={nameError}
              disabled={formik.isSubmitting}
            />
            <TextField
              id="user-email"
              label="Email"
              value={user.email}
              margin="none"
              slotProps={{ input: { readOnly: true } }}
              helperText="The e-mail address is the user's login and cannot be changed here."
            />
            <TextField
              {...formik.getFieldProps('group')}
              id="user-group"
              select
              label="Group"
              margin="none"
              helperText={groupHelp}
              error={groups.isError}
              disabled={formik.isSubmitting}
            >
              <MenuItem value="">
                <em>No group</em>
              </MenuItem>
              {/* The user's own group, also while the list loads or when it failed. */}
              {!groups.data && user.group && <MenuItem value={user.group}>{user.groupName}</MenuItem>}
              {groups.data?.map((group) => (
                <MenuItem key={group._id} value={group._id}>
                  {group.name} ({group.code})
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Divider sx={{ my: 2.5 }} />
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            Roles and access
          </Typography>
          <FormGroup>
            {USER_FLAGS.map(({ field, label }) => (
              <FormControlLabel
                key={field}
                label={label}
                control={
                  <Checkbox
                    name={field}
                    checked={formik.values[field]}
                    onChange={formik.handleChange}
                    disabled={formik.isSubmitting}
                  />
                }
              />
            ))}
          </FormGroup>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={formik.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={formik.isSubmitting}>
            Save user
          </Button>
        </DialogActions>
      </DialogForm>
    </Dialog>
  );
}
