import type { ProfileSample } from '@portal/contracts';
import {
  COLOURS,
  coord,
  decimalsFor,
  escapeXml,
  formatNumber,
  linearScale,
  niceDomain,
  openSvg,
  plotArea,
  type ChartFrame,
} from './svg';

/** Spec 03 §9: the elevation chart's reference line spans ±1000 m. */
export const REFERENCE_HALF_SPAN_M = 1000;

export interface ElevationChartOptions {
  title: string;
  /** The ends of the profile, e.g. 'S' and 'N' (negative offsets are south / west). */
  negativeLabel?: string;
  positiveLabel?: string;
  width?: number;
  height?: number;
}

export const ELEVATION_TEXT = {
  xAxis: 'Distance from the property (m)',
  yAxis: 'Elevation (m)',
  reference: (ele: number) => `Property ${formatNumber(ele, 1)} m`,
  noData: 'No elevation data for this profile.',
} as const;

const FRAME = { top: 28, right: 18, bottom: 44, left: 58 };

/** The profile's runs of known values: a null sample breaks the line (a gap, never a made-up value). */
function runs(samples: readonly ProfileSample[]): ProfileSample[][] {
  const out: ProfileSample[][] = [];
  let current: ProfileSample[] = [];
  for (const sample of samples) {
    if (sample.ele === null || !Number.isFinite(sample.ele)) {
      if (current.length) out.push(current);
      current = [];
    } else current.push(sample);
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * An elevation profile through the property as an SVG string: the ground along the profile (gaps where the
 * model has no value), and a dashed reference line at the property's elevation `ele` from −1000 m to
 * +1000 m (spec 03 §9), with axes, ticks and labels. Pure and deterministic (Node and browser alike).
 */
export function elevationProfileSvg(
  samples: readonly ProfileSample[],
  ele: number | null,
  options: ElevationChartOptions,
): string {
  const frame: ChartFrame = { width: options.width ?? 560, height: options.height ?? 240, margin: FRAME };
  const area = plotArea(frame);
  const sorted = [...samples].sort((a, b) => a.offset - b.offset);
  const known = sorted.filter((s) => s.ele !== null && Number.isFinite(s.ele)).map((s) => s.ele as number);
  const parts: string[] = [openSvg(frame, options.title, 'chart elevation-chart')];

  const xMin = Math.min(-REFERENCE_HALF_SPAN_M, ...sorted.map((s) => s.offset));
  const xMax = Math.max(REFERENCE_HALF_SPAN_M, ...sorted.map((s) => s.offset));
  const x = linearScale([xMin, xMax], [area.left, area.right]);

  if (known.length === 0 && ele === null) {
    parts.push(
      `<text class="no-data" x="${coord((area.left + area.right) / 2)}" y="${coord((area.top + area.bottom) / 2)}" text-anchor="middle" fill="${COLOURS.gap}">${escapeXml(ELEVATION_TEXT.noData)}</text>`,
      '</svg>',
    );
    return parts.join('');
  }

  const values = ele === null ? known : [...known, ele];
  const { domain, ticks } = niceDomain(Math.min(...values), Math.max(...values), 5);
  const y = linearScale(domain, [area.bottom, area.top]);
  const decimals = decimalsFor(ticks);

  // Grid and y axis.
  parts.push('<g class="y-axis">');
  for (const tick of ticks) {
    const ty = coord(y(tick));
    parts.push(
      `<line x1="${area.left}" x2="${area.right}" y1="${ty}" y2="${ty}" stroke="${COLOURS.grid}"/>`,
      `<text x="${area.left - 6}" y="${ty}" dy="3.5" text-anchor="end" fill="${COLOURS.text}">${escapeXml(formatNumber(tick, decimals))}</text>`,
    );
  }
  parts.push(
    `<line x1="${area.left}" x2="${area.left}" y1="${area.top}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
    `<text class="axis-label" transform="translate(14 ${coord((area.top + area.bottom) / 2)}) rotate(-90)" text-anchor="middle" fill="${COLOURS.text}">${escapeXml(ELEVATION_TEXT.yAxis)}</text>`,
    '</g>',
  );

  // X axis: every 500 m inside the domain, and the ends' direction labels.
  parts.push('<g class="x-axis">');
  parts.push(
    `<line x1="${area.left}" x2="${area.right}" y1="${area.bottom}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
  );
  for (let tick = Math.ceil(xMin / 500) * 500; tick <= xMax; tick += 500) {
    const tx = coord(x(tick));
    parts.push(
      `<line x1="${tx}" x2="${tx}" y1="${area.bottom}" y2="${area.bottom + 4}" stroke="${COLOURS.axis}"/>`,
      `<text x="${tx}" y="${area.bottom + 15}" text-anchor="middle" fill="${COLOURS.text}">${escapeXml(formatNumber(tick))}</text>`,
    );
  }
  const labelY = area.bottom + 32;
  parts.push(
    `<text class="axis-label" x="${coord((area.left + area.right) / 2)}" y="${labelY}" text-anchor="middle" fill="${COLOURS.text}">${escapeXml(ELEVATION_TEXT.xAxis)}</text>`,
  );
  if (options.negativeLabel)
    parts.push(
      `<text class="end-label" x="${area.left}" y="${labelY}" text-anchor="start" font-weight="bold" fill="${COLOURS.text}">${escapeXml(options.negativeLabel)}</text>`,
    );
  if (options.positiveLabel)
    parts.push(
      `<text class="end-label" x="${area.right}" y="${labelY}" text-anchor="end" font-weight="bold" fill="${COLOURS.text}">${escapeXml(options.positiveLabel)}</text>`,
    );
  parts.push('</g>');

  // The ground: one path per run of known values; a run of one sample is a dot.
  parts.push(`<g class="profile" fill="none" stroke="${COLOURS.line}" stroke-width="2">`);
  for (const run of runs(sorted)) {
    if (run.length === 1) {
      parts.push(
        `<circle class="profile-point" cx="${coord(x(run[0].offset))}" cy="${coord(y(run[0].ele as number))}" r="2.5" fill="${COLOURS.line}" stroke="none"/>`,
      );
      continue;
    }
    const d = run
      .map((s, i) => `${i === 0 ? 'M' : 'L'}${coord(x(s.offset))} ${coord(y(s.ele as number))}`)
      .join(' ');
    parts.push(`<path class="profile-line" d="${d}"/>`);
  }
  parts.push('</g>');

  // The property's elevation across ±1000 m, and the property's place (offset 0).
  if (ele !== null) {
    const ry = coord(y(ele));
    parts.push(
      `<g class="reference"><line class="reference-line" x1="${coord(x(-REFERENCE_HALF_SPAN_M))}" x2="${coord(x(REFERENCE_HALF_SPAN_M))}" y1="${ry}" y2="${ry}" stroke="${COLOURS.reference}" stroke-width="1.5" stroke-dasharray="6 4"/>`,
      `<circle class="property" cx="${coord(x(0))}" cy="${ry}" r="4" fill="${COLOURS.reference}"/>`,
      `<text x="${coord(x(0) + 8)}" y="${coord(y(ele) - 6)}" fill="${COLOURS.reference}">${escapeXml(ELEVATION_TEXT.reference(ele))}</text></g>`,
    );
  }
  if (known.length === 0)
    parts.push(
      `<text class="no-data" x="${coord((area.left + area.right) / 2)}" y="${area.top + 14}" text-anchor="middle" fill="${COLOURS.gap}">${escapeXml(ELEVATION_TEXT.noData)}</text>`,
    );
  parts.push('</svg>');
  return parts.join('');
}
