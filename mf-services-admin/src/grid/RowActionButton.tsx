import type { ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/** A grid row's action: a small icon button with its tooltip and its own accessible name. */
export function RowActionButton({
  title,
  label,
  onClick,
  children,
}: {
  title: string;
  /** The button's accessible name, naming the row (e.g. 'Delete user Johan Botha'). */
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={title}>
      <IconButton size="small" aria-label={label} onClick={onClick}>
        {children}
      </IconButton>
    </Tooltip>
  );
}
