import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { RateRow } from '@portal/contracts';
import { PLEASE_SELECT_OR_TYPE } from '@portal/domain';
import {
  categoryOptions,
  classOptions,
  rateLevelChange,
  rateOption,
  typeOptions,
  type RatedItem,
} from '../report/rateOptions';
import { Choice } from './Choice';

/**
 * The cascading rate dropdowns of a building or an improvement (spec 02 §2.3, §4.4): category → type →
 * class from the group's rates, then the rate, typed or the one the class offers (`listId` names the
 * rate's datalist). A change of one level hands the item's change to `onChange`.
 */
export function RateChoices({
  item,
  rows,
  listId,
  onChange,
  disabled,
}: {
  item: RatedItem;
  rows: readonly RateRow[];
  listId: string;
  onChange: (change: ReturnType<typeof rateLevelChange>) => void;
  disabled: boolean;
}) {
  const offeredRate = item.class ? rateOption(rows, item) : null;
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Choice
        label="Category"
        value={item.category}
        options={categoryOptions(rows)}
        onChange={(v) => onChange(rateLevelChange(rows, item, 'category', v))}
        disabled={disabled}
      />
      <Choice
        label="Type"
        value={item.type}
        options={item.category ? typeOptions(rows, item.category) : []}
        onChange={(v) => onChange(rateLevelChange(rows, item, 'type', v))}
        disabled={disabled}
      />
      <Choice
        label="Class"
        value={item.class}
        options={item.category && item.type ? classOptions(rows, item.category, item.type) : []}
        onChange={(v) => onChange(rateLevelChange(rows, item, 'class', v))}
        disabled={disabled}
      />
      <TextField
        label="Rate"
        placeholder={PLEASE_SELECT_OR_TYPE}
        value={item.rate == null ? '' : String(item.rate)}
        onChange={(e) => onChange(rateLevelChange(rows, item, 'rate', e.target.value))}
        slotProps={{ htmlInput: { list: listId }, inputLabel: { shrink: true } }}
        disabled={disabled}
      />
      <datalist id={listId}>{offeredRate !== null && <option value={String(offeredRate)} />}</datalist>
    </Stack>
  );
}
