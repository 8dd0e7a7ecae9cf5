import { Suspense, useCallback, useMemo, useState } from 'react';
import type OlMap from 'ol/Map';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REQUEST_STATUSES,
  REQUEST_TYPES,
  type RequestMapPoint,
  type RequestStatus,
  type RequestType,
} from '@portal/contracts';
import { MapView } from '@portal/web-kit';
import { MapPopup } from '@portal/web-kit/locator';
import { useRequestMapQuery } from './api';
import { filtersProblem, mapParams, NO_FILTERS, type Box as MapBox, type RequestFilters } from './filters';
import { RequestPopup } from './RequestPopup';
import { RequestsLayer } from './RequestsLayer';
import { SPATIALKEY_TEXT as T } from './texts';
import { useMapBox } from './useMapBox';

function MultiSelect<V extends string>({
  label,
  allLabel,
  options,
  value,
  onChange,
}: {
  label: string;
  allLabel: string;
  options: readonly V[];
  value: V[];
  onChange: (value: V[]) => void;
}) {
  const id = `spatialkey-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <FormControl size="small" sx={{ minWidth: 180 }}>
      <InputLabel id={`${id}-label`} shrink>
        {label}
      </InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        multiple
        displayEmpty
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          onChange((typeof next === 'string' ? next.split(',') : next) as V[]);
        }}
        input={<OutlinedInput notched label={label} />}
        renderValue={(selected) => (selected.length ? selected.join(', ') : allLabel)}
      >
        {options.map((option) => (
          <MenuItem key={option} value={option}>
            {option}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/**
 * The mapping service (/spatialkey): the user's requests (staff: everyone's) on the map, clustered,
 * filtered by status, type and creation date, asked for again for the map's box once it rests; a popup per
 * request, and a notice when the server answered only the newest of more.
 */
export function SpatialKeyPage() {
  const [filters, setFilters] = useState<RequestFilters>(NO_FILTERS);
  const [box, setBox] = useState<MapBox | null>(null);
  const [map, setMap] = useState<OlMap | null>(null);
  const [selected, setSelected] = useState<RequestMapPoint[] | null>(null);
  useMapBox(map, setBox);

  const problem = filtersProblem(filters);
  const params = useMemo(() => mapParams(filters, box), [filters, box]);
  const { data, isFetching, isError, refetch } = useRequestMapQuery(params, { skip: !!problem });
  const points = useMemo(() => data?.points ?? [], [data]);
  const onSelect = useCallback((requests: RequestMapPoint[] | null) => setSelected(requests), []);
  const change = (patch: Partial<RequestFilters>) => {
    setSelected(null);
    setFilters((current) => ({ ...current, ...patch }));
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 64px)', minHeight: 480 }}>
      <Paper square elevation={1} sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h1" sx={{ mr: 2 }}>
            {T.title}
          </Typography>
          <MultiSelect<RequestStatus>
            label={T.status}
            allLabel={T.allStatuses}
            options={REQUEST_STATUSES}
            value={filters.statuses}
            onChange={(statuses) => change({ statuses })}
          />
          <MultiSelect<RequestType>
            label={T.type}
            allLabel={T.allTypes}
            options={REQUEST_TYPES}
            value={filters.types}
            onChange={(types) => change({ types })}
          />
          <TextField
            size="small"
            type="date"
            label={T.from}
            value={filters.from}
            onChange={(event) => change({ from: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="date"
            label={T.to}
            value={filters.to}
            onChange={(event) => change({ to: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button onClick={() => change(NO_FILTERS)} disabled={filters === NO_FILTERS}>
            {T.clear}
          </Button>
          <Box sx={{ flex: 1 }} />
          {isFetching && <CircularProgress size={20} aria-label={T.loading} />}
          {data && !problem && (
            <Chip data-testid="request-count" label={T.count(data.points.length, data.total)} />
          )}
        </Stack>
        {problem && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {problem}
          </Alert>
        )}
        {isError && !problem && (
          <Alert
            severity="error"
            sx={{ mt: 1 }}
            action={
              <Button color="inherit" size="small" onClick={() => void refetch()}>
                {T.retry}
              </Button>
            }
          >
            {T.failed}
          </Alert>
        )}
        {data?.truncated && !problem && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="truncated-notice">
            {T.truncated(data.points.length, data.total)}
          </Alert>
        )}
      </Paper>
      <Box sx={{ flex: 1, minHeight: 0, position: 'relative' }} data-testid="spatialkey-map">
        <Suspense
          fallback={
            <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
              <CircularProgress />
            </Box>
          }
        >
          <MapView onMapReady={setMap}>
            <RequestsLayer points={points} onSelect={onSelect} />
            {selected && selected.length > 0 && (
              <MapPopup position={{ lat: selected[0].lat, lng: selected[0].lng }}>
                <RequestPopup requests={selected} onClose={() => setSelected(null)} />
              </MapPopup>
            )}
          </MapView>
        </Suspense>
      </Box>
    </Box>
  );
}
