import { useCallback, useState } from 'react';
import { errorMessages, skipToken, useSearchParams } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LatLng } from '@portal/contracts';
import {
  useDisplayDataQuery,
  useEditorSettingsQuery,
  useParcelActionMutation,
  usePointDataQuery,
  useResolveCantLocateMutation,
} from '../../../api/editorApi';
import { TEXT } from '../../../texts';
import { AddressSearch } from '../components/AddressSearch';
import { EditorMap, type Popup, type ResolveTarget } from '../components/EditorMap';
import type { Picked } from '../components/EditorLayers';
import { PointPanel, type FieldState } from '../components/PointPanel';
import { QueueBar } from '../components/QueueBar';
import { WorkItemCard } from '../components/WorkItemCard';
import { readPoint, rounded } from '../editorPoint';
import { useEditAction } from '../useEditAction';
import { useWorkQueue } from '../useWorkQueue';

/** /avs/editor (spec 03 §2 "Address editor"): queues, map at zoom 18 with its layers and popups, point data. */
export function EditorPage() {
  const [search, setSearch] = useSearchParams();
  const [marker, setMarker] = useState<LatLng | null>(() => readPoint(search));
  const [centre, setCentre] = useState<LatLng | null>(marker);
  const [popup, setPopup] = useState<Popup | null>(marker ? { kind: 'marker' } : null);
  const [searchText, setSearchText] = useState('');
  const settings = useEditorSettingsQuery();
  const display = useDisplayDataQuery(marker ?? skipToken);
  const point = usePointDataQuery(marker ?? skipToken);
  const edit = useEditAction();
  const { run, setOutcome, busy } = edit;
  const [parcelAction] = useParcelActionMutation();
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
  const queue = useWorkQueue({ moveTo, setSearchText });
  const { work } = queue;

  // ---------------------------------------------------------------- the data under the marker

  const data = point.currentData?.data;
  const fieldState: FieldState = point.isError ? 'error' : !data ? 'loading' : 'ready';
  const parcelVersion = data?.parcelVersion ?? null;
  const pick = useCallback(
    (picked: Picked) => {
      setPopup(picked);
      setOutcome(null);
    },
    [setOutcome],
  );

  const cantLocate = work?.kind === 'cantLocate' ? work.request : null;
  const heldParcel = work && work.kind !== 'cantLocate' ? work.parcel : null;
  const parcelDone = async () => {
    if (!heldParcel) return;
    const done = await run(() =>
      parcelAction({ kind: 'reviewed', parcelId: heldParcel.parcelId, version: parcelVersion! }).unwrap(),
    );
    if (done) await queue.takeParcel('multi');
  };
  const resolveWith = async (body: ResolveTarget) => {
    if (!cantLocate) return;
    const answer = await run(
      () => resolve({ requestId: cantLocate.requestId, version: cantLocate.version, ...body }).unwrap(),
      (result) => TEXT.resolved(result.gripReference, result.address),
    );
    if (answer)
      queue.finish({ severity: 'success', text: TEXT.resolved(answer.gripReference, answer.address) });
  };

  const loadError = settings.isError ? settings.error : display.isError ? display.error : point.error;

  return (
    <Container maxWidth={false} sx={{ py: 2, maxWidth: 1900 }}>
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        {TEXT.title}
      </Typography>

      <QueueBar
        canValidate={!!settings.data?.canValidate}
        takingParcel={queue.takingParcel}
        takingCantLocate={queue.takingCantLocate}
        onTakeParcel={queue.takeParcel}
        onTakeCantLocate={queue.takeCantLocate}
      />

      {loadError && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {`${TEXT.loadingError}: ${errorMessages(loadError).join(' ')}`}
        </Alert>
      )}
      {queue.notice && (
        <Alert
          severity={queue.notice.severity}
          sx={{ mb: 1 }}
          onClose={queue.clearNotice}
          data-testid="editor-notice"
        >
          {queue.notice.text}
        </Alert>
      )}

      {work && (
        <WorkItemCard
          work={work}
          data={data}
          parcelDoneDisabled={busy || parcelVersion === null || data?.parcelId !== heldParcel?.parcelId}
          onParcelDone={parcelDone}
          onRelease={queue.giveBack}
        />
      )}

      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <AddressSearch
            searchText={searchText}
            onSearchTextChange={setSearchText}
            onGo={(point) => moveTo(point, true)}
          />
          <EditorMap
            marker={marker}
            centre={centre}
            display={display}
            data={data}
            settings={settings.data}
            popup={popup}
            onPopup={setPopup}
            onPick={pick}
            onMove={(point) => moveTo(point, false)}
            edit={edit}
            onResolve={cantLocate ? (target) => void resolveWith(target) : undefined}
          />
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
