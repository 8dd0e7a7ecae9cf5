import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  INSIGHT_PRESETS,
  INSIGHT_PRESET_LABELS,
  REQUEST_TYPES,
  insightPresetRange,
  type InsightPreset,
} from '@portal/contracts';
import { INSIGHT_TEXT } from '../texts';

export interface InsightFilterValues {
  preset: InsightPreset;
  from: string;
  to: string;
  /** '' : every group (or, for a group's admin, their own). */
  group: string;
  /** '' : every type. */
  type: string;
}

export const initialFilters = (now = new Date()): InsightFilterValues => ({
  preset: 'thisWeek',
  ...insightPresetRange('thisWeek', now),
  group: '',
  type: '',
});

/**
 * The period (a preset, or 'Custom' with its two days: editing a day makes the period custom), the group
 * (the console's roles pick any; a group's admin sees their own, read-only) and the request type.
 */
export function InsightFilters({
  values,
  onChange,
  groups,
  ownGroupName,
}: {
  values: InsightFilterValues;
  onChange: (values: InsightFilterValues) => void;
  /** The groups to pick from; null for a group's admin (their own group only). */
  groups: { id: string; name: string }[] | null;
  ownGroupName?: string;
}) {
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, flexWrap: 'wrap' }} useFlexGap>
      <TextField
        select
        size="small"
        label={INSIGHT_TEXT.period}
        value={values.preset}
        onChange={(event) => {
          const preset = event.target.value as InsightPreset;
          onChange(
            preset === 'custom'
              ? { ...values, preset }
              : { ...values, preset, ...insightPresetRange(preset) },
          );
        }}
        sx={{ minWidth: 170 }}
      >
        {INSIGHT_PRESETS.map((preset) => (
          <MenuItem key={preset} value={preset}>
            {INSIGHT_PRESET_LABELS[preset]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        size="small"
        label={INSIGHT_TEXT.from}
        value={values.from}
        onChange={(event) =>
          event.target.value && onChange({ ...values, preset: 'custom', from: event.target.value })
        }
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: values.to } }}
      />
      <TextField
        type="date"
        size="small"
        label={INSIGHT_TEXT.to}
        value={values.to}
        onChange={(event) =>
          event.target.value && onChange({ ...values, preset: 'custom', to: event.target.value })
        }
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: values.from } }}
      />
      {groups ? (
        <TextField
          select
          size="small"
          label={INSIGHT_TEXT.group}
          value={values.group}
          onChange={(event) => onChange({ ...values, group: event.target.value })}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{INSIGHT_TEXT.allGroups}</MenuItem>
          {groups.map((group) => (
            <MenuItem key={group.id} value={group.id}>
              {group.name}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <TextField
          size="small"
          label={INSIGHT_TEXT.group}
          value={ownGroupName || INSIGHT_TEXT.ownGroup}
          slotProps={{ input: { readOnly: true } }}
        />
      )}
      <TextField
        select
        size="small"
        label={INSIGHT_TEXT.type}
        value={values.type}
        onChange={(event) => onChange({ ...values, type: event.target.value })}
        sx={{ minWidth: 140 }}
      >
        <MenuItem value="">{INSIGHT_TEXT.allTypes}</MenuItem>
        {REQUEST_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {type}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
