import { useCallback, useEffect, useRef, useState } from 'react';
import { AERIAL_VIEW_IDS, type AerialViewId, type LatLng } from '@portal/contracts';
import { useLazyImageUrlQuery } from '@portal/web-kit/locator';
import { usePostAerialMutation, usePostHighResMutation } from '../../api/irisApi';
import { answerStatus, countStatuses, defaultView, mostCommonStatus, type ViewOutcome } from './highRes';
import { fetchImageBytes, loadImage } from './loadImage';

export type AerialSave = 'idle' | 'saving' | 'saved' | 'failed';

/** The picture the PDF gets: a view of one survey, with that survey's capture date. */
export interface ChosenView {
  view: AerialViewId;
  surveyId: number | null;
  capturedOn: string | null;
}

export interface AerialViews {
  loading: boolean;
  /** The five views of the survey shown. */
  outcomes: ViewOutcome[];
  chosen: ChosenView | null;
  save: AerialSave;
  /** The user chose another view (of the survey shown): its bytes go to the server for the PDF. */
  choose: (view: AerialViewId) => Promise<void>;
}

/**
 * The imagery step of a report (spec 03 §4 "High-resolution imagery status"): the five views of the point
 * through the locator's imagery call, each counted as 0 available (a URL came and the picture loaded),
 * 1 no coverage (success false or no URL) or 2 offline (the call or the picture failed); the most common
 * status is posted with the counts; the default view (the ortho when available) is posted for the PDF.
 * Both once, for the first survey shown (the newest at the point).
 *
 * Issue 21: `survey` (the timeline's choice; null: the newest) picks the survey the views come from, each
 * view carries its capture date, and a view chosen for the PDF is posted with its survey, so the server
 * prints the date under it.
 */
export function useAerialViews(reportId: string, point: LatLng, survey: number | null): AerialViews {
  const [imageUrl] = useLazyImageUrlQuery();
  const [postHighRes] = usePostHighResMutation();
  const [postAerial] = usePostAerialMutation();
  const [loading, setLoading] = useState(true);
  const [outcomes, setOutcomes] = useState<ViewOutcome[]>([]);
  const [chosen, setChosen] = useState<ChosenView | null>(null);
  const [save, setSave] = useState<AerialSave>('idle');
  const alive = useRef(true);
  const choice = useRef(0);
  /** The report whose status and default view were posted (once per report, whatever survey is shown). */
  const stepDoneFor = useRef<string | null>(null);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const send = useCallback(
    async (outcome: ViewOutcome) => {
      if (!outcome.url) return;
      const mine = (choice.current += 1);
      const { view, surveyId, capturedOn } = outcome;
      setChosen({ view, surveyId, capturedOn });
      setSave('saving');
      try {
        const image = await fetchImageBytes(outcome.url);
        await postAerial({ reportId, viewId: view, image, survey: surveyId ?? undefined }).unwrap();
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
    let current = true;
    setLoading(true);
    (async () => {
      const found = await Promise.all(
        AERIAL_VIEW_IDS.map(async (view): Promise<ViewOutcome> => {
          const result = await imageUrl(
            { lat, lng, orientation: view, ...(survey === null ? {} : { survey }) },
            true,
          );
          const answer = result.data ?? null;
          const dated = { capturedOn: answer?.capturedOn ?? null, surveyId: answer?.surveyId ?? null };
          const { status, url } = answerStatus(answer, !!result.error);
          if (status !== null) return { view, status, url: null, ...dated };
          try {
            await loadImage(url!);
            return { view, status: 0, url, ...dated };
          } catch {
            return { view, status: 2, url: null, ...dated };
          }
        }),
      );
      if (!current || !alive.current) return;
      setOutcomes(found);
      setLoading(false);
      if (stepDoneFor.current === reportId) return;
      stepDoneFor.current = reportId;
      const counts = countStatuses(found);
      try {
        await postHighRes({ reportId, status: mostCommonStatus(counts), body: { counts } }).unwrap();
      } catch (error) {
        console.error('[iris] high-resolution status not saved', error);
      }
      const view = defaultView(found);
      const outcome = found.find((o) => o.view === view);
      if (current && alive.current && outcome) await send(outcome);
    })();
    return () => {
      current = false;
    };
  }, [reportId, lat, lng, survey, imageUrl, postHighRes, send]);

  const choose = useCallback(
    async (view: AerialViewId) => {
      const outcome = outcomes.find((o) => o.view === view && o.status === 0);
      if (outcome) await send(outcome);
    },
    [outcomes, send],
  );

  return { loading, outcomes, chosen, save, choose };
}
