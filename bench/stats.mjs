/** Percentile by nearest rank over a numeric sample. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}
export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A sample of times (ms) as the benches report it: how many, the median, the 95th percentile, the worst. */
export const timingSummary = (times) => ({
  samples: times.length,
  p50Ms: round(percentile(times, 50)),
  p95Ms: round(percentile(times, 95)),
  maxMs: round(Math.max(...times)),
});
