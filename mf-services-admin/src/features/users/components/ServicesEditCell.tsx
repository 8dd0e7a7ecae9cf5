import { useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import InputBase from '@mui/material/InputBase';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useGridApiContext, type GridRenderEditCellParams } from '@mui/x-data-grid';
import type { AdminUser } from '@portal/contracts';
import { SERVICE_CHOICES } from '../../../constants';
import { ServiceChips } from './ServiceChips';

/**
 * Edits a user's services column (spec 03 "Users grid": tags from AVS, IRiS, SAVi and SpatialKey): a
 * list to tick opens at once; closing it ends the edit, and the grid saves the change.
 */
export function ServicesEditCell({ id, field, value, row }: GridRenderEditCellParams<AdminUser, string[]>) {
  const apiRef = useGridApiContext();
  const [open, setOpen] = useState(true);
  const services = value ?? [];

  return (
    <Select<string[]>
      multiple
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => {
        setOpen(false);
        apiRef.current.stopCellEditMode({ id, field });
      }}
      value={services}
      onChange={(event) => {
        const chosen = event.target.value;
        void apiRef.current.setEditCellValue({
          id,
          field,
          value: typeof chosen === 'string' ? chosen.split(',') : chosen,
        });
      }}
      input={<InputBase sx={{ width: '100%', height: '100%', px: 1 }} />}
      renderValue={(selected) => <ServiceChips services={selected} />}
      inputProps={{ 'aria-label': `Services of ${row.name}` }}
    >
      {SERVICE_CHOICES.map(({ identifier, label }) => (
        <MenuItem key={identifier} value={identifier} dense>
          <Checkbox size="small" checked={services.includes(identifier)} />
          <ListItemText primary={label} />
        </MenuItem>
      ))}
    </Select>
  );
}
