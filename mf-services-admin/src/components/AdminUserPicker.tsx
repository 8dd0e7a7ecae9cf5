import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { AdminUser } from '@portal/contracts';
import { useDebouncedValue } from '@portal/web-kit';
import { ADMIN_TEXT } from '../texts';
import { useSearchUsersQuery } from '../api/usersApi';

/** A group's admin as the pickers and grids show it: 'name (email)' (spec 03 "Groups grid"). */
export interface AdminChoice {
  id: string;
  label: string;
}

const adminChoiceOf = (user: AdminUser): AdminChoice => ({
  id: user._id,
  label: `${user.name} (${user.email})`,
});

interface AdminUserPickerProps {
  value: AdminChoice | null;
  onChange: (choice: AdminChoice | null) => void;
  /** The field's label; without one (in a grid cell) it is only announced, as 'Admin'. */
  label?: string;
  size?: 'small' | 'medium';
  autoFocus?: boolean;
  error?: boolean;
  helperText?: string;
  /** Opens the list at once (in a grid cell, where the editor appears on demand). */
  openOnMount?: boolean;
}

/**
 * Picks a user as a group's admin. There are many users: the list asks the server (GET users?search=)
 * for the users matching what is typed, rather than loading them all.
 */
export function AdminUserPicker({
  value,
  onChange,
  label,
  size = 'medium',
  autoFocus,
  error,
  helperText,
  openOnMount = false,
}: AdminUserPickerProps) {
  const [open, setOpen] = useState(openOnMount);
  const [input, setInput] = useState('');
  // Once a user is picked the field shows their label: that is not a search.
  const search = useDebouncedValue(value && input === value.label ? '' : input.trim(), 300);
  const { data: users = [], isFetching, isError } = useSearchUsersQuery(search, { skip: !open });

  return (
    <Autocomplete<AdminChoice>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={value}
      onChange={(_event, choice) => onChange(choice)}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      options={users.map(adminChoiceOf)}
      // The server has filtered them already.
      filterOptions={(options) => options}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      getOptionLabel={(option) => option.label}
      loading={isFetching}
      loadingText={ADMIN_TEXT.loading}
      noOptionsText={isError ? ADMIN_TEXT.loadingError : 'No matching users'}
      size={size}
      fullWidth
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': label ? undefined : 'Admin' },
          }}
          margin="none"
          autoFocus={autoFocus}
          error={error}
          helperText={helperText}
          placeholder="Search by name or e-mail"
        />
      )}
    />
  );
}
