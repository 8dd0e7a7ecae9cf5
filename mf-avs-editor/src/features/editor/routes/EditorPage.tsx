import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  AVS_EDITOR_API,
  AVS_EDITOR_ZOOM,
  type CantLocateItem,
  type EditorAddress,
  type EditorPoi,
  type LatLng,
  type QueuedParcel,
  type SearchResultItem,
} from '@portal/contracts';
import { roundCoordinate } from '@portal/domain';
import { BUILTIN_SATELLITE_LAYER, MapView, errorMessages, useSearchParams } from '@portal/web-kit';
import { MainMarker, MapPopup, parseGps, useLazySearchQuery } from '@portal/web-kit/locator';
import {
  useAddAddressMutation,
  useAddPoiMutation,
  useAddressActionMutation,
  useDequeueCantLocateMutation,
  useDequeueParcelMutation,
  useDetachPoiMutation,
  useDisplayDataQuery,
  useEditorSettingsQuery,
  useParcelActionMutation,
  usePointDataQuery,
  useReleaseMutation,
  useResolveCantLocateMutation,
  type ParcelQueue,
} from '../../../api/editorApi';
import { TEXT } from '../../../texts';
import { EditorLayers, type Picked } from '../components/EditorLayers';
import { AddressPopup, MarkerPopup, PoiPopup } from '../components/Popups';
import { PointPanel, type FieldState } from '../components/PointPanel';
import { useEditAction } from '../useEditAction';

/** What the operator is working on: a parcel from one of the queues, or a can't-locate request. */
type Work = (
  { kind: ParcelQueue; parcel: QueuedParcel } | { kind: 'cantLocate'; request: CantLocateItem }
) & {
  /** What is left in the queue, counted up to QUEUE_COUNT_LIMIT. */
  remaining: number;
};

type Popup = { kind: 'marker' } | Picked;

const QUEUE_NAMES: Record<ParcelQueue, string> = {
  multi: 'Multi-address parcel',
  empty: 'Empty parcel',
  validate: 'Parcel to validate',
};

const sast = (iso: string) =>
  iso
    ? new Date(iso).toLocaleTimeString('en-ZA', {
        timeZone: 'Africa/Johannesburg',
        hour: '2-digit',
        minute: '2-digit',
      })
    : '';

const rounded = (point: LatLng): LatLng => ({
  lat: roundCoordinate(point.lat),
  lng: roundCoordinate(point.lng),
});

