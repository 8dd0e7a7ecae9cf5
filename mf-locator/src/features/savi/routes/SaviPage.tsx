import { useCallback, useEffect, useRef, useState } from 'react';
import type OlMap from 'ol/Map';
import { toLonLat } from 'ol/proj';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { REQUEST_CREATED, type LatLng, type RequestMapView } from '@portal/contracts';
import { errorMessages, newIdempotencyKey, useAuditMutation, useCurrentUser } from '@portal/web-kit';
import {
  AlertDialog,
  LocatorMap,
  SearchLayout,
  SearchPanel,
  useAlerts,
  useCoverageQuery,
  useCreateRequestMutation,
  useLocatorSearch,
  useMyReferences,
  usePlaceDetails,
} from '@portal/web-kit/locator';
import { toMeasurementInput, type ListedDraft, type MeasurementDraft } from '@portal/web-kit/imagery';
import { SAVI_TEXT } from '../../../texts';
import { PictureTools } from '../components/PictureTools';
import { RequestForm } from '../components/RequestForm';
import { imageryAvailable } from '../pictureView';
import { buildRequestForm, CANT_LOCATE, REQUEST_SUBTYPES, type RequestSubType } from '../requestForm';
import { usePictureView } from '../usePictureView';

type Outcome = { ok: true; gripReference: string | null } | { ok: false; message: string };

/**
 * The SAVi request tool (spec 01 §2–§4): find the property, see its parcel and imagery, choose the request
 * type and log the request through the two-step form.
 */
export function SaviPage() {
  const [session, setSession] = useState(0);
  // 'New Request' resets everything: a fresh tool, with fresh state in every part.
  return <SaviTool key={session} onNewRequest={() => setSession((value) => value + 1)} />;
}

