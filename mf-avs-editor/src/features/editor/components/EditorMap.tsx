import { Suspense, useMemo, useState } from 'react';
import { MapView, skipToken } from '@portal/web-kit';
import VectorSource from 'ol/source/Vector';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import {
  AVS_EDITOR_ZOOM,
  type AddressEditorData,
  type AddressQualityCode,
  type AvsEditorSettings,
  type DisplayDataAnswer,
  type EditorAddress,
  type EditorPoi,
  type LatLng,
} from '@portal/contracts';
import {
  CaptureDate,
  COMPARE_TEXT,
  ImageryCompare,
  MeasureToolbar,
  SurveyTimeline,
  useSurveysQuery,
  type MapMeasureKind,
  type MeasurementDraft,
} from '@portal/web-kit/imagery';
import { MainMarker, MapPopup } from '@portal/web-kit/locator';
import {
  useAddAddressMutation,
  useAddPoiMutation,
  useAddressActionMutation,
  useDetachPoiMutation,
  useParcelActionMutation,
} from '../../../api/editorApi';
import { TEXT } from '../../../texts';
import type { useEditAction } from '../useEditAction';
import { satelliteLayerOf, shownSurvey } from '../satelliteSurvey';
import { EditorLayers, type Picked } from './EditorLayers';
import { MeasuredList } from './MeasuredList';
import { AddressPopup, MarkerPopup, PoiPopup } from './popups';

/** The popup open on the map: the marker's, or that of a picked address or POI. */
export type Popup = { kind: 'marker' } | Picked;

/** What the marker popup's parcel buttons ask for (spec 03 §5). */
type ParcelEdit = { kind: 'investigate' | 'unaddressable' } | { kind: 'validate'; parcelTypeId: number };
/** What an address popup's buttons ask for: Mark OFA, or Accept / Reject with a quality. */
type AddressEdit = { kind: 'official' } | { kind: 'accept' | 'reject'; quality: AddressQualityCode };

/** Where a can't-locate request is resolved: at an address, or at a point. */
export type ResolveTarget = { addressId?: string; lat?: number; lng?: number };

/**
 * The map (spec 03 §2): satellite imagery at zoom 18 with the editor's layers, the draggable marker and
 * the popup open on it — the marker's (the parcel's actions, add address, add POI), an address's or a
 * POI's — each wired to its edit.
 *
 * Issue 21: the satellite layer shows one survey — the newest at the marker, or an older one picked on
 * the timeline above the map — with its capture date printed on the map; the measuring tools (distance,
 * length, area) snap to the parcels' edges. Measurements here are for looking (no request to save them
 * against): they are listed under the map until cleared or the page is left.
 */
