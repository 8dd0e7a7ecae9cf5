import type { CanGenerateAnswer, GenerateAnswer, ReadyAnswer } from '@portal/contracts';
import {
  canCancel,
  canRegenerate,
  initialPdfFlow,
  nextPdfCall,
  pdfFlowStep,
  type PdfFlowEvent,
  type PdfFlowState,
} from './pdfFlow';

const can = (c: Partial<CanGenerateAnswer>): PdfFlowEvent => ({
  type: 'canGenerate',
  answer: { success: true, progress: 0, canGeneratePdf: false, timeout: false, ...c },
});
const generated = (g: Partial<GenerateAnswer> = {}): PdfFlowEvent => ({
  type: 'generated',
  answer: { success: true, progress: 0, state: 'queued', version: 1, ...g },
});
const ready = (r: Partial<ReadyAnswer>): PdfFlowEvent => ({
  type: 'ready',
  answer: { success: true, pdfUrl: null, pdfReady: false, progress: 0, state: 'running', error: null, ...r },
});

/**
 * Drives the machine the way usePdfFlow does — each call after the delay nextPdfCall names — with fake
 * timers, answering from scripts; records when each call was made.
 */
function run(script: Record<'canGenerate' | 'generate' | 'ready', PdfFlowEvent[]>, until = 60_000) {
  let state: PdfFlowState = initialPdfFlow;
  const log: string[] = [];
  const start = Date.now();
  const schedule = () => {
    const next = nextPdfCall(state);
    if (!next) return;
    setTimeout(() => {
      // To the 100 ms (a 0 ms timer fires after 1 ms).
      log.push(`${Math.floor((Date.now() - start) / 100) * 100} ${next.call}`);
      const event = script[next.call].shift() ?? { type: `${next.call}Failed` as 'readyFailed' };
      state = pdfFlowStep(state, event);
      schedule();
    }, next.delayMs);
  };
  schedule();
  jest.advanceTimersByTime(until);
  return { state, log };
}

describe('the PDF flow (spec 03 §4)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('polls canGenerate every 2 s, generates at once, then polls ready every 3 s until the PDF is ready', () => {
    const { state, log } = run({
      canGenerate: [
        can({ progress: 50 }),
        can({ progress: 50 }),
        can({ canGeneratePdf: true, progress: 100 }),
      ],
      generate: [generated()],
      ready: [ready({ progress: 40 }), ready({ pdfReady: true, pdfUrl: '/x.pdf', state: 'done' })],
    });
    expect(log).toEqual([
      '0 canGenerate',
      '2000 canGenerate',
      '4000 canGenerate',
      '4000 generate',
      '7000 ready',
      '10000 ready',
    ]);
    expect(state).toMatchObject({ phase: 'ready', pdfUrl: '/x.pdf', progress: 100, timedOut: false });
  });

  it('keeps polling canGenerate through failed calls, and goes on when the timeout flag is set', () => {
    const { state, log } = run({
      canGenerate: [{ type: 'canGenerateFailed' }, can({ timeout: true, canGeneratePdf: true })],
      generate: [generated()],
      ready: [ready({ pdfReady: true, state: 'done' })],
    });
    expect(log.slice(0, 3)).toEqual(['0 canGenerate', '2000 canGenerate', '2000 generate']);
    expect(state).toMatchObject({ phase: 'ready', timedOut: true });
  });

  it('retries generate every 3 s on failure (an error or success false)', () => {
    const { log } = run({
      canGenerate: [can({ canGeneratePdf: true })],
      generate: [{ type: 'generateFailed' }, generated({ success: false }), generated()],
      ready: [ready({ pdfReady: true, state: 'done' })],
    });
    expect(log).toEqual(['0 canGenerate', '0 generate', '3000 generate', '6000 generate', '9000 ready']);
  });

  it('stops on a failed job with its error, and offers Regenerate', () => {
    const { state, log } = run({
      canGenerate: [can({ canGeneratePdf: true })],
      generate: [generated()],
      ready: [ready({ state: 'failed', error: 'Chromium crashed' })],
    });
    expect(log).toHaveLength(3);
    expect(state).toMatchObject({ phase: 'failed', error: 'Chromium crashed' });
    expect(canRegenerate(state)).toBe(true);
    expect(canCancel(state)).toBe(false);
  });

  it('cancel stops the polling; regenerate polls ready again (or prepares again when refused)', () => {
    let state = pdfFlowStep(initialPdfFlow, can({ canGeneratePdf: true }));
    state = pdfFlowStep(state, generated());
    expect(canCancel(state)).toBe(true);
    state = pdfFlowStep(state, { type: 'cancelled' });
    expect(state.phase).toBe('cancelled');
    expect(nextPdfCall(state)).toBeNull();
    // A late answer of the cancelled flow changes nothing.
    expect(pdfFlowStep(state, ready({ pdfReady: true }))).toBe(state);
    const again = pdfFlowStep(state, { type: 'regenerated', ok: true });
    expect(again).toMatchObject({ phase: 'waiting', attempt: 0, progress: 0 });
    expect(nextPdfCall(again)).toEqual({ call: 'ready', delayMs: 3000 });
    expect(pdfFlowStep(state, { type: 'regenerated', ok: false }).phase).toBe('preparing');
  });

  it('shows the job’s progress while waiting', () => {
    let state = pdfFlowStep(initialPdfFlow, can({ canGeneratePdf: true }));
    state = pdfFlowStep(state, generated({ progress: 5 }));
    expect(state.progress).toBe(5);
    state = pdfFlowStep(state, ready({ progress: 60 }));
    expect(state).toMatchObject({ phase: 'waiting', progress: 60, attempt: 1 });
  });
});
