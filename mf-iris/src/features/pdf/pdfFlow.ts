import { IRIS_POLL, type CanGenerateAnswer, type GenerateAnswer, type ReadyAnswer } from '@portal/contracts';

/**
 * The PDF flow of spec 03 §4 as a pure state machine; `usePdfFlow` runs the calls it asks for.
 *  2. preparing: ask canGenerate every 2 s until it can (or its timeout flag is set: the PDF is then made
 *     without the aerial view);
 *  3. generating: GET generate; on failure retry every 3 s;
 *  4. waiting: ask ready every 3 s (its progress shown); pdfReady → ready, with the link;
 *  5. the user can cancel (→ cancelled) or regenerate (→ waiting again; back to preparing if the server
 *     says the report is not prepared).
 */
export type PdfPhase = 'preparing' | 'generating' | 'waiting' | 'ready' | 'failed' | 'cancelled';

export interface PdfFlowState {
  phase: PdfPhase;
  /** Calls made in this phase so far (0: the first is due). */
  attempt: number;
  /** 0–100: the imagery step's progress while preparing, the PDF job's afterwards. */
  progress: number;
  /** canGenerate said the imagery step timed out. */
  timedOut: boolean;
  pdfUrl: string | null;
  error: string | null;
}

export type PdfFlowEvent =
  | { type: 'canGenerate'; answer: CanGenerateAnswer }
  | { type: 'canGenerateFailed' }
  | { type: 'generated'; answer: GenerateAnswer }
  | { type: 'generateFailed' }
  | { type: 'ready'; answer: ReadyAnswer }
  | { type: 'readyFailed' }
  | { type: 'cancelled' }
  | { type: 'regenerated'; ok: boolean }
  | { type: 'restart' };

export const initialPdfFlow: PdfFlowState = {
  phase: 'preparing',
  attempt: 0,
  progress: 0,
  timedOut: false,
  pdfUrl: null,
  error: null,
};

const again = (state: PdfFlowState, changes: Partial<PdfFlowState> = {}): PdfFlowState => ({
  ...state,
  ...changes,
  attempt: state.attempt + 1,
});
const enter = (state: PdfFlowState, phase: PdfPhase, changes: Partial<PdfFlowState> = {}): PdfFlowState => ({
  ...state,
  error: null,
  ...changes,
  phase,
  attempt: 0,
});

export function pdfFlowStep(state: PdfFlowState, event: PdfFlowEvent): PdfFlowState {
  switch (event.type) {
    case 'restart':
      return initialPdfFlow;
    case 'cancelled':
      return enter(state, 'cancelled', { pdfUrl: null });
    case 'regenerated':
      return event.ok
        ? enter(state, 'waiting', { progress: 0, pdfUrl: null })
        : enter(state, 'preparing', { progress: 0, pdfUrl: null });
    default:
      break;
  }
  switch (state.phase) {
    case 'preparing':
      if (event.type === 'canGenerate') {
        const { answer } = event;
        if (answer.success && (answer.canGeneratePdf || answer.timeout))
          return enter(state, 'generating', { progress: 0, timedOut: answer.timeout });
        return again(state, { progress: answer.progress });
      }
      if (event.type === 'canGenerateFailed') return again(state);
      return state;
    case 'generating':
      if (event.type === 'generated') {
        if (!event.answer.success) return again(state);
        return enter(state, 'waiting', { progress: event.answer.progress });
      }
      if (event.type === 'generateFailed') return again(state);
      return state;
    case 'waiting':
      if (event.type === 'ready') {
        const { answer } = event;
        if (answer.success && answer.pdfReady)
          return enter(state, 'ready', { progress: 100, pdfUrl: answer.pdfUrl });
        if (answer.state === 'failed') return enter(state, 'failed', { error: answer.error });
        if (answer.state === 'cancelled') return enter(state, 'cancelled');
        return again(state, { progress: answer.progress });
      }
      if (event.type === 'readyFailed') return again(state);
      return state;
    default:
      // ready, failed, cancelled: only cancel / regenerate / restart move on.
      return state;
  }
}

export type PdfCall = 'canGenerate' | 'generate' | 'ready';

/**
 * The next call and how long to wait before it, or null when the flow rests (ready, failed, cancelled).
 * The first canGenerate and generate go at once; ready is first asked one interval after generate.
 */
export function nextPdfCall(state: PdfFlowState): { call: PdfCall; delayMs: number } | null {
  switch (state.phase) {
    case 'preparing':
      return { call: 'canGenerate', delayMs: state.attempt === 0 ? 0 : IRIS_POLL.canGenerateMs };
    case 'generating':
      return { call: 'generate', delayMs: state.attempt === 0 ? 0 : IRIS_POLL.generateRetryMs };
    case 'waiting':
      return { call: 'ready', delayMs: IRIS_POLL.readyMs };
    default:
      return null;
  }
}

/** Cancel is offered while a PDF is on its way; Regenerate once the flow rests or a PDF is being made. */
export const canCancel = (state: PdfFlowState) =>
  state.phase === 'preparing' || state.phase === 'generating' || state.phase === 'waiting';
export const canRegenerate = (state: PdfFlowState) =>
  state.phase === 'ready' || state.phase === 'failed' || state.phase === 'cancelled';
