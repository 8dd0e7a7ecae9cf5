/**
 * The threaded bulk path's end (threads.ts, stopWorkers): it settles when a worker stopped early (no town
 * left for it) exited long before — at 10 M addresses the run hung there, its rows written and its indexes
 * never built, waiting for an 'exit' already emitted — and ends a worker that does not stop.
 */
import { Worker } from 'node:worker_threads';
import { stopWorkers } from './threads';

/** A worker that exits when told to stop (as bulk-worker does), or never does (`stubborn`). */
function startWorker(stubborn = false) {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (message) => {
       if (message.type === 'stop' && !${stubborn}) parentPort.close();
     });`,
    { eval: true },
  );
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return { worker, exited };
}

/** Settles with what `work` answered, or 'hung' after `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  return Promise.race([work, hung]).finally(() => clearTimeout(timer));
}

describe('stopWorkers', () => {
  it('settles when one worker exited before (stopped early) and stops the other', async () => {
    const early = startWorker();
    const last = startWorker();
    const exited = new Set<Worker>();
    for (const { worker } of [early, last]) worker.on('exit', () => exited.add(worker));
    // The early worker is told to stop and is gone before the run's end.
    early.worker.postMessage({ type: 'stop' });
    await early.exited;
    expect(exited.has(early.worker)).toBe(true);

    const result = await within(5_000, stopWorkers([early.worker, last.worker], exited, 10_000));
    expect(result).not.toBe('hung');
    await last.exited;
    expect(exited.has(last.worker)).toBe(true);
  });

  it('terminates a worker that has not stopped after the grace period', async () => {
    const stubborn = startWorker(true);
    const started = Date.now();
    const result = await within(5_000, stopWorkers([stubborn.worker], new Set(), 200));
    expect(result).not.toBe('hung');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});
