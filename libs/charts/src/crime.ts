import type { CrimePoint } from '@portal/contracts';
import { axisUnit } from './format';
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

export interface CrimeChartOptions {
  title: string;
  /** What the values are, e.g. 'incidents per 100 000 residents per year' (the y axis's label). */
  unit: string;
  /** Bars (default) or a line with points. */
  kind?: 'bars' | 'line';
  /** Which number of a point is drawn: the rate (default) or the reported count. */
  value?: 'rate' | 'count';
  width?: number;
  height?: number;
}

export const CRIME_TEXT = {
  noData: 'No figures for this station.',
  missing: 'n/a',
} as const;

/** SAPS's financial year ending in `yearTo`: 2023 → '2022/23'. */
export function financialYearLabel(yearTo: number): string {
  return `${yearTo - 1}/${String(yearTo).slice(-2).padStart(2, '0')}`;
}

const FRAME = { top: 28, right: 14, bottom: 46, left: 58 };

/**
 * A crime series per financial year as an SVG string: a bar (or a point of a line) per year, oldest
 * first; a year without a value is a gap marked 'n/a', never a zero. Axes, ticks and the unit as the y
 * label. Pure and deterministic (Node and browser alike).
 */
export function crimeSeriesSvg(series: readonly CrimePoint[], options: CrimeChartOptions): string {
  const frame: ChartFrame = { width: options.width ?? 560, height: options.height ?? 220, margin: FRAME };
  const area = plotArea(frame);
  const pick = options.value ?? 'rate';
  const points = [...series]
    .sort((a, b) => a.yearTo - b.yearTo)
    .map((p) => {
      const v = p[pick];
      return { yearTo: p.yearTo, value: v === null || !Number.isFinite(v) ? null : v };
    });
  const known = points.filter((p) => p.value !== null).map((p) => p.value as number);
  const parts: string[] = [
    openSvg(frame, options.title, `chart crime-chart crime-${options.kind ?? 'bars'}`),
  ];

  if (known.length === 0) {
    parts.push(
      `<text class="no-data" x="${coord((area.left + area.right) / 2)}" y="${coord((area.top + area.bottom) / 2)}" text-anchor="middle" fill="${COLOURS.gap}">${escapeXml(CRIME_TEXT.noData)}</text>`,
      '</svg>',
    );
    return parts.join('');
  }

  const { domain, ticks } = niceDomain(0, Math.max(...known), 4);
  const y = linearScale(domain, [area.bottom, area.top]);
  const decimals = decimalsFor(ticks);
  const band = (area.right - area.left) / points.length;
  const centre = (index: number) => area.left + band * (index + 0.5);
  const valueDecimals = pick === 'rate' ? 1 : 0;

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
    `<text class="axis-label" transform="translate(14 ${coord((area.top + area.bottom) / 2)}) rotate(-90)" text-anchor="middle" font-size="9" fill="${COLOURS.text}">${escapeXml(axisUnit(options.unit))}</text>`,
    '</g>',
  );

  // X axis: the years, thinned out when they would overlap (every label stays in the bars' titles).
  const every = Math.max(
    1,
    Math.ceil(points.length / Math.max(1, Math.floor((area.right - area.left) / 48))),
  );
  parts.push('<g class="x-axis">');
  parts.push(
    `<line x1="${area.left}" x2="${area.right}" y1="${area.bottom}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
  );
  points.forEach((p, i) => {
    if (i % every !== 0 && i !== points.length - 1) return;
    parts.push(
      `<text x="${coord(centre(i))}" y="${area.bottom + 14}" text-anchor="middle" fill="${COLOURS.text}">${escapeXml(financialYearLabel(p.yearTo))}</text>`,
    );
  });
  parts.push(
    `<text class="axis-label" x="${coord((area.left + area.right) / 2)}" y="${area.bottom + 34}" text-anchor="middle" fill="${COLOURS.text}">Financial year</text>`,
    '</g>',
  );

  const label = (p: { yearTo: number; value: number | null }) =>
    escapeXml(
      `${financialYearLabel(p.yearTo)}: ${p.value === null ? CRIME_TEXT.missing : `${formatNumber(p.value, valueDecimals)} ${options.unit}`}`,
    );
  const gap = (i: number, p: { yearTo: number; value: number | null }) =>
    `<text class="gap" data-year="${p.yearTo}" x="${coord(centre(i))}" y="${area.bottom - 4}" text-anchor="middle" font-size="9" fill="${COLOURS.gap}"><title>${label(p)}</title>${CRIME_TEXT.missing}</text>`;

  if ((options.kind ?? 'bars') === 'bars') {
    const barWidth = Math.max(2, band * 0.7);
    parts.push(`<g class="bars" fill="${COLOURS.bar}">`);
    points.forEach((p, i) => {
      if (p.value === null) {
        parts.push(gap(i, p));
        return;
      }
      const top = y(p.value);
      parts.push(
        `<rect class="bar" data-year="${p.yearTo}" data-value="${p.value}" x="${coord(centre(i) - barWidth / 2)}" y="${coord(top)}" width="${coord(barWidth)}" height="${coord(area.bottom - top)}"><title>${label(p)}</title></rect>`,
      );
    });
    parts.push('</g>');
  } else {
    parts.push(`<g class="line" fill="none" stroke="${COLOURS.line}" stroke-width="2">`);
    // A null year breaks the line.
    let d = '';
    let pen = false;
    points.forEach((p, i) => {
      if (p.value === null) {
        pen = false;
        return;
      }
      d += `${d ? ' ' : ''}${pen ? 'L' : 'M'}${coord(centre(i))} ${coord(y(p.value))}`;
      pen = true;
    });
    if (d) parts.push(`<path class="series-line" d="${d}"/>`);
    points.forEach((p, i) => {
      if (p.value === null) parts.push(gap(i, p));
      else
        parts.push(
          `<circle class="point" data-year="${p.yearTo}" data-value="${p.value}" cx="${coord(centre(i))}" cy="${coord(y(p.value))}" r="3" fill="${COLOURS.line}" stroke="none"><title>${label(p)}</title></circle>`,
        );
    });
    parts.push('</g>');
  }
  parts.push('</svg>');
  return parts.join('');
}
