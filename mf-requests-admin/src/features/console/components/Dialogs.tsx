import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { QC_DEFAULTS } from '@portal/domain';
import { PropertyTypeSelect } from '../../../components/PropertyTypeSelect';

interface DialogProps<T> {
  open: boolean;
  onClose: () => void;
  onSubmit: (value: T) => void | Promise<void>;
}

/**
 * One required text in a dialog (a comment, an invoice number): the action is refused while it is blank;
 * the text goes out trimmed.
 */
function RequiredTextDialog({
  title,
  action,
  label,
  missingText,
  multiline = false,
  clearAfterSubmit = false,
  maxWidth,
  open,
  onClose,
  onSubmit,
}: DialogProps<string> & {
  title: string;
  action: string;
  label: string;
  /** The field's message while it is blank. */
  missingText: string;
  multiline?: boolean;
  /** Empty the field after a submit (a dialog kept mounted and opened again). */
  clearAfterSubmit?: boolean;
  maxWidth: 'xs' | 'sm';
}) {
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const missing = text.trim() === '';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth={maxWidth}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          {...(multiline ? { multiline: true, minRows: 3 } : {})}
          fullWidth
          label={label}
          value={text}
          onChange={(event) => setText(event.target.value)}
          error={touched && missing}
          helperText={touched && missing ? missingText : ' '}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={async () => {
            setTouched(true);
            if (missing) return;
            await onSubmit(text.trim());
            if (clearAfterSubmit) {
              setText('');
              setTouched(false);
            }
          }}
        >
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A comment that must not be empty (a query, a dispute). */
export function CommentDialog(props: DialogProps<string> & { title: string; action: string }) {
  return (
    <RequiredTextDialog
      {...props}
      label="Comment"
      missingText="A comment is required."
      multiline
      clearAfterSubmit
      maxWidth="sm"
    />
  );
}

export interface FeeValues {
  type: string;
  buildings: number;
  price: number;
}

/** Spec 02 §7.2 update_all_fees: property type, number of buildings and unit price, all required. */
export function FeeDialog({ open, onClose, onSubmit, count }: DialogProps<FeeValues> & { count: number }) {
  const [type, setType] = useState<string>(QC_DEFAULTS.propertyType);
  const [buildings, setBuildings] = useState(String(QC_DEFAULTS.numberOfBuildings));
  const [price, setPrice] = useState('');
  const [touched, setTouched] = useState(false);
  const buildingsValue = Number(buildings);
  const priceValue = Number(price);
  const buildingsBad = buildings.trim() === '' || !Number.isInteger(buildingsValue) || buildingsValue < 0;
  const priceBad = price.trim() === '' || !Number.isFinite(priceValue) || priceValue < 0;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Update fees of {count} requests</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <PropertyTypeSelect value={type} onChange={setType} />
          <TextField
            label="Number of buildings"
            type="number"
            value={buildings}
            onChange={(event) => setBuildings(event.target.value)}
            error={touched && buildingsBad}
            helperText={
              touched && buildingsBad ? 'A whole number of buildings (0 or more) is required.' : ' '
            }
          />
          <TextField
            label="Unit price (R)"
            type="number"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            error={touched && priceBad}
            helperText={touched && priceBad ? 'A price of 0 or more is required.' : ' '}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={async () => {
            setTouched(true);
            if (buildingsBad || priceBad) return;
            await onSubmit({ type, buildings: buildingsValue, price: priceValue });
          }}
        >
          Update fees
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Spec 02 §7.2 markInvoiced: the invoice number of the selected requests. */
export function InvoiceDialog({ count, ...props }: DialogProps<string> & { count: number }) {
  return (
    <RequiredTextDialog
      {...props}
      title={`Mark ${count} requests invoiced`}
      action="Mark invoiced"
      label="Invoice number"
      missingText="An invoice number is required."
      maxWidth="xs"
    />
  );
}
