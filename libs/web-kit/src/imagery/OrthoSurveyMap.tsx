import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type OlMap from 'ol/Map';
import type { FeatureLike } from 'ol/Feature';
import VectorSource from 'ol/source/Vector';
import Fill from 'ol/style/Fill';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { ChangesAnswer, ImageUrlAnswer, LatLng } from '@portal/contracts';
import { MapView } from '@portal/web-kit';
import { CaptureDate } from './CaptureDate';
import { changeOutlines, changeStyle } from './changeOutlines';
import { useSurveyBuildingsQuery } from './imageryApi';
import type { MeasurementDraft } from './measureFigures';
import { MeasureToolbar } from './MeasureToolbar';
import { OutlineLayer, type Outline } from './OutlineLayer';
import { SurveyPictureLayer } from './SurveyPictureLayer';
import { ORTHO_TEXT } from './texts';

/** The zoom at which a ~110 m picture fills a map a few hundred pixels wide. */
export const ORTHO_ZOOM = 19;

const buildingStyle = new Style({
  stroke: new Stroke({ color: 'rgba(255, 255, 255, 0.9)', width: 1.25 }),
  fill: new Fill({ color: 'rgba(255, 255, 255, 0)' }),
});
const parcelStyle = new Style({ stroke: new Stroke({ color: '#00e5ff', width: 2, lineDash: [8, 4] }) });
const snapOutlineStyle = (feature: FeatureLike) =>
  feature.get('what') === 'parcel' ? parcelStyle : buildingStyle;

export interface OrthoSurveyMapProps {
  point: LatLng;
  /** The survey shown; null: the newest at the point. */
  surveyId: number | null;
  /** Offer the measuring tools (distance, length, area), snapping to the parcel and building edges. */
  measure?: boolean;
  /** A measurement was finished or edited (same `key` when edited), stamped with this survey. */
  onMeasured?: (draft: MeasurementDraft & { key: string }) => void;
  /** The parcel's GeoJSON geometry (lng/lat): outlined and snapped to. */
  parcel?: unknown;
  /** Draw the building outlines standing at the survey's date (default true; snapped to when measuring). */
  buildings?: boolean;
  /** Outline these changes (added green, removed red, extended orange). */
  changes?: ChangesAnswer | null;
  /** A swipe: this survey's picture drawn over the map's, left of `share` (0–1) of the width. */
  swipe?: { surveyId: number; share: number } | null;
  /** The map (e.g. to share its view with another: compare side by side). */
  onMapReady?: (map: OlMap) => void;
  /** The picture's answer (capture date, survey id, camera) once known; null when it failed. */
  onPicture?: (answer: ImageUrlAnswer | null) => void;
  /** The map's height (default 420 px). */
  height?: number | string;
  /** The map's accessible name (default: the picture's capture date). */
  label?: string;
  children?: ReactNode;
}

/**
 * One survey's ortho picture on the portal's map (web-kit MapView): the picture placed over its ground,
 * the capture date printed on it, the parcel and building outlines, optional change outlines and swipe,
 * and the measuring tools.
 */
export function OrthoSurveyMap({
  point,
  surveyId,
  measure = false,
  onMeasured,
  parcel,
  buildings = true,
  changes,
  swipe,
  onMapReady,
  onPicture,
  height = 420,
  label,
  children,
}: OrthoSurveyMapProps) {
  const [picture, setPicture] = useState<ImageUrlAnswer | null | undefined>(undefined);
  const [swipePicture, setSwipePicture] = useState<ImageUrlAnswer | null | undefined>(undefined);
  const shownSurvey = picture?.surveyId ?? surveyId;
  const standing = useSurveyBuildingsQuery(
    { lat: point.lat, lng: point.lng, ...(shownSurvey !== null ? { survey: shownSurvey } : {}) },
    { skip: !buildings && !measure },
  );
  const [snapSource] = useState(() => new VectorSource());
  const outlines = useMemo<Outline[]>(
    () => [
      ...(parcel ? [{ geometry: parcel, properties: { what: 'parcel' } }] : []),
      ...(buildings || measure
        ? (standing.data?.buildings ?? []).map((building) => ({
            geometry: building.footprint,
            properties: { what: 'building', buildingId: building.buildingId },
          }))
        : []),
    ],
    [parcel, buildings, measure, standing.data],
  );
  const changed = useMemo(() => changeOutlines(changes), [changes]);
  const onAnswer = useCallback(
    (answer: ImageUrlAnswer | null) => {
      setPicture(answer);
      onPicture?.(answer);
    },
    [onPicture],
  );
  const capturedOn = picture?.capturedOn ?? null;

  return (
    <Box
      sx={{ position: 'relative', height, minHeight: 240, bgcolor: 'grey.900' }}
      role="region"
      aria-label={label ?? ORTHO_TEXT.picture(capturedOn ?? '')}
      data-testid="ortho-survey-map"
      data-survey-id={shownSurvey ?? undefined}
    >
      <Suspense fallback={<CircularProgress aria-label={ORTHO_TEXT.loading} sx={{ m: 2 }} />}>
        <MapView center={point} zoom={ORTHO_ZOOM} onMapReady={onMapReady} style={{ height: '100%' }}>
          <SurveyPictureLayer point={point} surveyId={surveyId} onAnswer={onAnswer} />
          {swipe && (
            <SurveyPictureLayer
              point={point}
              surveyId={swipe.surveyId}
              clipLeft={swipe.share}
              zIndexOffset={1}
              onAnswer={setSwipePicture}
            />
          )}
          <OutlineLayer
            source={snapSource}
            outlines={outlines}
            style={snapOutlineStyle}
            zIndex={20}
            title="Outlines"
          />
          {changed.length > 0 && (
            <OutlineLayer outlines={changed} style={changeStyle} zIndex={30} title="Changes" />
          )}
          {measure && (
            <MeasureToolbar
              surveyId={shownSurvey}
              capturedOn={capturedOn}
              snapSource={snapSource}
              onMeasured={onMeasured}
            />
          )}
          {children}
        </MapView>
      </Suspense>
      {picture === null && (
        <Box sx={{ position: 'absolute', top: 8, left: 8, zIndex: 2, color: 'common.white' }}>
          {ORTHO_TEXT.failed}
        </Box>
      )}
      {swipe ? (
        <>
          <CaptureDate capturedOn={swipePicture?.capturedOn} overlay="left" />
          <CaptureDate capturedOn={capturedOn} overlay="right" />
        </>
      ) : (
        picture !== undefined && <CaptureDate capturedOn={capturedOn} overlay />
      )}
    </Box>
  );
}
