import { useState } from 'react';
import { useFormik } from 'formik';
import * as yup from 'yup';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AdminGroup, GroupBody } from '@portal/contracts';
import { messages } from '@portal/domain';
import { NOTIFY_DURATION, useNotify } from '@portal/web-kit';
import { failureText, reasonOf } from '../api/answers';
import { groupDialogHeight } from '../constants';
import { ADMIN_TEXT } from '../texts';
import { AdminUserPicker, type AdminChoice } from './AdminUserPicker';
import { useCreateGroupMutation, useUpdateGroupMutation } from '../api/groupsApi';
import { groupChanges } from '../features/groups/groupRows';
import type { ReferenceEntry } from './references/references';
import { DialogForm } from '../layout/DialogForm';
import { ReferencesEditor } from './references/ReferencesEditor';

/** The extra field a new group starts with (spec 03 §3). */
const DEFAULT_EXTRA_FIELD = 'Betterments';

interface GroupFormValues {
  name: string;
  code: string;
  admin: AdminChoice | null;
  active: boolean;
  includeVAT: boolean;
  includeProfessionalFee: boolean;
  professionalFeePercentage: number | string;
  extraField: string;
  reportNameFormat: string;
  references: ReferenceEntry[];
}

const NEW_GROUP: GroupFormValues = {
  name: '',
  code: '',
  admin: null,
  active: true,
  includeVAT: true,
  includeProfessionalFee: false,
  professionalFeePercentage: 0,
  extraField: DEFAULT_EXTRA_FIELD,
  reportNameFormat: '',
  references: [],
};

const formValuesOf = (group: AdminGroup): GroupFormValues => ({
  ...group,
  admin: group.admin ? { id: group.admin, label: group.adminLabel } : null,
  references: group.references,
});

const groupSchema = yup.object({
  name: yup.string().trim().required(messages.notEmpty('Name')).max(200, 'Name is too long.'),
  code: yup.string().trim().required(messages.notEmpty('Code')).max(50, 'Code is too long.'),
  professionalFeePercentage: yup
    .number()
    .typeError('Professional fee must be a number.')
    .min(0, 'Professional fee must be between 0 and 100.')
    .max(100, 'Professional fee must be between 0 and 100.'),
  extraField: yup.string().max(200, 'Extra field is too long.'),
  reportNameFormat: yup.string().max(500, 'Report name format is too long.'),
});

function groupBodyOf(values: GroupFormValues): GroupBody {
  return {
    name: values.name.trim(),
    code: values.code.trim(),
    admin: values.admin?.id ?? null,
    active: values.active,
    includeVAT: values.includeVAT,
    includeProfessionalFee: values.includeProfessionalFee,
    professionalFeePercentage: Number(values.professionalFeePercentage),
    extraField: values.extraField.trim(),
    reportNameFormat: values.reportNameFormat.trim(),
    references: values.references,
  };
}

type GroupDialogProps =
  | { mode: 'create'; group?: undefined; onClose: (saved?: AdminGroup) => void }
  | { mode: 'update'; group: AdminGroup; onClose: (saved?: AdminGroup) => void };

/**
 * The group dialog (spec 03 "Services admin screen"), to create a group or update one. A failure puts it
 * in its failed state with the spec's text; a failed create also shows the not-created notice for 10 s
 * (spec 03 §5). Its height grows by 69 px per reference (spec 03 §9).
 */