function readPoint(search: URLSearchParams): LatLng | null {
  const lat = Number(search.get('lat'));
  const lng = Number(search.get('lng'));
  if (!search.get('lat') || !search.get('lng') || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return rounded({ lat, lng });
}

/**
 * Gives back what the operator holds when they leave the page (or the tab closes): the next operator
 * need not wait for the hold to expire. A beacon, so it is sent even as the page goes away.
 */
function useReleaseOnLeave(work: Work | null) {
  const body = useMemo(
    () =>
      work
        ? JSON.stringify(
            work.kind === 'cantLocate'
              ? { kind: 'request', id: work.request.requestId }
              : { kind: 'parcel', id: work.parcel.parcelId },
          )
        : null,
    [work],
  );
  useEffect(() => {
    if (!body) return undefined;
    const send = () => {
      if (typeof navigator.sendBeacon === 'function')
        navigator.sendBeacon(AVS_EDITOR_API.release, new Blob([body], { type: 'application/json' }));
    };
    window.addEventListener('pagehide', send);
    return () => {
      window.removeEventListener('pagehide', send);
    };
  }, [body]);
  // Leaving the page inside the portal (another route): the component goes, the hold is given back.
  const latest = useRef(body);
  useEffect(() => {
    latest.current = body;
  });
  useEffect(
    () => () => {
      if (latest.current && typeof navigator.sendBeacon === 'function')
        navigator.sendBeacon(
          AVS_EDITOR_API.release,
          new Blob([latest.current], { type: 'application/json' }),
        );
    },
    [],
  );
}

/** /avs/editor (spec 03 §2 "Address editor"): queues, map at zoom 18 with its layers and popups, point data. */
export function EditorPage() {
  const [search, setSearch] = useSearchParams();
  const [marker, setMarker] = useState<LatLng | null>(() => readPoint(search));
  const [centre, setCentre] = useState<LatLng | null>(marker);
  const [work, setWork] = useState<Work | null>(null);
  const [popup, setPopup] = useState<Popup | null>(marker ? { kind: 'marker' } : null);
  const [notice, setNotice] = useState<{
    severity: 'info' | 'success' | 'warning' | 'error';
    text: string;
  } | null>(null);
  const [gps, setGps] = useState('');
  const [gpsError, setGpsError] = useState(false);
  const [searchText, setSearchText] = useState('');
  const [runSearch, found] = useLazySearchQuery();
  const settings = useEditorSettingsQuery();
  const display = useDisplayDataQuery(marker ?? skipToken);
  const point = usePointDataQuery(marker ?? skipToken);
  const { run, outcome, setOutcome, busy } = useEditAction();
  useReleaseOnLeave(work);

  const [dequeueParcel, dequeueParcelState] = useDequeueParcelMutation();
  const [dequeueCantLocate, dequeueCantLocateState] = useDequeueCantLocateMutation();
  const [release] = useReleaseMutation();
  const [addressAction] = useAddressActionMutation();
  const [parcelAction] = useParcelActionMutation();
  const [addAddress] = useAddAddressMutation();
  const [addPoi] = useAddPoiMutation();
  const [detachPoi] = useDetachPoiMutation();
  const [resolve] = useResolveCantLocateMutation();

  /** Moves the marker (and, for a jump, the map) to a point; its data and the popup follow. */
  const moveTo = useCallback(
    (next: LatLng, jump: boolean) => {
      const point = rounded(next);
      setMarker(point);
      if (jump) setCentre(point);
      setPopup({ kind: 'marker' });
      setOutcome(null);
      setSearch({ lat: point.lat.toFixed(6), lng: point.lng.toFixed(6) }, { replace: true });
    },
    [setOutcome, setSearch],
  );

  // ---------------------------------------------------------------- queues

  const takeParcel = async (queue: ParcelQueue) => {
    setNotice(null);
    const skip = work && work.kind !== 'cantLocate' ? work.parcel.parcelId : undefined;
    try {
      const answer = await dequeueParcel({ queue, skip }).unwrap();
      if (!answer.parcel) {
        setWork(null);
        setNotice({ severity: 'info', text: TEXT.queueEmpty });
        return;
      }
      setWork({ kind: queue, parcel: answer.parcel, remaining: answer.remaining });
      moveTo({ lat: answer.parcel.lat, lng: answer.parcel.lng }, true);
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessages(error).join(' ') });
    }
  };

  const takeCantLocate = async () => {
    setNotice(null);
    const skip = work?.kind === 'cantLocate' ? work.request.requestId : undefined;
    try {
      const answer = await dequeueCantLocate({ skip }).unwrap();
      if (!answer.request) {
        setWork(null);
        setNotice({ severity: 'info', text: TEXT.queueEmpty });
        return;
      }
      setWork({ kind: 'cantLocate', request: answer.request, remaining: answer.remaining });
      setSearchText(answer.request.query ?? answer.request.searchedFor ?? '');
      if (answer.request.lat !== null && answer.request.lng !== null)
        moveTo({ lat: answer.request.lat, lng: answer.request.lng }, true);
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessages(error).join(' ') });
    }
  };

  const giveBack = async () => {
    if (!work) return;
    await release(
      work.kind === 'cantLocate'
        ? { kind: 'request', id: work.request.requestId }
        : { kind: 'parcel', id: work.parcel.parcelId },
    );
    setWork(null);
  };

  // ---------------------------------------------------------------- search and GPS

  const goToGps = () => {
    const parsed = parseGps(gps);
    setGpsError(!parsed);
    if (parsed) moveTo(parsed, true);
  };

  // ---------------------------------------------------------------- the data under the marker

  const data = point.currentData?.data;
  const fieldState: FieldState = point.isError ? 'error' : !data ? 'loading' : 'ready';
  const parcelVersion = data?.parcelVersion ?? null;
  const addressById = (id: string): EditorAddress | undefined =>
    data?.addresses.find((a) => a.addressId === id) ??
    display.currentData?.addressData.data.features.find((f) => f.id === id)?.properties;
  const poiById = (id: string): EditorPoi | undefined =>
    data?.pois.find((p) => p.poiId === id) ??
    display.currentData?.poiData.data.features.find((f) => f.id === id)?.properties;
  const pick = useCallback(
    (picked: Picked) => {
      setPopup(picked);
      setOutcome(null);
    },
    [setOutcome],
  );

  const cantLocate = work?.kind === 'cantLocate' ? work.request : null;
  const resolveWith = async (body: { addressId?: string; lat?: number; lng?: number }) => {
    if (!cantLocate) return;
    const answer = await run(
      () => resolve({ requestId: cantLocate.requestId, version: cantLocate.version, ...body }).unwrap(),
      (result) => TEXT.resolved(result.gripReference, result.address),
    );
    if (answer) {
      setWork(null);
      setNotice({ severity: 'success', text: TEXT.resolved(answer.gripReference, answer.address) });
    }
  };

  const pickedAddress = popup?.kind === 'address' ? addressById(popup.id) : undefined;
  const pickedPoi = popup?.kind === 'poi' ? poiById(popup.id) : undefined;
  const loadError = settings.isError ? settings.error : display.isError ? display.error : point.error;

  return (
    <Container maxWidth={false} sx={{ py: 2, maxWidth: 1900 }}>
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        {TEXT.title}
      </Typography>

      <Stack direction="row" spacing={1} sx={{ mb: 1.5, flexWrap: 'wrap', rowGap: 1 }} aria-label="Queues">
        <Button
          variant="contained"
          disabled={dequeueParcelState.isLoading}
          onClick={() => takeParcel('multi')}
        >
          {TEXT.nextMulti}
        </Button>
        <Button
          variant="contained"
          disabled={dequeueParcelState.isLoading}
          onClick={() => takeParcel('empty')}
        >
          {TEXT.nextEmpty}
        </Button>
        <Button variant="contained" disabled={dequeueCantLocateState.isLoading} onClick={takeCantLocate}>
          {TEXT.nextCantLocate}
        </Button>
        {settings.data?.canValidate && (
          <Button
            variant="outlined"
            disabled={dequeueParcelState.isLoading}
            onClick={() => takeParcel('validate')}
          >
            {TEXT.nextValidate}
          </Button>
        )}
      </Stack>

      {loadError && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {`${TEXT.loadingError}: ${errorMessages(loadError).join(' ')}`}
        </Alert>
      )}
      {notice && (
        <Alert
          severity={notice.severity}
          sx={{ mb: 1 }}
          onClose={() => setNotice(null)}
          data-testid="editor-notice"
        >
          {notice.text}
        </Alert>
      )}

      {work && (
        <Paper variant="outlined" sx={{ p: 1.5, mb: 1.5 }} data-testid="work-item">
          {work.kind === 'cantLocate' ? (
            <Stack spacing={0.5}>
              <Typography variant="subtitle1">{`Can't-locate request ${work.request.gripReference}`}</Typography>
              <Typography variant="body2">{`Address as the user had it: ${work.request.query ?? work.request.searchedFor ?? '–'}`}</Typography>
              {work.request.comments && (
                <Typography variant="body2">{`Comments: ${work.request.comments}`}</Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {`${work.request.requestedBy}${work.request.group ? ` · ${work.request.group}` : ''} · ${TEXT.held(sast(work.request.heldUntil))} · ${TEXT.waiting(work.remaining)}`}
              </Typography>
            </Stack>
          ) : (
            <Typography variant="subtitle1">
              {`${QUEUE_NAMES[work.kind]} ${data?.parcelId === work.parcel.parcelId && data.parcelNo ? `Erf ${data.parcelNo}` : work.parcel.parcelId} · ${TEXT.held(sast(work.parcel.heldUntil))} · ${TEXT.waiting(work.remaining)}`}
            </Typography>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            {work.kind === 'multi' && (
              <Button
                size="small"
                variant="outlined"
                disabled={busy || parcelVersion === null || data?.parcelId !== work.parcel.parcelId}
                onClick={async () => {
                  const done = await run(() =>
                    parcelAction({
                      kind: 'reviewed',
                      parcelId: work.parcel.parcelId,
                      version: parcelVersion!,
                    }).unwrap(),
                  );
                  if (done) await takeParcel('multi');
                }}
              >
                {TEXT.parcelDone}
              </Button>
            )}
            <Button size="small" onClick={giveBack}>
              {TEXT.release}
            </Button>
          </Stack>
        </Paper>
      )}

      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mb: 1 }}>
            <Box
              component="form"
              sx={{ display: 'flex', gap: 1, flex: 1 }}
              onSubmit={(event) => {
                event.preventDefault();
                if (searchText.trim()) void runSearch({ query: searchText.trim() });
              }}
            >
              <TextField
                size="small"
                fullWidth
                label={TEXT.search}
                value={searchText}
                onChange={(event) => setSearchText(event.target.value)}
              />
              <Button type="submit" variant="outlined">
                {TEXT.searchButton}
              </Button>
            </Box>
            <Box
              component="form"
              sx={{ display: 'flex', gap: 1 }}
              onSubmit={(event) => {
                event.preventDefault();
                goToGps();
              }}
            >
              <TextField
                size="small"
                label={TEXT.gps}
                placeholder={TEXT.gpsHint}
                value={gps}
                onChange={(event) => setGps(event.target.value)}
                error={gpsError}
                helperText={gpsError ? TEXT.gpsInvalid : undefined}
              />
              <Button type="submit" variant="outlined">
                {TEXT.go}
              </Button>
            </Box>
          </Stack>
          {found.isFetching && <LinearProgress aria-label="Searching" />}
          {found.currentData && (
            <List dense aria-label="Search results" sx={{ maxHeight: 180, overflow: 'auto', mb: 1 }}>
              {found.currentData.result.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  {TEXT.noResults}
                </Typography>
              )}
              {found.currentData.result.map((item: SearchResultItem) => (
                <ListItemButton key={`${item.type}:${item.id}`} onClick={() => moveTo(item.location, true)}>
                  <ListItemText primary={item.formatted_address} secondary={item.type} />
                </ListItemButton>
              ))}
            </List>
          )}
          <Box sx={{ height: 680, position: 'relative' }} data-testid="editor-map">
            {!marker && (
              <Alert severity="info" sx={{ position: 'absolute', top: 8, left: 8, right: 8, zIndex: 2 }}>
                {TEXT.noPoint}
              </Alert>
            )}
            {display.isFetching && (
              <LinearProgress
                aria-label="Loading the map data"
                sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 2 }}
              />
            )}
            <Suspense fallback={<LinearProgress aria-label="Loading the map" />}>
              <MapView
                center={centre ?? undefined}
                zoom={centre ? AVS_EDITOR_ZOOM : undefined}
                baseLayers={[BUILTIN_SATELLITE_LAYER]}
                labelsOverImagery
                style={{ height: '100%' }}
              >
                <EditorLayers
                  data={display.currentData ?? display.data}
                  picked={popup?.kind === 'marker' ? null : (popup ?? null)}
                  onPick={pick}
                />
                {marker && (
                  <MainMarker
                    position={marker}
                    draggable
                    onMove={(lat, lng) => moveTo({ lat, lng }, false)}
                  />
                )}
                {marker && popup?.kind === 'marker' && data && (
                  <MapPopup position={marker}>
                    <MarkerPopup
                      data={data}
                      settings={settings.data}
                      busy={busy}
                      outcome={outcome}
                      onClose={() => setPopup(null)}
                      onInvestigate={() =>
                        void run(() =>
                          parcelAction({
                            kind: 'investigate',
                            parcelId: data.parcelId!,
                            version: parcelVersion!,
                          }).unwrap(),
                        )
                      }
                      onUnaddressable={() =>
                        void run(() =>
                          parcelAction({
                            kind: 'unaddressable',
                            parcelId: data.parcelId!,
                            version: parcelVersion!,
                          }).unwrap(),
                        )
                      }
                      onValidate={(parcelTypeId) =>
                        void run(() =>
                          parcelAction({
                            kind: 'validate',
                            parcelId: data.parcelId!,
                            version: parcelVersion!,
                            parcelTypeId,
                          }).unwrap(),
                        )
                      }
                      onAddAddress={async ({ roadId, houseNumber, unit }) =>
                        !!(await run(
                          () =>
                            addAddress({
                              parcelId: data.parcelId!,
                              parcelVersion: parcelVersion!,
                              lat: marker.lat,
                              lng: marker.lng,
                              roadId,
                              houseNumber,
                              ...(unit.trim() ? { unit } : {}),
                            }).unwrap(),
                          (answer) => `Added ${answer.address.formattedAddress}.`,
                        ))
                      }
                      onAddPoi={async ({ name, poiType, addressId }) =>
                        !!(await run(
                          () =>
                            addPoi({
                              parcelId: data.parcelId!,
                              parcelVersion: parcelVersion!,
                              lat: marker.lat,
                              lng: marker.lng,
                              name,
                              poiType,
                              ...(addressId ? { addressId } : {}),
                            }).unwrap(),
                          (answer) => `Added ${answer.poi.name}.`,
                        ))
                      }
                      onResolveAtMarker={
                        cantLocate ? () => void resolveWith({ lat: marker.lat, lng: marker.lng }) : undefined
                      }
                    />
                  </MapPopup>
                )}
                {pickedAddress && (
                  <MapPopup position={{ lat: pickedAddress.lat, lng: pickedAddress.lng }}>
                    <AddressPopup
                      key={`${pickedAddress.addressId}:${pickedAddress.version}`}
                      address={pickedAddress}
                      qualities={settings.data?.qualities ?? []}
                      busy={busy}
                      outcome={outcome}
                      onClose={() => setPopup(null)}
                      onOfficial={() =>
                        void run(() =>
                          addressAction({
                            kind: 'official',
                            addressId: pickedAddress.addressId,
                            version: pickedAddress.version,
                          }).unwrap(),
                        )
                      }
                      onAccept={(quality) =>
                        void run(() =>
                          addressAction({
                            kind: 'accept',
                            addressId: pickedAddress.addressId,
                            version: pickedAddress.version,
                            quality,
                          }).unwrap(),
                        )
                      }
                      onReject={(quality) =>
                        void run(() =>
                          addressAction({
                            kind: 'reject',
                            addressId: pickedAddress.addressId,
                            version: pickedAddress.version,
                            quality,
                          }).unwrap(),
                        )
                      }
                      onResolve={
                        cantLocate
                          ? () => void resolveWith({ addressId: pickedAddress.addressId })
                          : undefined
                      }
                    />
                  </MapPopup>
                )}
                {pickedPoi && (
                  <MapPopup position={{ lat: pickedPoi.lat, lng: pickedPoi.lng }}>
                    <PoiPopup
                      poi={pickedPoi}
                      busy={busy}
                      outcome={outcome}
                      onClose={() => setPopup(null)}
                      onDetach={() =>
                        void run(() =>
                          detachPoi({ poiId: pickedPoi.poiId, version: pickedPoi.version }).unwrap(),
                        )
                      }
                    />
                  </MapPopup>
                )}
              </MapView>
            </Suspense>
          </Box>
          {marker && (
            <Typography variant="caption" color="text.secondary">
              {TEXT.dragHint}
            </Typography>
          )}
        </Box>
        <Box sx={{ width: { lg: 420 }, flexShrink: 0 }}>
          {marker ? (
            <PointPanel
              state={fieldState}
              data={data}
              picked={popup?.kind === 'marker' ? null : (popup ?? null)}
              onPick={pick}
              onMarkerPopup={() => setPopup({ kind: 'marker' })}
            />
          ) : (
            <Typography color="text.secondary">{TEXT.noPoint}</Typography>
          )}
        </Box>
      </Stack>
    </Container>
  );
}
