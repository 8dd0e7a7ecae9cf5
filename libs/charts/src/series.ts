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

/**
 * Charts of several series (issue 24, the operations dashboard): stacked bars and lines over categories (days
 * or weeks), and grouped horizontal bars with an optional target mark per row. SVG strings like the other
 * charts: pure, deterministic, every text escaped, the root `role="img"` named by its title, each mark a
 * `<title>` with its series, category and value, and a legend in text. The screen shows the same numbers in
 * a data table beside each chart (the chart's text alternative).
 */

/** One series: a name and a value per category (null: no value, drawn as a gap). */
export interface ChartSeries {
  name: string;
  values: readonly (number | null)[];
}

export interface SeriesChartOptions {
  title: string;
  /** What the values are, e.g. 'requests' or 'hours' (the value axis's label and the marks' titles). */
  unit: string;
  width?: number;
  height?: number;
}

/**
 * Colours of the series in order, told apart by people with the common colour-vision deficiencies (the
 * Okabe–Ito palette, darkened to 3:1 against white for the non-text contrast of WCAG 1.4.11).
 */
export const SERIES_COLOURS = [
  '#0b63a5',
  '#c25e00',
  '#00755a',
  '#a43f84',
  '#5f6b76',
  '#8a6d00',
  '#1b1b1b',
  '#b3261e',
] as const;
const colourOf = (i: number) => SERIES_COLOURS[i % SERIES_COLOURS.length];

const FRAME = { top: 28, right: 12, bottom: 40, left: 58 };
const LEGEND_ROW = 16;

/** The legend under the plot: a swatch and the series' name, wrapped over rows. Answers the SVG and its height. */
function legend(
  names: readonly string[],
  left: number,
  top: number,
  width: number,
): { svg: string; height: number } {
  const parts: string[] = ['<g class="legend">'];
  let x = left;
  let y = top;
  for (const [i, name] of names.entries()) {
    const label = escapeXml(name);
    const itemWidth = 18 + Math.min(200, name.length * 6.2) + 14;
    if (x + itemWidth > left + width && x > left) {
      x = left;
      y += LEGEND_ROW;
    }
    parts.push(
      `<rect x="${coord(x)}" y="${coord(y - 9)}" width="10" height="10" fill="${colourOf(i)}"/>`,
      `<text x="${coord(x + 14)}" y="${coord(y)}" fill="${COLOURS.text}">${label}</text>`,
    );
    x += itemWidth;
  }
  parts.push('</g>');
  return { svg: parts.join(''), height: y - top + LEGEND_ROW };
}

/** How many legend rows the names take (so the frame is tall enough before anything is drawn). */
function legendRows(names: readonly string[], width: number): number {
  let rows = 1;
  let x = 0;
  for (const name of names) {
    const itemWidth = 18 + Math.min(200, name.length * 6.2) + 14;
    if (x + itemWidth > width && x > 0) {
      rows += 1;
      x = 0;
    }
    x += itemWidth;
  }
  return rows;
}

/** The value axis (left) with its ticks and label. */
function valueAxis(
  ticks: readonly number[],
  y: (value: number) => number,
  area: ReturnType<typeof plotArea>,
  unit: string,
): string {
  const decimals = decimalsFor(ticks);
  const parts = ['<g class="y-axis">'];
  for (const tick of ticks) {
    const ty = coord(y(tick));
    parts.push(
      `<line x1="${area.left}" x2="${area.right}" y1="${ty}" y2="${ty}" stroke="${COLOURS.grid}"/>`,
      `<text x="${area.left - 6}" y="${ty}" dy="3.5" text-anchor="end" fill="${COLOURS.text}">${escapeXml(formatNumber(tick, decimals))}</text>`,
    );
  }
  parts.push(
    `<line x1="${area.left}" x2="${area.left}" y1="${area.top}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
    `<text class="axis-label" transform="translate(14 ${coord((area.top + area.bottom) / 2)}) rotate(-90)" text-anchor="middle" font-size="9" fill="${COLOURS.text}">${escapeXml(unit)}</text>`,
    '</g>',
  );
  return parts.join('');
}

/** The category axis (bottom): labels thinned out when they would overlap. */
function categoryAxis(
  categories: readonly string[],
  centre: (i: number) => number,
  area: ReturnType<typeof plotArea>,
  label: (category: string) => string,
): string {
  const widest = Math.max(1, ...categories.map((c) => label(c).length)) * 5.5 + 6;
  const every = Math.max(
    1,
    Math.ceil(categories.length / Math.max(1, Math.floor((area.right - area.left) / widest))),
  );
  const parts = [
    '<g class="x-axis">',
    `<line x1="${area.left}" x2="${area.right}" y1="${area.bottom}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
  ];
  categories.forEach((category, i) => {
    if (i % every !== 0) return;
    parts.push(
      `<text x="${coord(centre(i))}" y="${area.bottom + 13}" text-anchor="middle" font-size="9" fill="${COLOURS.text}">${escapeXml(label(category))}</text>`,
    );
  });
  parts.push('</g>');
  return parts.join('');
}

