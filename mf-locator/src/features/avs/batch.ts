import { VALIDATION_BATCH_MAX, type ValidationResult } from '@portal/contracts';
import { CHUNK_RETRY_DELAYS_MS } from '../../config';

/**
 * Validating a file's rows in chunks of VALIDATION_BATCH_MAX, in order, one call at a time (the service
 * works each chunk four rows at a time already; more calls at once would only queue behind each other and
 * behind other users). A chunk that fails is tried again after a pause; when it keeps failing the run
 * stops there with every result so far kept, and `run` again goes on from that chunk.
 */

export type ValidateChunk = (addresses: string[]) => Promise<ValidationResult[]>;

export interface BatchProgress {
  /** One slot per row, filled as chunks come back. */
  results: (ValidationResult | undefined)[];
  /** Rows with a result. */
  done: number;
  total: number;
}

export type BatchOutcome =
  | { status: 'done' }
  | { status: 'stopped' }
  /** A chunk failed every try: rows `from`..`to` (1-based) are not validated; run again to go on. */
  | { status: 'failed'; from: number; to: number; message: string };

export interface RunBatchOptions {
  addresses: readonly string[];
  /** Results of an earlier run to keep (only the missing rows are sent). */
  previous?: readonly (ValidationResult | undefined)[];
  validate: ValidateChunk;
  onProgress: (progress: BatchProgress) => void;
  /** Stop between chunks. */
  signal?: AbortSignal;
  /** Waiting between tries (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  chunkSize?: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const errorMessage = (error: unknown): string => {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
};

/** The chunks of the rows still without a result: [start, end) index pairs, in order. */
export function pendingChunks(
  results: readonly (ValidationResult | undefined)[],
  total: number,
  chunkSize = VALIDATION_BATCH_MAX,
): [number, number][] {
  const chunks: [number, number][] = [];
  for (let start = 0; start < total; start += chunkSize) {
    const end = Math.min(start + chunkSize, total);
    for (let i = start; i < end; i++) {
      if (!results[i]) {
        chunks.push([start, end]);
        break;
      }
    }
  }
  return chunks;
}

export async function runBatch({
  addresses,
  previous,
  validate,
  onProgress,
  signal,
  sleep = defaultSleep,
  chunkSize = VALIDATION_BATCH_MAX,
}: RunBatchOptions): Promise<BatchOutcome> {
  const total = addresses.length;
  const results: (ValidationResult | undefined)[] = Array.from({ length: total }, (_, i) => previous?.[i]);
  const report = () => onProgress({ results: [...results], done: results.filter(Boolean).length, total });
  report();
  for (const [start, end] of pendingChunks(results, total, chunkSize)) {
    let lastError: unknown;
    let answered: ValidationResult[] | undefined;
    for (let attempt = 0; attempt <= CHUNK_RETRY_DELAYS_MS.length && !answered; attempt++) {
      if (signal?.aborted) return { status: 'stopped' };
      if (attempt > 0) await sleep(CHUNK_RETRY_DELAYS_MS[attempt - 1]);
      try {
        const chunk = await validate(addresses.slice(start, end));
        if (chunk.length !== end - start) throw new Error(`${chunk.length} results for ${end - start} rows`);
        answered = chunk;
      } catch (error) {
        lastError = error;
      }
    }
    if (!answered) return { status: 'failed', from: start + 1, to: end, message: errorMessage(lastError) };
    answered.forEach((result, i) => (results[start + i] = result));
    report();
    if (signal?.aborted) return { status: 'stopped' };
  }
  return { status: 'done' };
}

/** How many rows got each verdict, and how many could not be read. */
export function summarise(results: readonly (ValidationResult | undefined)[]) {
  const counts = { valid: 0, probable: 0, 'not found': 0, unreadable: 0 };
  for (const result of results) {
    if (!result) continue;
    if (result.error) counts.unreadable += 1;
    else counts[result.verdict] += 1;
  }
  return counts;
}
