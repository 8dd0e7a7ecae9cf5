import type { ValidationResult } from '@portal/contracts';
import { CHUNK_RETRY_DELAYS_MS } from '../../config';
import { pendingChunks, runBatch, summarise, type BatchProgress } from './batch';

const resultFor = (query: string): ValidationResult => ({
  query,
  verdict: query.startsWith('bad') ? 'not found' : 'valid',
  confidence: query.startsWith('bad') ? 0 : 0.9,
  matchType: query.startsWith('bad') ? null : 'address',
  formatted_address: query.startsWith('bad') ? null : query.toUpperCase(),
  parts: null,
  location: null,
  parcel: null,
});

const rows = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1} A Street`);
const noWait = () => Promise.resolve();

describe('runBatch', () => {
  it('validates in chunks of 100, in order, reporting rows done of the total', async () => {
    const sent: number[] = [];
    const progress: BatchProgress[] = [];
    const addresses = rows(250);
    const outcome = await runBatch({
      addresses,
      validate: async (chunk) => {
        sent.push(chunk.length);
        return chunk.map(resultFor);
      },
      onProgress: (p) => progress.push(p),
      sleep: noWait,
    });
    expect(outcome).toEqual({ status: 'done' });
    expect(sent).toEqual([100, 100, 50]);
    expect(progress.map((p) => [p.done, p.total])).toEqual([
      [0, 250],
      [100, 250],
      [200, 250],
      [250, 250],
    ]);
    expect(progress.at(-1)!.results.map((r) => r!.query)).toEqual(addresses);
  });

  it('tries a failing chunk again after a pause, and goes on when it succeeds', async () => {
    let calls = 0;
    const pauses: number[] = [];
    const outcome = await runBatch({
      addresses: rows(150),
      validate: async (chunk) => {
        calls += 1;
        if (calls === 2) throw new Error('Service Unavailable');
        return chunk.map(resultFor);
      },
      onProgress: () => undefined,
      sleep: async (ms) => void pauses.push(ms),
    });
    expect(outcome).toEqual({ status: 'done' });
    expect(calls).toBe(3);
    expect(pauses).toEqual([CHUNK_RETRY_DELAYS_MS[0]]);
  });

  it('stops at a chunk that keeps failing, keeps what is done, and a second run sends only the rest', async () => {
    let last: BatchProgress | undefined;
    const failing = await runBatch({
      addresses: rows(250),
      validate: async (chunk) => {
        if (chunk[0] === '101 A Street') throw new Error('Bad Gateway');
        return chunk.map(resultFor);
      },
      onProgress: (p) => (last = p),
      sleep: noWait,
    });
    expect(failing).toEqual({ status: 'failed', from: 101, to: 200, message: 'Bad Gateway' });
    expect(last!.done).toBe(100);

    const sent: string[] = [];
    const resumed = await runBatch({
      addresses: rows(250),
      previous: last!.results,
      validate: async (chunk) => {
        sent.push(chunk[0]);
        return chunk.map(resultFor);
      },
      onProgress: (p) => (last = p),
      sleep: noWait,
    });
    expect(resumed).toEqual({ status: 'done' });
    // The first chunk was kept; the failed one and the one never sent were sent now.
    expect(sent).toEqual(['101 A Street', '201 A Street']);
    expect(last!.done).toBe(250);
    expect(last!.results.map((r) => r!.query)).toEqual(rows(250));
  });

  it('refuses an answer with the wrong number of results as a failure', async () => {
    const outcome = await runBatch({
      addresses: rows(3),
      validate: async (chunk) => chunk.slice(1).map(resultFor),
      onProgress: () => undefined,
      sleep: noWait,
    });
    expect(outcome).toMatchObject({ status: 'failed', from: 1, to: 3, message: '2 results for 3 rows' });
  });

  it('stops between chunks when asked', async () => {
    const controller = new AbortController();
    let calls = 0;
    const outcome = await runBatch({
      addresses: rows(300),
      validate: async (chunk) => {
        calls += 1;
        controller.abort();
        return chunk.map(resultFor);
      },
      onProgress: () => undefined,
      signal: controller.signal,
      sleep: noWait,
    });
    expect(outcome).toEqual({ status: 'stopped' });
    expect(calls).toBe(1);
  });
});

describe('pendingChunks and summarise', () => {
  it('lists the chunks with a missing row, and counts verdicts and unreadable rows', () => {
    const results = [resultFor('1'), undefined, resultFor('3'), resultFor('4')];
    expect(pendingChunks(results, 4, 2)).toEqual([[0, 2]]);
    expect(pendingChunks([], 5, 2)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    const unreadable = { ...resultFor('bad'), error: 'Type something to search for.' };
    expect(summarise([resultFor('1'), resultFor('bad x'), unreadable, undefined])).toEqual({
      valid: 1,
      probable: 0,
      'not found': 1,
      unreadable: 1,
    });
  });
});