/** '2026-01-05' → '5 Jan'; other texts as they are. */
export function shortDayLabel(category: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})$/.exec(category);
  if (!match) return category;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${Number(match[2])} ${months[Number(match[1]) - 1] ?? ''}`.trim();
}

function frameFor(options: SeriesChartOptions, names: readonly string[]): ChartFrame {
  const width = options.width ?? 640;
  const rows = legendRows(names, width - FRAME.left - FRAME.right);
  return {
    width,
    height: (options.height ?? 220) + rows * LEGEND_ROW,
    margin: { ...FRAME, bottom: FRAME.bottom + rows * LEGEND_ROW - 14 },
  };
}

/**
 * Stacked bars: a bar per category, each series a segment in the order given (the first at the bottom).
 * A null counts as 0. Each segment's title: 'series, category: value unit'.
 */
export function stackedBarsSvg(
  categories: readonly string[],
  series: readonly ChartSeries[],
  options: SeriesChartOptions,
): string {
  const frame = frameFor(
    options,
    series.map((s) => s.name),
  );
  const area = plotArea(frame);
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + Math.max(0, s.values[i] ?? 0), 0));
  const { domain, ticks } = niceDomain(0, Math.max(1, ...totals), 4);
  const y = linearScale(domain, [area.bottom, area.top]);
  const band = (area.right - area.left) / Math.max(1, categories.length);
  const centre = (i: number) => area.left + band * (i + 0.5);
  const barWidth = Math.max(1, band * 0.7);
  const parts = [
    openSvg(frame, options.title, 'chart stacked-bars-chart'),
    valueAxis(ticks, y, area, options.unit),
  ];
  parts.push(categoryAxis(categories, centre, area, shortDayLabel));
  parts.push('<g class="bars">');
  categories.forEach((category, i) => {
    let base = 0;
    series.forEach((s, k) => {
      const value = Math.max(0, s.values[i] ?? 0);
      const top = y(base + value);
      const bottom = y(base);
      base += value;
      if (value === 0) return;
      parts.push(
        `<rect class="bar" data-series="${escapeXml(s.name)}" data-category="${escapeXml(category)}" data-value="${value}" fill="${colourOf(k)}" x="${coord(centre(i) - barWidth / 2)}" y="${coord(top)}" width="${coord(barWidth)}" height="${coord(bottom - top)}"><title>${escapeXml(`${s.name}, ${category}: ${formatNumber(value)} ${options.unit}`)}</title></rect>`,
      );
    });
  });
  parts.push('</g>');
  parts.push(
    legend(
      series.map((s) => s.name),
      area.left,
      area.bottom + 30,
      area.right - area.left,
    ).svg,
  );
  parts.push('</svg>');
  return parts.join('');
}

/**
 * Lines: a line per series over the categories, a point on each value (its title: 'series, category: value
 * unit'); a null breaks the line.
 */
export function lineSeriesSvg(
  categories: readonly string[],
  series: readonly ChartSeries[],
  options: SeriesChartOptions,
): string {
  const frame = frameFor(
    options,
    series.map((s) => s.name),
  );
  const area = plotArea(frame);
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const { domain, ticks } = niceDomain(Math.min(0, ...values), Math.max(1, ...values), 4);
  const y = linearScale(domain, [area.bottom, area.top]);
  const band = (area.right - area.left) / Math.max(1, categories.length);
  const centre = (i: number) => area.left + band * (i + 0.5);
  const parts = [openSvg(frame, options.title, 'chart line-chart'), valueAxis(ticks, y, area, options.unit)];
  parts.push(categoryAxis(categories, centre, area, shortDayLabel));
  series.forEach((s, k) => {
    const colour = colourOf(k);
    parts.push(`<g class="series" data-series="${escapeXml(s.name)}">`);
    let path = '';
    s.values.forEach((value, i) => {
      if (value === null) return;
      const command = i > 0 && s.values[i - 1] !== null ? 'L' : 'M';
      path += `${command}${coord(centre(i))} ${coord(y(value))}`;
    });
    if (path) parts.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    s.values.forEach((value, i) => {
      if (value === null) return;
      parts.push(
        `<circle class="point" data-category="${escapeXml(categories[i])}" data-value="${value}" cx="${coord(centre(i))}" cy="${coord(y(value))}" r="3" fill="${colour}"><title>${escapeXml(`${s.name}, ${categories[i]}: ${formatNumber(value)} ${options.unit}`)}</title></circle>`,
      );
    });
    parts.push('</g>');
  });
  parts.push(
    legend(
      series.map((s) => s.name),
      area.left,
      area.bottom + 30,
      area.right - area.left,
    ).svg,
  );
  parts.push('</svg>');
  return parts.join('');
}

export interface BarRow {
  label: string;
  /** A value per series (null: none, drawn as 'n/a'). */
  values: readonly (number | null)[];
  /** A target to mark on the row (a dashed line), e.g. a status's ageing target. */
  target?: number | null;
}

export interface BarChartOptions extends SeriesChartOptions {
  /** The names of the values of each row, in order (the legend). */
  series: readonly string[];
  /** Decimals of the values written on the bars. */
  decimals?: number;
}

export const BAR_TEXT = { target: 'target', none: 'n/a' } as const;

/**
 * Grouped horizontal bars: a row per label, a bar per series in it with its value written at its end, and
 * the row's target as a dashed mark (its title says 'label target: value unit').
 */
export function groupedBarsSvg(rows: readonly BarRow[], options: BarChartOptions): string {
  const width = options.width ?? 640;
  const labelWidth = Math.min(180, Math.max(60, ...rows.map((r) => r.label.length * 6.2 + 10)));
  const barHeight = 12;
  const rowHeight = options.series.length * barHeight + 10;
  const legendHeight = legendRows(options.series, width - labelWidth - 40) * LEGEND_ROW;
  const frame: ChartFrame = {
    width,
    height: 28 + rows.length * rowHeight + 30 + legendHeight + 8,
    margin: { top: 28, right: 52, bottom: 30 + legendHeight + 8, left: labelWidth },
  };
  const area = plotArea(frame);
  const values = rows.flatMap((r) => [...r.values, r.target ?? null].filter((v): v is number => v !== null));
  const { domain, ticks } = niceDomain(0, Math.max(1, ...values), 4);
  const x = linearScale(domain, [area.left, area.right]);
  const tickDecimals = decimalsFor(ticks);
  const decimals = options.decimals ?? 1;
  const parts = [openSvg(frame, options.title, 'chart grouped-bars-chart')];
  parts.push('<g class="x-axis">');
  for (const tick of ticks) {
    const tx = coord(x(tick));
    parts.push(
      `<line x1="${tx}" x2="${tx}" y1="${area.top}" y2="${area.bottom}" stroke="${COLOURS.grid}"/>`,
      `<text x="${tx}" y="${area.bottom + 13}" text-anchor="middle" font-size="9" fill="${COLOURS.text}">${escapeXml(formatNumber(tick, tickDecimals))}</text>`,
    );
  }
  parts.push(
    `<line x1="${area.left}" x2="${area.left}" y1="${area.top}" y2="${area.bottom}" stroke="${COLOURS.axis}"/>`,
    `<text class="axis-label" x="${coord((area.left + area.right) / 2)}" y="${area.bottom + 26}" text-anchor="middle" fill="${COLOURS.text}">${escapeXml(options.unit)}</text>`,
    '</g>',
  );
  rows.forEach((row, r) => {
    const top = area.top + r * rowHeight + 5;
    parts.push(
      `<g class="row" data-label="${escapeXml(row.label)}">`,
      `<text x="${area.left - 6}" y="${coord(top + (rowHeight - 10) / 2)}" dy="3.5" text-anchor="end" fill="${COLOURS.text}">${escapeXml(row.label)}</text>`,
    );
    options.series.forEach((name, k) => {
      const value = row.values[k] ?? null;
      const by = top + k * barHeight;
      if (value === null) {
        parts.push(
          `<text x="${area.left + 4}" y="${coord(by + barHeight - 3)}" font-size="9" fill="${COLOURS.gap}">${BAR_TEXT.none}</text>`,
        );
        return;
      }
      const end = x(Math.max(0, value));
      parts.push(
        `<rect class="bar" data-series="${escapeXml(name)}" data-value="${value}" fill="${colourOf(k)}" x="${area.left}" y="${coord(by)}" width="${coord(end - area.left)}" height="${barHeight - 2}"><title>${escapeXml(`${row.label}, ${name}: ${formatNumber(value, decimals)} ${options.unit}`)}</title></rect>`,
        `<text x="${coord(end + 3)}" y="${coord(by + barHeight - 3)}" font-size="9" fill="${COLOURS.text}">${escapeXml(formatNumber(value, decimals))}</text>`,
      );
    });
    if (row.target !== undefined && row.target !== null) {
      const tx = coord(x(row.target));
      parts.push(
        `<line class="target" data-value="${row.target}" x1="${tx}" x2="${tx}" y1="${coord(top - 3)}" y2="${coord(top + rowHeight - 7)}" stroke="${COLOURS.reference}" stroke-width="2" stroke-dasharray="4 2"><title>${escapeXml(`${row.label} ${BAR_TEXT.target}: ${formatNumber(row.target, decimals)} ${options.unit}`)}</title></line>`,
      );
    }
    parts.push('</g>');
  });
  parts.push(legend(options.series, area.left, area.bottom + 44, area.right - area.left).svg);
  parts.push('</svg>');
  return parts.join('');
}
