// Small, deterministic helpers shared by the charts: escaping, number formatting, scales and ticks. No DOM,
// no locale: the same input gives the same bytes in Node (the PDF's HTML) and in the browser.

/**
 * Text and attribute values as XML and HTML want them (the five special characters as entities); null and
 * undefined are ''. The charts' SVG and the PDFs' HTML (services/iris, services/reportbuilder) escape with it.
 */
export function escapeXml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A coordinate in the SVG: at most 2 decimals, no trailing zeros, never '-0'. */
export function coord(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * A number for people: `decimals` places, thousands grouped with a space (the South African way), a real
 * minus sign. Locale-free, so Node and every browser write the same text.
 */
export function formatNumber(value: number, decimals = 0): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole, fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const negative = value < 0 && Number(fixed) !== 0;
  return `${negative ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** A linear map from a domain onto a range. */
export function linearScale(
  [d0, d1]: readonly [number, number],
  [r0, r1]: readonly [number, number],
): (value: number) => number {
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** A "nice" step (1, 2 or 5 times a power of ten) giving about `count` intervals over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  // The nearest of 1, 2, 5, 10 (on a log scale, as d3 picks them).
  const nice =
    fraction >= Math.SQRT2 * 5 ? 10 : fraction >= Math.sqrt(10) ? 5 : fraction >= Math.SQRT2 ? 2 : 1;
  return nice * power;
}

/**
 * A domain widened to round tick values, and those ticks: `[min, max]` always inside. A flat domain (min
 * equal to max) is opened around the value.
 */
export function niceDomain(
  min: number,
  max: number,
  count = 5,
): { domain: [number, number]; ticks: number[] } {
  let lo = min;
  let hi = max;
  if (lo === hi) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    lo -= pad;
    hi += pad;
  }
  const step = niceStep(hi - lo, count);
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // Integer steps, so floating-point drift never adds or drops a tick.
  const n = Math.round((end - start) / step);
  for (let i = 0; i <= n; i += 1) ticks.push(Number((start + i * step).toPrecision(12)));
  return { domain: [start, end], ticks };
}

/** Decimals that show a tick step without noise (step 0.5 → 1, step 20 → 0). */
export function decimalsFor(ticks: readonly number[]): number {
  if (ticks.length < 2) return 0;
  const step = Math.abs(ticks[1] - ticks[0]);
  return step >= 1 ? 0 : Math.min(4, Math.ceil(-Math.log10(step)));
}

export interface ChartFrame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

/** The plot area inside the margins. */
export function plotArea({ width, height, margin }: ChartFrame) {
  return {
    left: margin.left,
    right: width - margin.right,
    top: margin.top,
    bottom: height - margin.bottom,
  };
}

export const FONT = 'font-family="Helvetica, Arial, sans-serif"';
export const COLOURS = {
  axis: '#5f6b76',
  grid: '#e3e7eb',
  text: '#263238',
  line: '#1f4e79',
  reference: '#c62828',
  bar: '#45607a',
  gap: '#9e9e9e',
} as const;

/** The opening tag and the title of a chart: an image with an accessible name. */
export function openSvg(frame: ChartFrame, title: string, className: string): string {
  const t = escapeXml(title);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="${className}" width="${frame.width}" height="${frame.height}" ` +
    `viewBox="0 0 ${frame.width} ${frame.height}" role="img" aria-label="${t}" ${FONT} font-size="11">` +
    `<title>${t}</title>` +
    `<text class="chart-title" x="${coord(frame.width / 2)}" y="16" text-anchor="middle" font-size="13" font-weight="bold" fill="${COLOURS.text}">${t}</text>`
  );
}
