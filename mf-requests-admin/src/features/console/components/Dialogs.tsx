import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { PROPERTY_TYPES, QC_DEFAULTS } from '@portal/domain';

interface DialogProps<T> {
  open: boolean;
  onClose: () => void;
  onSubmit: (value: T) => void | Promise<void>;
}

/** A comment that must not be empty (a query, a dispute). */
export function CommentDialog({
  title,
  action,
  open,
  onClose,
  onSubmit,
}: DialogProps<string> & { title: string; action: string }) {
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const missing = comment.trim() === '';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          multiline
          minRows={3}
          fullWidth
          label="Comment"
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          error={touched && missing}
          helperText={touched && missing ? 'A comment is required.' : ' '}
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
            await onSubmit(comment.trim());
            setComment('');
            setTouched(false);
          }}
        >
          {action}
        </Button>
      </DialogActions>
    </Dialog>
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
          <TextField
            select
            label="Property type"
            value={type}
            onChange={(event) => setType(event.target.value)}
          >
            {PROPERTY_TYPES.map((option) => (
              <MenuItem key={option} value={option}>
                {option}
              </MenuItem>
            ))}
          </TextField>
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
export function InvoiceDialog({ open, onClose, onSubmit, count }: DialogProps<string> & { count: number }) {
  const [invoice, setInvoice] = useState('');
  const [touched, setTouched] = useState(false);
  const missing = invoice.trim() === '';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Mark {count} requests invoiced</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          label="Invoice number"
          value={invoice}
          onChange={(event) => setInvoice(event.target.value)}
          error={touched && missing}
          helperText={touched && missing ? 'An invoice number is required.' : ' '}
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
            await onSubmit(invoice.trim());
          }}
        >
          Mark invoiced
        </Button>
      </DialogActions>
    </Dialog>
  );
}
