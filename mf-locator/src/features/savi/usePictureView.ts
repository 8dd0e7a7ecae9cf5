import { useCallback, useEffect, useRef, useState } from 'react';
import type OlMap from 'ol/Map';
import type { ImageUrlAnswer, LatLng, ObliqueCamera, Orientation, Survey } from '@portal/contracts';
import { useLazyCoverageQuery, useLazyImageUrlQuery } from '@portal/web-kit/locator';
import { IMAGERY_RETRIES, MAP_RESIZE_DELAYS_MS } from '../../config';
import { IMAGERY_TEXT } from '../../texts';
import { coverageOutcome, imageryFailureAlert, ORIENTATIONS_FOR, type ImageryMode } from './pictureView';

export interface PictureView {
  on: boolean;
  loading: boolean;
  mode: ImageryMode | null;
  urls: Partial<Record<Orientation, string>>;
  /** The survey the pictures come from (issue 21); null until known (the newest at the point). */
  surveyId: number | null;
  /** Its capture date (YYYY-MM-DD), printed on the pictures. */
  capturedOn: string | null;
  /** The camera of each picture (obliques: heights are read off it). */
  cameras: Partial<Record<Orientation, ObliqueCamera>>;
  toggle: (on: boolean) => Promise<void>;
  /** Shows another survey's pictures (the timeline): its kind decides oblique or ortho. */
  chooseSurvey: (survey: Survey) => Promise<void>;
  off: () => void;
}

type Pictures = Pick<PictureView, 'urls' | 'surveyId' | 'capturedOn' | 'cameras'>;
const NO_PICTURES: Pictures = { urls: {}, surveyId: null, capturedOn: null, cameras: {} };

/** The pictures of one survey from each orientation's answer. */
function picturesOf(orientations: readonly Orientation[], answers: ImageUrlAnswer[]): Pictures {
  const first = answers[0];
  return {
    urls: Object.fromEntries(orientations.map((orientation, index) => [orientation, answers[index].url!])),
    surveyId: first?.surveyId ?? null,
    capturedOn: first?.capturedOn ?? null,
    cameras: Object.fromEntries(
      orientations.flatMap((orientation, index) => {
        const camera = answers[index].camera;
        return camera ? [[orientation, camera]] : [];
      }),
    ),
  };
}

/**
 * Picture view (spec 01 §4): on, it looks coverage up for the point and shows oblique or ortho imagery
 * (every orientation fetched, each retried up to 5 times; any one failing fails the lot), or turns itself
 * off with the spec's alert. Each toggle resizes the map at 500, 750, 1000 and 1500 ms, as the panel
 * beside it opens or closes.
 */
export function usePictureView(
  point: LatLng | null,
  map: OlMap | null,
  alert: (message: string) => void,
): PictureView {
  const [on, setOn] = useState(false);
  const [loading, setLoading] = useState(false);
  const [mode, setMode] = useState<ImageryMode | null>(null);
  const [pictures, setPictures] = useState<Pictures>(NO_PICTURES);
  const [coverage] = useLazyCoverageQuery();
  const [imageUrl] = useLazyImageUrlQuery();
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const generation = useRef(0);

  const resizeMap = useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current = MAP_RESIZE_DELAYS_MS.map((delay) => setTimeout(() => map?.updateSize(), delay));
  }, [map]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const off = useCallback(() => {
    generation.current += 1;
    setOn(false);
    setLoading(false);
    setMode(null);
    setPictures(NO_PICTURES);
    resizeMap();
  }, [resizeMap]);

  // A new place: the imagery shown was for the old one.
  const lat = point?.lat;
  const lng = point?.lng;
  useEffect(() => {
    generation.current += 1;
    setOn(false);
    setMode(null);
    setPictures(NO_PICTURES);
  }, [lat, lng]);

  const fetchUrl = useCallback(
    async (where: LatLng, orientation: Orientation, survey?: number): Promise<ImageUrlAnswer | null> => {
      for (let attempt = 0; attempt < IMAGERY_RETRIES; attempt += 1) {
        try {
          const args = { ...where, orientation, ...(survey !== undefined ? { survey } : {}) };
          const answer = await imageUrl(args, attempt === 0).unwrap();
          // Spec 01 §4: success false is a failure (treated as null), not worth retrying.
          return answer.success && answer.url ? answer : null;
        } catch (error) {
          if (attempt === IMAGERY_RETRIES - 1) console.error('[savi] imagery URL failed', orientation, error);
        }
      }
      return null;
    },
    [imageUrl],
  );

  const toggle = useCallback(
    async (wanted: boolean) => {
      if (!wanted || !point) {
        off();
        return;
      }
      const current = (generation.current += 1);
      setOn(true);
      setLoading(true);
      resizeMap();
      let answer;
      try {
        answer = await coverage(point, true).unwrap();
      } catch (error) {
        console.error('[savi] coverage lookup failed', error);
        answer = null;
      }
      if (current !== generation.current) return;
      const outcome = coverageOutcome(answer);
      if (!outcome.on) {
        alert(outcome.alert);
        off();
        return;
      }
      if (outcome.alert) alert(outcome.alert);
      const orientations = ORIENTATIONS_FOR[outcome.mode];
      const found = await Promise.all(orientations.map((orientation) => fetchUrl(point, orientation)));
      if (current !== generation.current) return;
      if (found.some((url) => url === null)) {
        alert(imageryFailureAlert(answer));
        off();
        return;
      }
      setMode(outcome.mode);
      setPictures(picturesOf(orientations, found as ImageUrlAnswer[]));
      setLoading(false);
    },
    [point, off, resizeMap, coverage, alert, fetchUrl],
  );

  const chooseSurvey = useCallback(
    async (survey: Survey) => {
      if (!point) return;
      const current = (generation.current += 1);
      const wanted: ImageryMode = survey.kind === 'high_resolution' ? 'oblique' : 'ortho';
      const orientations = ORIENTATIONS_FOR[wanted];
      setLoading(true);
      const found = await Promise.all(
        orientations.map((orientation) => fetchUrl(point, orientation, survey.id)),
      );
      if (current !== generation.current) return;
      setLoading(false);
      if (found.some((url) => url === null)) {
        // The pictures shown stay: only the step back failed.
        alert(IMAGERY_TEXT.surveyFailed);
        return;
      }
      setMode(wanted);
      setPictures(picturesOf(orientations, found as ImageUrlAnswer[]));
    },
    [point, fetchUrl, alert],
  );

  return { on, loading, mode, ...pictures, toggle, chooseSurvey, off };
}
