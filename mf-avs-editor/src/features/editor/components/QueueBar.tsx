import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ParcelQueue } from '../../../api/editorApi';
import { TEXT } from '../../../texts';

/** The queue buttons (spec 03 §2): the next multi-address, empty or can't-locate item; validators also parcels to validate. */
export function QueueBar({
  canValidate,
  takingParcel,
  takingCantLocate,
  onTakeParcel,
  onTakeCantLocate,
}: {
  canValidate: boolean;
  takingParcel: boolean;
  takingCantLocate: boolean;
  onTakeParcel: (queue: ParcelQueue) => void;
  onTakeCantLocate: () => void;
}) {
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1.5, flexWrap: 'wrap', rowGap: 1 }} aria-label="Queues">
      <Button variant="contained" disabled={takingParcel} onClick={() => onTakeParcel('multi')}>
        {TEXT.nextMulti}
      </Button>
      <Button variant="contained" disabled={takingParcel} onClick={() => onTakeParcel('empty')}>
        {TEXT.nextEmpty}
      </Button>
      <Button variant="contained" disabled={takingCantLocate} onClick={onTakeCantLocate}>
        {TEXT.nextCantLocate}
      </Button>
      {canValidate && (
        <Button variant="outlined" disabled={takingParcel} onClick={() => onTakeParcel('validate')}>
          {TEXT.nextValidate}
        </Button>
      )}
    </Stack>
  );
}
