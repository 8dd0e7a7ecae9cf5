import { Presets, SingleBar } from 'cli-progress';

/**
 * How an import shows that it is moving: a cli-progress bar on a terminal, a plain line every few seconds
 * otherwise (CI logs, pipes: CI=true or no TTY), nothing for programmatic use (tests).
 */
export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

export interface ProgressCounts {
  /** Records read so far. */
  read: number;
  loaded: number;
  rejected: number;
}

export interface Progress {
  /** `done` in the unit of `total` (bytes of the input file). */
  update(done: number, counts: ProgressCounts): void;
  stop(counts: ProgressCounts): void;
}

export interface ProgressOptions {
  mode?: ProgressMode;
  label: string;
  /** Size of the input in bytes (0 when unknown). */
  total: number;
  stream?: NodeJS.WriteStream;
  /** Plain lines: at most one per this many milliseconds (default 5000). */
  intervalMs?: number;
}

export function resolveProgressMode(
  mode: ProgressMode,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressMode {
  if (mode !== 'auto') return mode;
  return stream.isTTY && !process.env.CI ? 'bar' : 'lines';
}

const numberFormat = new Intl.NumberFormat('en-ZA');

export function createProgress({
  mode = 'none',
  label,
  total,
  stream = process.stderr,
  intervalMs = 5000,
}: ProgressOptions): Progress {
  const resolved = resolveProgressMode(mode, stream);
  const started = performance.now();
  const rate = (read: number) => {
    const seconds = (performance.now() - started) / 1000;
    return seconds > 0 ? Math.round(read / seconds) : 0;
  };

  if (resolved === 'none') return { update: () => undefined, stop: () => undefined };

  if (resolved === 'bar') {
    const bar = new SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {read} read, {loaded} loaded, {rejected} rejected | {rate}/s | ETA {eta_formatted}`,
        stream,
        hideCursor: true,
        fps: 5,
        etaBuffer: 50,
      },
      Presets.shades_classic,
    );
    const payload = (counts: ProgressCounts) => ({
      read: numberFormat.format(counts.read),
      loaded: numberFormat.format(counts.loaded),
      rejected: numberFormat.format(counts.rejected),
      rate: numberFormat.format(rate(counts.read)),
    });
    bar.start(Math.max(total, 1), 0, payload({ read: 0, loaded: 0, rejected: 0 }));
    return {
      update: (done, counts) => bar.update(Math.min(done, Math.max(total, 1)), payload(counts)),
      stop: (counts) => {
        bar.update(Math.max(total, 1), payload(counts));
        bar.stop();
      },
    };
  }

  let last = started;
  const line = (done: number, counts: ProgressCounts, final: boolean) => {
    const percent = total > 0 ? `${Math.min(100, Math.floor((done / total) * 100))}%, ` : '';
    stream.write(
      `${label}: ${final ? 'done, ' : ''}${percent}${numberFormat.format(counts.read)} read, ` +
        `${numberFormat.format(counts.loaded)} loaded, ${numberFormat.format(counts.rejected)} rejected, ` +
        `${numberFormat.format(rate(counts.read))}/s\n`,
    );
  };
  return {
    update: (done, counts) => {
      const now = performance.now();
      if (now - last < intervalMs) return;
      last = now;
      line(done, counts, false);
    },
    stop: (counts) => line(total, counts, true),
  };
}