export function EditorMap({
  marker,
  centre,
  display,
  data,
  settings,
  popup,
  onPopup,
  onPick,
  onMove,
  edit: { run, busy, outcome },
  onResolve,
}: {
  marker: LatLng | null;
  /** Where the map is centred (it moves there on a jump, not when the marker is dragged). */
  centre: LatLng | null;
  display: { data?: DisplayDataAnswer; currentData?: DisplayDataAnswer; isFetching: boolean };
  /** The point data under the marker. */
  data: AddressEditorData | undefined;
  settings: AvsEditorSettings | undefined;
  popup: Popup | null;
  onPopup: (popup: Popup | null) => void;
  onPick: (picked: Picked) => void;
  /** The marker was dragged to a point. */
  onMove: (point: LatLng) => void;
  edit: Pick<ReturnType<typeof useEditAction>, 'run' | 'busy' | 'outcome'>;
  /** Shown while a can't-locate request is being worked. */
  onResolve?: (target: ResolveTarget) => void;
}) {
  const [addressAction] = useAddressActionMutation();
  const [parcelAction] = useParcelActionMutation();
  const [addAddress] = useAddAddressMutation();
  const [addPoi] = useAddPoiMutation();
  const [detachPoi] = useDetachPoiMutation();

  // The surveys at the marker (newest first) and the one shown; the satellite tiles are that survey's.
  const surveys = useSurveysQuery(marker ?? skipToken);
  const [comparing, setComparing] = useState(false);
  const [chosenSurvey, setChosenSurvey] = useState<number | null>(null);
  const survey = shownSurvey(surveys.currentData?.surveys ?? [], chosenSurvey);
  const surveyId = survey?.id ?? null;
  const baseLayers = useMemo(() => [satelliteLayerOf(surveyId)], [surveyId]);
  // Measuring: the parcels' outlines to snap to (EditorLayers fills them), what was measured.
  const [parcelSource] = useState(() => new VectorSource());
  const [measureKind, setMeasureKind] = useState<MapMeasureKind | null>(null);
  const [measured, setMeasured] = useState<(MeasurementDraft & { key: string })[]>([]);
  const onMeasured = (draft: MeasurementDraft & { key: string }) =>
    setMeasured((previous) => {
      const edited = previous.some((item) => item.key === draft.key);
      return edited ? previous.map((item) => (item.key === draft.key ? draft : item)) : [...previous, draft];
    });

  const parcelVersion = data?.parcelVersion ?? null;
  const addressById = (id: string): EditorAddress | undefined =>
    data?.addresses.find((a) => a.addressId === id) ??
    display.currentData?.addressData.data.features.find((f) => f.id === id)?.properties;
  const poiById = (id: string): EditorPoi | undefined =>
    data?.pois.find((p) => p.poiId === id) ??
    display.currentData?.poiData.data.features.find((f) => f.id === id)?.properties;
  const pickedAddress = popup?.kind === 'address' ? addressById(popup.id) : undefined;
  const pickedPoi = popup?.kind === 'poi' ? poiById(popup.id) : undefined;
  const close = () => onPopup(null);
  /** An edit of a parcel (the one under the marker), at the version read with the point data. */
  const editParcel = (parcelId: string, edit: ParcelEdit) =>
    void run(() => parcelAction({ ...edit, parcelId, version: parcelVersion! }).unwrap());
  /** An edit of an address, at the version shown. */
  const editAddress = (address: EditorAddress, edit: AddressEdit) =>
    void run(() =>
      addressAction({ ...edit, addressId: address.addressId, version: address.version }).unwrap(),
    );

  return (
    <>
      {marker && (
        <Box sx={{ mb: 1 }}>
          <SurveyTimeline
            point={marker}
            value={surveyId}
            onChange={(picked) => setChosenSurvey(picked.id)}
            label={TEXT.satelliteSurveys}
          />
          {/* Two surveys at the marker side by side or swiped, their changes outlined and listed. */}
          <Button
            size="small"
            sx={{ mt: 0.5 }}
            aria-expanded={comparing}
            onClick={() => setComparing((open) => !open)}
          >
            {comparing ? TEXT.closeCompare : COMPARE_TEXT.title}
          </Button>
          {comparing && <ImageryCompare point={marker} height={300} />}
        </Box>
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
            baseLayers={baseLayers}
            labelsOverImagery
            style={{ height: '100%' }}
          >
            <EditorLayers
              data={display.currentData ?? display.data}
              picked={popup?.kind === 'marker' ? null : (popup ?? null)}
              onPick={onPick}
              parcelSource={parcelSource}
              picking={measureKind === null}
            />
            <MeasureToolbar
              surveyId={surveyId}
              capturedOn={survey?.capturedOn ?? null}
              snapSource={parcelSource}
              kind={measureKind}
              onKindChange={setMeasureKind}
              onMeasured={onMeasured}
            />
            {marker && <MainMarker position={marker} draggable onMove={(lat, lng) => onMove({ lat, lng })} />}
            {marker && popup?.kind === 'marker' && data && (
              <MapPopup position={marker}>
                <MarkerPopup
                  data={data}
                  settings={settings}
                  busy={busy}
                  outcome={outcome}
                  onClose={close}
                  onInvestigate={() => editParcel(data.parcelId!, { kind: 'investigate' })}
                  onUnaddressable={() => editParcel(data.parcelId!, { kind: 'unaddressable' })}
                  onValidate={(parcelTypeId) =>
                    editParcel(data.parcelId!, { kind: 'validate', parcelTypeId })
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
                    onResolve ? () => onResolve({ lat: marker.lat, lng: marker.lng }) : undefined
                  }
                />
              </MapPopup>
            )}
            {pickedAddress && (
              <MapPopup position={{ lat: pickedAddress.lat, lng: pickedAddress.lng }}>
                <AddressPopup
                  key={`${pickedAddress.addressId}:${pickedAddress.version}`}
                  address={pickedAddress}
                  qualities={settings?.qualities ?? []}
                  busy={busy}
                  outcome={outcome}
                  onClose={close}
                  onOfficial={() => editAddress(pickedAddress, { kind: 'official' })}
                  onAccept={(quality) => editAddress(pickedAddress, { kind: 'accept', quality })}
                  onReject={(quality) => editAddress(pickedAddress, { kind: 'reject', quality })}
                  onResolve={onResolve ? () => onResolve({ addressId: pickedAddress.addressId }) : undefined}
                />
              </MapPopup>
            )}
            {pickedPoi && (
              <MapPopup position={{ lat: pickedPoi.lat, lng: pickedPoi.lng }}>
                <PoiPopup
                  poi={pickedPoi}
                  busy={busy}
                  outcome={outcome}
                  onClose={close}
                  onDetach={() =>
                    void run(() => detachPoi({ poiId: pickedPoi.poiId, version: pickedPoi.version }).unwrap())
                  }
                />
              </MapPopup>
            )}
          </MapView>
        </Suspense>
        {survey && <CaptureDate capturedOn={survey.capturedOn} provider={survey.provider} overlay />}
      </Box>
      {marker && (
        <Typography variant="caption" color="text.secondary">
          {TEXT.dragHint}
        </Typography>
      )}
      <MeasuredList
        measured={measured}
        onRemove={(key) => setMeasured((previous) => previous.filter((item) => item.key !== key))}
        onClear={() => setMeasured([])}
      />
    </>
  );
}
