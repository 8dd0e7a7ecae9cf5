import { useCallback, useEffect, useRef, useState } from 'react';
import { AERIAL_VIEW_IDS, type AerialViewId, type LatLng } from '@portal/contracts';
import { useLazyImageUrlQuery } from '@portal/web-kit/locator';
import { usePostAerialMutation, usePostHighResMutation } from '../../api/irisApi';
import { answerStatus, countStatuses, defaultView, mostCommonStatus, type ViewOutcome } from './highRes';
import { fetchImageBytes, loadImage } from './loadImage';

export type AerialSave = 'idle' | 'saving' | 'saved' | 'failed';

export interface AerialViews {
  loading: boolean;
  outcomes: ViewOutcome[];
  chosen: AerialViewId | null;
  save: AerialSave;
  /** The user chose another view: its bytes go to the server for the PDF. */
  choose: (view: AerialViewId) => Promise<void>;
}

/**
 * The imagery step of a report (spec 03 §4 "High-resolution imagery status"): the five views of the point
 * through the locator's imagery call, each counted as 0 available (a URL came and the picture loaded),
 * 1 no coverage (success false or no URL) or 2 offline (the call or the picture failed); the most common
 * status is posted with the counts; the default view (the ortho when available) is posted for the PDF.
 */
export function useAerialViews(reportId: string, point: LatLng): AerialViews {
  const [imageUrl] = useLazyImageUrlQuery();
  const [postHighRes] = usePostHighResMutation();
  const [postAerial] = usePostAerialMutation();
  const [loading, setLoading] = useState(true);
  const [outcomes, setOutcomes] = useState<ViewOutcome[]>([]);
  const [chosen, setChosen] = useState<AerialViewId | null>(null);
  const [save, setSave] = useState<AerialSave>('idle');
  const alive = useRef(true);
  const choice = useRef(0);

  const send = useCallback(
    async (view: AerialViewId, url: string) => {
      const mine = (choice.current += 1);
      setChosen(view);
      setSave('saving');
      try {
        const image = await fetchImageBytes(url);
        await postAerial({ reportId, viewId: view, image }).unwrap();
        if (alive.current && mine === choice.current) setSave('saved');
      } catch (error) {
        console.error('[iris] aerial view not saved', view, error);
        if (alive.current && mine === choice.current) setSave('failed');
      }
    },
    [postAerial, reportId],
  );

  const { lat, lng } = point;
  useEffect(() => {
    alive.current = true;
    (async () => {
      const found = await Promise.all(
        AERIAL_VIEW_IDS.map(async (view): Promise<ViewOutcome> => {
          const result = await imageUrl({ lat, lng, orientation: view }, true);
          const { status, url } = answerStatus(result.data ?? null, !!result.error);
          if (status !== null) return { view, status, url: null };
          try {
            await loadImage(url!);
            return { view, status: 0, url };
          } catch {
            return { view, status: 2, url: null };
          }
        }),
      );
      if (!alive.current) return;
      setOutcomes(found);
      setLoading(false);
      const counts = countStatuses(found);
      try {
        await postHighRes({ reportId, status: mostCommonStatus(counts), body: { counts } }).unwrap();
      } catch (error) {
        console.error('[iris] high-resolution status not saved', error);
      }
      const view = defaultView(found);
      const url = found.find((o) => o.view === view)?.url;
      if (alive.current && view && url) await send(view, url);
    })();
    return () => {
      alive.current = false;
    };
  }, [reportId, lat, lng, imageUrl, postHighRes, send]);

  const choose = useCallback(
    async (view: AerialViewId) => {
      const url = outcomes.find((o) => o.view === view && o.status === 0)?.url;
      if (url) await send(view, url);
    },
    [outcomes, send],
  );

  return { loading, outcomes, chosen, save, choose };
}
