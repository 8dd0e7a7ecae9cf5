import { useCallback, useEffect, useRef, useState } from 'react';
import type OlMap from 'ol/Map';
import type { LatLng, Orientation } from '@portal/contracts';
import { useLazyCoverageQuery, useLazyImageUrlQuery } from '@portal/web-kit/locator';
import { IMAGERY_RETRIES, MAP_RESIZE_DELAYS_MS } from '../../config';
import { coverageOutcome, imageryFailureAlert, ORIENTATIONS_FOR, type ImageryMode } from './pictureView';

export interface PictureView {
  on: boolean;
  loading: boolean;
  mode: ImageryMode | null;
  urls: Partial<Record<Orientation, string>>;
  toggle: (on: boolean) => Promise<void>;
  off: () => void;
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
  const [urls, setUrls] = useState<Partial<Record<Orientation, string>>>({});
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
    setUrls({});
    resizeMap();
  }, [resizeMap]);

  // A new place: the imagery shown was for the old one.
  const lat = point?.lat;
  const lng = point?.lng;
  useEffect(() => {
    generation.current += 1;
    setOn(false);
    setMode(null);
    setUrls({});
  }, [lat, lng]);

  const fetchUrl = useCallback(
    async (where: LatLng, orientation: Orientation): Promise<string | null> => {
      for (let attempt = 0; attempt < IMAGERY_RETRIES; attempt += 1) {
        try {
          const answer = await imageUrl({ ...where, orientation }, attempt === 0).unwrap();
          // Spec 01 §4: success false is a failure (treated as null), not worth retrying.
          return answer.success && answer.url ? answer.url : null;
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
      setUrls(Object.fromEntries(orientations.map((orientation, index) => [orientation, found[index]!])));
      setLoading(false);
    },
    [point, off, resizeMap, coverage, alert, fetchUrl],
  );

  return { on, loading, mode, urls, toggle, off };
}
