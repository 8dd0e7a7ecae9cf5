import { useCallback, useEffect, useReducer, useRef } from 'react';
import {
  useCancelPdfMutation,
  useLazyCanGenerateQuery,
  useLazyGeneratePdfQuery,
  useLazyPdfReadyQuery,
  useRegeneratePdfMutation,
} from '../../api/irisApi';
import { initialPdfFlow, nextPdfCall, pdfFlowStep, type PdfFlowState } from './pdfFlow';

export interface PdfFlow {
  state: PdfFlowState;
  cancel: () => Promise<void>;
  regenerate: () => Promise<void>;
}

/**
 * Runs the PDF flow (pdfFlow.ts) for a report: one call at a time, each after the delay the state machine
 * names. Unmounting (closing the report) stops it; an answer that comes back afterwards, or after a
 * cancel, is ignored.
 */
export function usePdfFlow(reportId: string, requestId: string): PdfFlow {
  const [state, dispatch] = useReducer(pdfFlowStep, initialPdfFlow);
  const [canGenerate] = useLazyCanGenerateQuery();
  const [generate] = useLazyGeneratePdfQuery();
  const [ready] = useLazyPdfReadyQuery();
  const [cancelCall] = useCancelPdfMutation();
  const [regenerateCall] = useRegeneratePdfMutation();
  // Bumped by cancel and regenerate: the answer of a call started before belongs to an older flow.
  const epoch = useRef(0);

  useEffect(() => {
    const next = nextPdfCall(state);
    if (!next) return;
    const started = epoch.current;
    let live = true;
    const timer = setTimeout(async () => {
      const current = () => live && started === epoch.current;
      switch (next.call) {
        case 'canGenerate': {
          const result = await canGenerate(reportId, false);
          if (!current()) return;
          dispatch(
            result.data ? { type: 'canGenerate', answer: result.data } : { type: 'canGenerateFailed' },
          );
          return;
        }
        case 'generate': {
          const result = await generate({ reportId, requestId }, false);
          if (!current()) return;
          dispatch(result.data ? { type: 'generated', answer: result.data } : { type: 'generateFailed' });
          return;
        }
        case 'ready': {
          const result = await ready(reportId, false);
          if (!current()) return;
          dispatch(result.data ? { type: 'ready', answer: result.data } : { type: 'readyFailed' });
          return;
        }
      }
    }, next.delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The phase and the attempt decide the next call; progress changes alone do not.
  }, [state.phase, state.attempt, reportId, requestId]);

  const cancel = useCallback(async () => {
    epoch.current += 1;
    dispatch({ type: 'cancelled' });
    try {
      await cancelCall(reportId).unwrap();
    } catch (error) {
      console.error('[iris] cancel failed', error);
    }
  }, [cancelCall, reportId]);

  const regenerate = useCallback(async () => {
    epoch.current += 1;
    try {
      await regenerateCall(reportId).unwrap();
      dispatch({ type: 'regenerated', ok: true });
    } catch {
      // Not prepared yet (409) or a failed call: start again from canGenerate.
      dispatch({ type: 'regenerated', ok: false });
    }
  }, [regenerateCall, reportId]);

  return { state, cancel, regenerate };
}