export function GroupDialog({ mode, group, onClose }: GroupDialogProps) {
  const notify = useNotify();
  const [createGroup] = useCreateGroupMutation();
  const [updateGroup] = useUpdateGroupMutation();
  const [failure, setFailure] = useState<{ text: string; reason?: string } | null>(null);
  const specFailureText = mode === 'create' ? ADMIN_TEXT.failedToCreateGroup : ADMIN_TEXT.failedToUpdateGroup;

  const formik = useFormik<GroupFormValues>({
    initialValues: group ? formValuesOf(group) : NEW_GROUP,
    validationSchema: groupSchema,
    onSubmit: async (values) => {
      setFailure(null);
      const body = groupBodyOf(values);
      const result =
        mode === 'create'
          ? await createGroup(body)
          : await updateGroup({ id: group._id, changes: groupChanges(group, { ...group, ...body }) });
      if (result.error) {
        setFailure({ text: specFailureText, reason: reasonOf(result.error) });
        if (mode === 'create')
          notify({
            message: failureText(ADMIN_TEXT.failedToCreateGroup, result.error),
            severity: 'error',
            durationMs: NOTIFY_DURATION.notSaved,
          });
        return;
      }
      notify({
        message:
          mode === 'create' ? `Group ${result.data.name} created.` : `Group ${result.data.name} updated.`,
        severity: 'success',
      });
      onClose(result.data);
    },
  });

  const fieldError = (
    name: 'name' | 'code' | 'professionalFeePercentage' | 'extraField' | 'reportNameFormat',
  ) => (formik.touched[name] && typeof formik.errors[name] === 'string' ? formik.errors[name] : undefined);
  const textField = (
    name: 'name' | 'code' | 'professionalFeePercentage' | 'extraField' | 'reportNameFormat',
    label: string,
    extra: { type?: string; autoFocus?: boolean; required?: boolean; helperText?: string } = {},
  ) => (
    <TextField
      {...formik.getFieldProps(name)}
      id={`group-${name}`}
      label={label}
      size="small"
      margin="none"
      type={extra.type}
      autoFocus={extra.autoFocus}
      required={extra.required}
      error={fieldError(name) !== undefined}
      helperText={fieldError(name) ?? extra.helperText}
      disabled={formik.isSubmitting}
    />
  );
  const checkbox = (name: 'active' | 'includeVAT' | 'includeProfessionalFee', label: string) => (
    <FormControlLabel
      label={label}
      control={
        <Checkbox
          name={name}
          checked={formik.values[name]}
          onChange={formik.handleChange}
          disabled={formik.isSubmitting}
          size="small"
        />
      }
    />
  );

  return (
    <Dialog
      open
      onClose={formik.isSubmitting ? undefined : () => onClose()}
      maxWidth="md"
      fullWidth
      slotProps={{
        paper: {
          sx: { height: groupDialogHeight(formik.values.references.length), maxHeight: 'calc(100% - 64px)' },
        },
      }}
    >
      <DialogForm onSubmit={formik.handleSubmit}>
        <DialogTitle>{mode === 'create' ? 'New group' : `Update group ${group.name}`}</DialogTitle>
        <DialogContent dividers>
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              <AlertTitle>{failure.text}</AlertTitle>
              {failure.reason}
            </Alert>
          )}
          <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '2fr 1fr' }, gap: 2, pt: 0.5 }}>
            {textField('name', 'Name', { autoFocus: true, required: true })}
            {textField('code', 'Code', { required: true })}
            <AdminUserPicker
              label="Admin"
              size="small"
              value={formik.values.admin}
              onChange={(choice) => void formik.setFieldValue('admin', choice)}
            />
            {textField('professionalFeePercentage', 'Professional fee (%)', { type: 'number' })}
            {textField('extraField', 'Extra field')}
            {textField('reportNameFormat', 'Report name format')}
          </Box>
          <FormGroup row sx={{ mt: 1 }}>
            {checkbox('active', 'Active')}
            {checkbox('includeVAT', 'Include VAT')}
            {checkbox('includeProfessionalFee', 'Include professional fee')}
          </FormGroup>
          <Divider sx={{ my: 1.5 }} />
          <Typography variant="subtitle2" sx={{ mb: 1.5 }}>
            References
          </Typography>
          <ReferencesEditor
            noun="Reference"
            value={formik.values.references}
            onChange={(references) => void formik.setFieldValue('references', references)}
            disabled={formik.isSubmitting}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()} disabled={formik.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={formik.isSubmitting}>
            {mode === 'create' ? 'Create group' : 'Save group'}
          </Button>
        </DialogActions>
      </DialogForm>
    </Dialog>
  );
}
