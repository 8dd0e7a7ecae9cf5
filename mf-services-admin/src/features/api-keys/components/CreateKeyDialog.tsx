import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { API_KEY_STAFF_ROLES, type ApiKeyScope } from '@portal/contracts';
import { DialogForm } from '../../../layout/DialogForm';
import { API_KEYS_TEXT as T } from '../../../texts';
import { emptyKeyForm, keyFormProblems, type KeyForm } from '../keyForm';

const toggled = (list: string[], value: string, on: boolean) =>
  on ? [...list, value] : list.filter((item) => item !== value);

/**
 * Creating a key: its name, the services it may use (checkboxes of the group's services only), read-only or
 * read-write, an expiry date, and for administrators the staff roles it acts with. Problems show on submit,
 * beside their fields; the service's refusal (e.g. a service taken from the group meanwhile) under them.
 */
export function CreateKeyDialog({
  groupServices,
  mayGiveRoles,
  failure,
  creating,
  onCreate,
  onClose,
}: {
  groupServices: string[];
  mayGiveRoles: boolean;
  /** The service's refusal of the last try. */
  failure: string | null;
  creating: boolean;
  onCreate: (form: KeyForm) => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<KeyForm>(emptyKeyForm);
  const [submitted, setSubmitted] = useState(false);
  const problems = submitted ? keyFormProblems(form) : {};
  const change = (changes: Partial<KeyForm>) => setForm((current) => ({ ...current, ...changes }));

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (Object.keys(keyFormProblems(form)).length === 0) onCreate(form);
  };

  return (
    <Dialog
      open
      onClose={creating ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby="create-key-title"
    >
      <DialogForm onSubmit={submit}>
        <DialogTitle id="create-key-title">{T.createKey}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label={T.name}
              value={form.name}
              onChange={(event) => change({ name: event.target.value })}
              required
              autoFocus
              slotProps={{ htmlInput: { maxLength: 100 } }}
              error={!!problems.name}
              helperText={problems.name ?? T.nameHelp}
            />
            <FormControl component="fieldset" error={!!problems.services} required>
              <FormLabel component="legend">{T.services}</FormLabel>
              {groupServices.length === 0 ? (
                <FormHelperText>{T.noServices}</FormHelperText>
              ) : (
                <FormGroup row>
                  {groupServices.map((service) => (
                    <FormControlLabel
                      key={service}
                      label={service}
                      control={
                        <Checkbox
                          checked={form.services.includes(service)}
                          onChange={(event) =>
                            change({ services: toggled(form.services, service, event.target.checked) })
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
              )}
              <FormHelperText>{problems.services ?? T.servicesHelp}</FormHelperText>
            </FormControl>
            <FormControl component="fieldset">
              <FormLabel component="legend">{T.scope}</FormLabel>
              <RadioGroup
                value={form.scope}
                onChange={(event) => change({ scope: event.target.value as ApiKeyScope })}
              >
                <FormControlLabel value="read" control={<Radio />} label={T.read} />
                <FormControlLabel value="write" control={<Radio />} label={T.write} />
              </RadioGroup>
            </FormControl>
            <TextField
              label={T.expires}
              type="date"
              value={form.expires}
              onChange={(event) => change({ expires: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              error={!!problems.expires}
              helperText={problems.expires ?? T.expiresHelp}
            />
            {mayGiveRoles && (
              <FormControl component="fieldset">
                <FormLabel component="legend">{T.roles}</FormLabel>
                <FormGroup row>
                  {API_KEY_STAFF_ROLES.map((role) => (
                    <FormControlLabel
                      key={role}
                      label={role}
                      control={
                        <Checkbox
                          checked={form.roles.includes(role)}
                          onChange={(event) =>
                            change({ roles: toggled(form.roles, role, event.target.checked) })
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </FormControl>
            )}
            {failure && <Alert severity="error">{failure}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={creating}>
            {T.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={creating}>
            {T.create}
          </Button>
        </DialogActions>
      </DialogForm>
    </Dialog>
  );
}
