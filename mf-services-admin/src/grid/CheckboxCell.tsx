import Checkbox from '@mui/material/Checkbox';

interface CheckboxCellProps {
  checked: boolean;
  /** What the box says, e.g. 'Admin for Johan Botha'. */
  label: string;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

/**
 * A checkbox column's cell that changes with one click: the grid's own boolean editor needs a double
 * click, then a click, then leaving the cell.
 */
export function CheckboxCell({ checked, label, onChange, disabled }: CheckboxCellProps) {
  return (
    <Checkbox
      size="small"
      checked={checked}
      disabled={disabled}
      onChange={(_event, value) => onChange(value)}
      // The grid would take the click as the start of a cell edit.
      onDoubleClick={(event) => event.stopPropagation()}
      slotProps={{ input: { 'aria-label': label } }}
    />
  );
}
