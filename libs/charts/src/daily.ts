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

/** A day's count: 'YYYY-MM-DD' and how many. */
export interface DailyCount {
  day: string;
  count: number;
}

export interface DailyChartOptions {
  title: string;
  /** What is counted, e.g. 'geocodes' (the y axis's label and the bars' titles). */
  unit: string;
  width?: number;
  height?: number;
}

export const DAILY_TEXT = {
  axis: 'Day of the month',
} as const;

const FRAME = { top: 28, right: 12, bottom: 40, left: 58 };

/**
 * Counts per day as an SVG string (the services admin's usage charts, one per metric): a bar per day in
 * the order given, every day labelled by its day of the month (thinned out when they would overlap; each
 * bar's title holds the date and the count). A day without use is a bar of height 0, not a gap. Pure and
 * deterministic, like the report's charts.
 */
export function dailyCountsSvg(days: readonly DailyCount[], options: DailyChartOptions): string {
  const frame: ChartFrame = { width: options.width ?? 560, height: options.height ?? 180, margin: FRAME };
  const area = plotArea(frame);
  const parts: string[] = [openSvg(frame, options.title, 'chart daily-chart')];
  const { domain, ticks } = niceDomain(0, Math.max(1, ...days.map((d) => d.count)), 4);
  const y = linearScale(domain, [area.bottom, area.top]);
  const decimals = decimalsFor(ticks);
  const band = (area.right - area.left) / Math.max(1, days.length);
  const centre = (index: number) => area.left + band * (index + 0.5);

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
    `<text class="axis-label" transform="translate(14 ${coord((area.top + area.bottom) / 2)}) rotate(-90)" text-anchor="middle" font-size="9" fill="${COLOURS.text}">${escapeXml(options.unit)}</text>`,
    '</g>',
  );

  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor((area.right - area.left) / 18))));
  parts.push('<g class="x-axis">');
  parts.push(
    `<line x1="${area.left}" x2="${area.right}" y1="${area.bottom}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
  );
  days.forEach((d, i) => {
    if (i % every !== 0) return;
    parts.push(
      `<text x="${coord(centre(i))}" y="${area.bottom + 13}" text-anchor="middle" font-size="9" fill="${COLOURS.text}">${escapeXml(String(Number(d.day.slice(8, 10)) || d.day))}</text>`,
    );
  });
  parts.push(
    `<text class="axis-label" x="${coord((area.left + area.right) / 2)}" y="${area.bottom + 30}" text-anchor="middle" fill="${COLOURS.text}">${DAILY_TEXT.axis}</text>`,
    '</g>',
  );

  const barWidth = Math.max(1, band * 0.7);
  parts.push(`<g class="bars" fill="${COLOURS.bar}">`);
  days.forEach((d, i) => {
    const top = y(Math.max(0, d.count));
    parts.push(
      `<rect class="bar" data-day="${escapeXml(d.day)}" data-value="${d.count}" x="${coord(centre(i) - barWidth / 2)}" y="${coord(top)}" width="${coord(barWidth)}" height="${coord(area.bottom - top)}"><title>${escapeXml(`${d.day}: ${formatNumber(d.count)} ${options.unit}`)}</title></rect>`,
    );
  });
  parts.push('</g></svg>');
  return parts.join('');
}
