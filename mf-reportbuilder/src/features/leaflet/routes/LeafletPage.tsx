import { Suspense, useEffect, useState } from 'react';
import { Link, MapView, skipToken, useMapLayer, useSearchParams } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type OlMap from 'ol/Map';
import Zoom from 'ol/control/Zoom';
import DoubleClickZoom from 'ol/interaction/DoubleClickZoom';
import KeyboardZoom from 'ol/interaction/KeyboardZoom';
import MouseWheelZoom from 'ol/interaction/MouseWheelZoom';
import PinchZoom from 'ol/interaction/PinchZoom';
import DragZoom from 'ol/interaction/DragZoom';
import type { ReportMarker } from '@portal/domain';
import { useReportRequestQuery } from '../../../api/reportBuilderApi';
import { improvementOverviewHref } from '../../../paths';
import { IMPROVEMENT_AND_REPORT_TEXT, TEXT } from '../../../texts';
import { useRouteParams } from '../../../report/useRouteParams';
import { MessageAlert } from '../../../components/SaveBar';
import { useReport, type SaveMessage } from '../../../report/useReport';
import {
  improvementsAt,
  indexOf,
  markedAt,
  withImprovement,
  type ImprovementPlace,
} from '../../../report/improvements';

const PARAMS = ['requestID', 'sectionID', 'improvementID'] as const;

/**
 * Spec 02 §9 "improvement zoom fixed at 1", read as: the improvement's map has one zoom the user cannot
 * change (no zoom buttons, wheel, pinch, double-click or keyboard zoom; the view's min and max zoom both
 * this), the scale at which the imagery is shown 1:1 (native: 512-px tiles of zoom 17, view zoom 18), so
 * an item is placed on the property at full detail. A geographic zoom of 1 would show the whole world.
 */
export const IMPROVEMENT_MAP_ZOOM = 18;

/** Takes away every way of zooming (spec 02 §9: the improvement's zoom is fixed). */
export function fixZoom(map: OlMap, zoom: number = IMPROVEMENT_MAP_ZOOM): void {
  const view = map.getView();
  view.setMinZoom(zoom);
  view.setMaxZoom(zoom);
  view.setZoom(zoom);
  map
    .getControls()
    .getArray()
    .filter((control) => control instanceof Zoom)
    .forEach((control) => map.removeControl(control));
  map
    .getInteractions()
    .getArray()
    .filter(
      (interaction) =>
        interaction instanceof MouseWheelZoom ||
        interaction instanceof PinchZoom ||
        interaction instanceof DoubleClickZoom ||
        interaction instanceof KeyboardZoom ||
        interaction instanceof DragZoom,
    )
    .forEach((interaction) => map.removeInteraction(interaction));
}

const markerStyle = (number: number) =>
  new Style({
    image: new Circle({
      radius: 11,
      fill: new Fill({ color: '#d32f2f' }),
      stroke: new Stroke({ color: '#ffffff', width: 2 }),
    }),
    text: new Text({
      text: String(number),
      fill: new Fill({ color: '#ffffff' }),
      font: 'bold 11px sans-serif',
    }),
  });

/** The improvement's numbered marker on the map. */
function ImprovementMarker({ marker }: { marker: ReportMarker | null | undefined }) {
  const [layer] = useState(() => new VectorLayer({ source: new VectorSource<Feature<Point>>() }));
  useMapLayer(layer);
  useEffect(() => {
    const source = layer.getSource()!;
    source.clear();
    if (!marker) return;
    const feature = new Feature(new Point(fromLonLat([marker.lng, marker.lat])));
    feature.setStyle(markerStyle(marker.number));
    source.addFeature(feature);
  }, [layer, marker]);
  return null;
}

/**
 * Spec 02 §2.1 leaflet-page (?improvementID, with requestID and sectionID; buildingID in the query string
 * for a building's improvement): a map at the improvement's marker (else the request's point) with the
 * prompt 'Click anywhere to mark the location of the item.'; a click moves the improvement's marker there
 * (its number kept) and saves the sections.
 */
export function LeafletPage() {
  const { requestID, sectionID, improvementID } = useRouteParams(PARAMS);
  // Only from the query string: a section's improvement has no building, whatever session storage holds.
  const [query] = useSearchParams();
  const buildingIndex = indexOf(query.get('buildingID'));
  const report = useReport(requestID);
  const request = useReportRequestQuery(requestID ?? skipToken).data;
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [saving, setSaving] = useState(false);

  const index = indexOf(improvementID);
  const place: ImprovementPlace | null = sectionID ? { sectionID, building: buildingIndex } : null;
  const list = place && report.draft ? improvementsAt(report.draft, place) : undefined;
  const improvement = index === null ? undefined : list?.[index];
  const point = improvement?.marker ?? report.details?.coordinates ?? request?.coordinates ?? null;
  // The view is centred once, where the map opens; clicks then move the marker, not the map.
  const [start, setStart] = useState<{ lat: number; lng: number } | null>(null);
  useEffect(() => {
    if (!start && point) setStart({ lat: point.lat, lng: point.lng });
  }, [start, point]);

  if (!requestID) return <Alert severity="info">{TEXT.missingRequest}</Alert>;
  if (!sectionID) return <Alert severity="info">{TEXT.missingSection}</Alert>;
  if (!report.draft) return report.sectionsFailed ? null : <LinearProgress aria-label={TEXT.loading} />;
  if (!improvement || index === null || !list || !place)
    return <Alert severity="info">{IMPROVEMENT_AND_REPORT_TEXT.missingImprovement}</Alert>;
  const readOnly = !report.editable;

  const mark = async (lat: number, lng: number) => {
    if (readOnly || saving || !report.draft) return;
    setSaving(true);
    try {
      const moved = markedAt(improvement, list, index, lat, lng);
      const result = await report.save(withImprovement(report.draft, place, index, moved));
      setMessage(
        result.ok ? { severity: 'success', text: IMPROVEMENT_AND_REPORT_TEXT.locationSaved } : result.message,
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        Location of {improvement.name}
      </Typography>
      <Typography color="text.secondary">
        <Link
          to={improvementOverviewHref(
            requestID,
            sectionID,
            buildingIndex === null ? null : String(buildingIndex),
            String(index),
          )}
        >
          Improvement {improvement.name}
        </Link>
      </Typography>
      {readOnly ? (
        <Alert severity="info">{TEXT.readOnly}</Alert>
      ) : (
        <Alert severity="info" sx={{ my: 1 }}>
          {IMPROVEMENT_AND_REPORT_TEXT.mapPrompt}
        </Alert>
      )}
      {message && <MessageAlert message={message} />}
      {saving && <LinearProgress aria-label={TEXT.saving} />}
      {start ? (
        <Box sx={{ height: 600, maxWidth: 800, mt: 1 }} data-testid="improvement-map">
          <Suspense fallback={<LinearProgress aria-label="Loading the map" />}>
            <MapView
              center={start}
              zoom={IMPROVEMENT_MAP_ZOOM}
              labelsOverImagery
              onMapReady={(map) => fixZoom(map)}
              onClick={(lat, lng) => void mark(lat, lng)}
              style={{ height: '100%' }}
            >
              <ImprovementMarker marker={improvement.marker} />
            </MapView>
          </Suspense>
        </Box>
      ) : (
        <Alert severity="info">{IMPROVEMENT_AND_REPORT_TEXT.noPoint}</Alert>
      )}
    </Box>
  );
}
