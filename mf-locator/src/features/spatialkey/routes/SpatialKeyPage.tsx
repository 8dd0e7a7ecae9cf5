import { Suspense, useCallback, useMemo, useState } from 'react';
import type OlMap from 'ol/Map';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
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
import { useRequestMapQuery } from '../../../api/locatorApi';
import { SPATIALKEY_TEXT } from '../../../texts';
import { DateFilter, MultiSelect } from '../components/FilterFields';
import { RequestPopup } from '../components/RequestPopup';
import { RequestsLayer } from '../components/RequestsLayer';
import { filtersProblem, mapParams, NO_FILTERS, type Box as MapBox, type RequestFilters } from '../filters';
import { useMapBox } from '../useMapBox';

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
            {SPATIALKEY_TEXT.title}
          </Typography>
          <MultiSelect<RequestStatus>
            label={SPATIALKEY_TEXT.status}
            allLabel={SPATIALKEY_TEXT.allStatuses}
            options={REQUEST_STATUSES}
            value={filters.statuses}
            onChange={(statuses) => change({ statuses })}
          />
          <MultiSelect<RequestType>
            label={SPATIALKEY_TEXT.type}
            allLabel={SPATIALKEY_TEXT.allTypes}
            options={REQUEST_TYPES}
            value={filters.types}
            onChange={(types) => change({ types })}
          />
          <DateFilter
            label={SPATIALKEY_TEXT.from}
            value={filters.from}
            onChange={(from) => change({ from })}
          />
          <DateFilter label={SPATIALKEY_TEXT.to} value={filters.to} onChange={(to) => change({ to })} />
          <Button onClick={() => change(NO_FILTERS)} disabled={filters === NO_FILTERS}>
            {SPATIALKEY_TEXT.clear}
          </Button>
          <Box sx={{ flex: 1 }} />
          {isFetching && <CircularProgress size={20} aria-label={SPATIALKEY_TEXT.loading} />}
          {data && !problem && (
            <Chip data-testid="request-count" label={SPATIALKEY_TEXT.count(data.points.length, data.total)} />
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
                {SPATIALKEY_TEXT.retry}
              </Button>
            }
          >
            {SPATIALKEY_TEXT.failed}
          </Alert>
        )}
        {data?.truncated && !problem && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="truncated-notice">
            {SPATIALKEY_TEXT.truncated(data.points.length, data.total)}
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