function SaviTool({ onNewRequest }: { onNewRequest: () => void }) {
  const { user } = useCurrentUser();
  const alerts = useAlerts();
  const search = useLocatorSearch(alerts.alert);
  const { state } = search;
  const selected = state.selected;
  const details = usePlaceDetails(selected, state.option);
  const [map, setMap] = useState<OlMap | null>(null);
  const picture = usePictureView(selected?.point ?? null, map, alerts.alert);
  const coverage = useCoverageQuery(selected?.point ?? { lat: 0, lng: 0 }, { skip: !selected });
  const canUseImagery = imageryAvailable(coverage.data);

  const [subType, setSubType] = useState<RequestSubType | null>(null);
  // The request type that last had the keyboard focus: the group's tab stop stays where the arrows left it.
  const [typeFocus, setTypeFocus] = useState<RequestSubType | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [comments, setComments] = useState('');
  const [idempotencyKey, setIdempotencyKey] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Measurements made on the pictures (issue 21): they travel with the request when it is logged.
  const [drafts, setDrafts] = useState<ListedDraft[]>([]);
  const draftCount = useRef(0);
  const addDraft = useCallback((draft: MeasurementDraft & { key?: string }) => {
    draftCount.current += 1;
    const key = draft.key ?? `height-${draftCount.current}`;
    setDrafts((current) => {
      const at = current.findIndex((listed) => listed.key === key);
      if (at === -1) return [...current, { ...draft, key }];
      // An edited ortho measurement keeps its place and the label it was given.
      return current.map((listed, index) => (index === at ? { ...draft, key, label: listed.label } : listed));
    });
  }, []);
  const deleteDraft = useCallback(
    (key: string) => setDrafts((current) => current.filter((listed) => listed.key !== key)),
    [],
  );
  const references = useMyReferences({ skip: !subType });
  const { fields } = references;
  const [createRequest, creation] = useCreateRequestMutation();
  const [audit] = useAuditMutation();

  const auditOverride = useCallback(
    (message: string, details: Record<string, unknown>) => {
      if (!user) return;
      audit({ message, details, user_name: user.name, user_email: user.email, user_id: user._id })
        .unwrap()
        .catch((error: unknown) => console.error('[savi] the override could not be audited', error));
    },
    [audit, user],
  );

  // A new search or place changes what the request is about: the chosen type goes, except Can't Locate.
  const placeVersion = selected?.version ?? 0;
  useEffect(() => {
    setSubType((current) => (current === CANT_LOCATE ? current : null));
    // Measurements were of the old place's pictures.
    setDrafts([]);
  }, [placeVersion]);

  // The marker dragged away from a chosen result overrides the search: audited (spec 01 §7).
  const lastResult = useRef<{ id: string; point: LatLng; text: string } | null>(null);
  useEffect(() => {
    if (!selected) {
      // Cleared, reset or another option: a marker placed next is a new search, not an override.
      lastResult.current = null;
      return;
    }
    if (selected.item) {
      lastResult.current = {
        id: selected.item.id,
        point: selected.point,
        text: selected.item.formatted_address,
      };
    } else if (lastResult.current) {
      auditOverride('Marker moved from the selected search result', {
        from: lastResult.current,
        to: selected.point,
        searchedFor: state.searchedFor,
      });
      lastResult.current = null;
    }
  }, [selected, auditOverride, state.searchedFor]);

  const choose = (wanted: RequestSubType) => {
    // Spec 01 §4: RVE and Building Size Calculation need imagery or ortho, else nothing happens.
    if (wanted !== CANT_LOCATE && (!selected || !canUseImagery)) return;
    if (wanted === CANT_LOCATE && selected) {
      auditOverride("Can't Locate chosen for a located property", {
        searchedFor: state.searchedFor,
        point: selected.point,
        address: details.reverse?.address?.formatted_address ?? selected.item?.formatted_address ?? null,
      });
    }
    setSubType(wanted);
    setIdempotencyKey((current) => current ?? newIdempotencyKey());
  };

  const mapView = (): RequestMapView | null => {
    const view = map?.getView();
    const centre = view?.getCenter();
    if (!view || !centre) return null;
    const [lng, lat] = toLonLat(centre);
    return { lat, lng, zoom: view.getZoom() };
  };

  const preview = subType
    ? buildRequestForm({
        searchedFor: state.searchedFor || state.query,
        // A placed or dragged marker is a marker search, whatever option found the place first.
        option: selected && !selected.item ? 'marker' : state.option,
        subType,
        point: selected?.point ?? null,
        item: selected?.item ?? null,
        address: details.reverse?.address ?? null,
        parcel: details.reverse?.parcel ?? null,
        area: details.area?.geometry ?? null,
        mapView: null,
        references: Object.fromEntries(fields.map((field) => [field.key, values[field.key] ?? ''])),
        comments,
        imageUrls: picture.urls,
        // A draft without a survey cannot be saved (a picture whose answer named none): left out.
        measurements: drafts
          .filter((draft) => draft.surveyId !== null)
          .map((draft) => toMeasurementInput(draft)),
      })
    : null;

  const submit = async () => {
    if (!preview || !idempotencyKey) return;
    try {
      const answer = await createRequest({ form: { ...preview, map: mapView() }, idempotencyKey }).unwrap();
      // Spec 01 §4: a reply other than 'created' is only logged.
      if (answer.reply !== REQUEST_CREATED) console.warn('[savi] the request service answered', answer.reply);
      setOutcome({ ok: true, gripReference: answer.gripReference });
    } catch (error) {
      // Spec 01 §4, §8: the error is shown and the wizard ends.
      setOutcome({ ok: false, message: errorMessages(error).join(' ') || SAVI_TEXT.submitFailed });
    }
  };

  if (outcome) {
    return (
      <Stack spacing={2} sx={{ p: 3, maxWidth: 640 }} data-testid="savi-finished">
        <Typography variant="h5" component="h1">
          {SAVI_TEXT.title}
        </Typography>
        {outcome.ok ? (
          <Alert severity="success">
            {SAVI_TEXT.submitted}
            {outcome.gripReference && (
              <Typography variant="body2" data-testid="grip-reference">
                {SAVI_TEXT.gripReference(outcome.gripReference)}
              </Typography>
            )}
          </Alert>
        ) : (
          <Alert severity="error">
            {SAVI_TEXT.submitFailed} {outcome.message}
          </Alert>
        )}
        <Box>
          <Button variant="contained" onClick={onNewRequest}>
            {SAVI_TEXT.newRequest}
          </Button>
        </Box>
      </Stack>
    );
  }

  const cantLocateChosen = subType === CANT_LOCATE;
  const typeAvailable = (type: RequestSubType) => type === CANT_LOCATE || canUseImagery;
  // The request types are one tab stop, arrows moving inside (WAI-ARIA toolbar): the type last focused,
  // else the chosen one, else the first available. Set here, not left to MUI's roving tab index: that reads
  // aria-disabled from the buttons as last drawn and is not told when it changes, so once the imagery
  // coverage arrived (after the buttons were drawn) its stop stayed on Can't Locate and Tab never reached
  // an available Replacement Value Estimate.
  const typeTabStop = [typeFocus, subType, ...REQUEST_SUBTYPES].find(
    (type): type is RequestSubType => type !== null && typeAvailable(type),
  );
  return (
    <SearchLayout
      title={SAVI_TEXT.title}
      panel={
        <>
          <SearchPanel
            search={search}
            cantLocate={
              <Button variant="outlined" color="warning" onClick={() => choose(CANT_LOCATE)}>
                {SAVI_TEXT.cantLocate}
              </Button>
            }
          />
          {selected && (
            <FormControlLabel
              control={
                <Switch
                  checked={picture.on}
                  onChange={(event) => void picture.toggle(event.target.checked)}
                  slotProps={{ input: { 'aria-label': SAVI_TEXT.pictureView } }}
                />
              }
              label={SAVI_TEXT.pictureView}
            />
          )}
          {(selected || cantLocateChosen) && (
            <Stack spacing={1}>
              <Typography variant="subtitle2" component="h2">
                {SAVI_TEXT.requestType}
              </Typography>
              <ToggleButtonGroup
                exclusive
                orientation="vertical"
                size="small"
                value={subType}
                onChange={(_event, value: RequestSubType | null) => value && choose(value)}
                aria-label={SAVI_TEXT.requestType}
              >
                {REQUEST_SUBTYPES.map((type) => (
                  <ToggleButton
                    key={type}
                    value={type}
                    aria-disabled={!typeAvailable(type)}
                    tabIndex={type === typeTabStop ? 0 : -1}
                    onFocus={() => setTypeFocus(type)}
                    title={typeAvailable(type) ? undefined : SAVI_TEXT.requestTypeNeedsImagery}
                    // Looks unavailable with text that still reads (WCAG 1.4.3: half opacity fell below 4.5:1,
                    // and text.secondary reads 4.49:1 on the button's hover background): grey 700, dashed.
                    sx={typeAvailable(type) ? undefined : { color: '#616161', borderStyle: 'dashed' }}
                  >
                    {type}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            </Stack>
          )}
          {!selected && !cantLocateChosen && (
            <Typography variant="body2" color="text.secondary">
              {SAVI_TEXT.chooseLocation}
            </Typography>
          )}
          {subType && references.isLoading && (
            <CircularProgress size={24} aria-label={SAVI_TEXT.loadingReferences} />
          )}
          {subType && references.isError && <Alert severity="error">{SAVI_TEXT.referencesFailed}</Alert>}
          {subType && references.data && preview && (
            <RequestForm
              fields={fields}
              values={values}
              comments={comments}
              onChange={(key, value) => setValues((previous) => ({ ...previous, [key]: value }))}
              onCommentsChange={setComments}
              preview={preview}
              submitting={creation.isLoading}
              onSubmit={() => void submit()}
            />
          )}
        </>
      }
    >
      <Box sx={{ flex: 1, display: 'flex', flexDirection: picture.on ? 'column' : 'row', minWidth: 0 }}>
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <LocatorMap search={search} details={details} draggable={!picture.on} onMapReady={setMap} />
        </Box>
        {picture.on && (
          <Box sx={{ flex: 1, minHeight: 0, p: 1 }} data-testid="picture-view">
            {selected && (
              <PictureTools
                picture={picture}
                point={selected.point}
                parcel={details.reverse?.parcel?.geometry}
                drafts={drafts}
                onMeasured={addDraft}
                onDeleteDraft={deleteDraft}
              />
            )}
          </Box>
        )}
      </Box>
      <AlertDialog message={alerts.current} onClose={alerts.dismiss} />
    </SearchLayout>
  );
}
