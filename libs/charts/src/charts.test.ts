/**
 * @jest-environment jsdom
 */
// jsdom only for its XML parser, to check the strings are well-formed SVG; the charts themselves use no DOM.
import type { CrimePoint, ProfileSample } from '@portal/contracts';
import {
  crimeSeriesSvg,
  elevationProfileSvg,
  escapeXml,
  financialYearLabel,
  formatNumber,
  niceDomain,
} from '.';

function parse(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed: ${error.textContent}`);
  expect(doc.documentElement.tagName).toBe('svg');
  expect(doc.documentElement.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
  return doc;
}
const num = (el: Element | null | undefined, name: string) => Number(el?.getAttribute(name));

const profile = (eles: (number | null)[]): ProfileSample[] =>
  eles.map((ele, i) => ({ offset: -1000 + (2000 / (eles.length - 1)) * i, ele }));

describe('elevationProfileSvg', () => {
  const svg = elevationProfileSvg(profile([100, 110, 120, 130, 140]), 120, {
    title: 'North–south profile',
    negativeLabel: 'S',
    positiveLabel: 'N',
  });

  it('is well-formed SVG named by its title', () => {
    const doc = parse(svg);
    expect(doc.documentElement.getAttribute('aria-label')).toBe('North–south profile');
    expect(doc.querySelector('title')?.textContent).toBe('North–south profile');
    expect([...doc.querySelectorAll('.end-label')].map((e) => e.textContent)).toEqual(['S', 'N']);
  });

  it('draws the reference line at ele from −1000 m to +1000 m, the ground through the samples', () => {
    const doc = parse(svg);
    const ref = doc.querySelector('.reference-line')!;
    const path = doc.querySelector('.profile-line')!.getAttribute('d')!;
    const pts = [...path.matchAll(/[ML]([\d.-]+) ([\d.-]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(pts).toHaveLength(5);
    // The reference spans exactly the first to the last sample (−1000 … +1000) at the middle sample's height.
    expect(num(ref, 'x1')).toBe(pts[0][0]);
    expect(num(ref, 'x2')).toBe(pts[4][0]);
    expect(num(ref, 'y1')).toBe(pts[2][1]);
    expect(num(ref, 'y2')).toBe(pts[2][1]);
    // Higher ground is higher on the page (smaller y), evenly spaced along x.
    for (let i = 1; i < 5; i += 1) {
      expect(pts[i][1]).toBeLessThan(pts[i - 1][1]);
      expect(pts[i][0] - pts[i - 1][0]).toBeCloseTo(pts[1][0] - pts[0][0], 1);
    }
    expect(doc.querySelector('.property')?.getAttribute('cx')).toBe(String(pts[2][0]));
  });

  it('spans ±1000 m even when the samples are shorter', () => {
    const doc = parse(
      elevationProfileSvg(
        [
          { offset: -500, ele: 10 },
          { offset: 500, ele: 20 },
        ],
        15,
        { title: 't', width: 2100 + 76, height: 200 },
      ),
    );
    // Plot area 58 … 2158 (2100 px for 2000 m): −1000 m at 58, −500 m at 583.
    expect(num(doc.querySelector('.reference-line'), 'x1')).toBe(58);
    expect(num(doc.querySelector('.reference-line'), 'x2')).toBe(2158);
    expect(doc.querySelector('.profile-line')!.getAttribute('d')).toMatch(/^M583 /);
  });

  it('leaves gaps where the model has no value, and a lone sample is a dot', () => {
    const doc = parse(
      elevationProfileSvg(profile([100, 101, null, 103, null, 104, 105]), 102, { title: 't' }),
    );
    expect(doc.querySelectorAll('.profile-line')).toHaveLength(2);
    expect(doc.querySelectorAll('.profile-point')).toHaveLength(1);
  });

  it('says so when there is no data at all, and draws no reference without ele', () => {
    const none = parse(elevationProfileSvg(profile([null, null]), null, { title: 't' }));
    expect(none.querySelector('.no-data')?.textContent).toBe('No elevation data for this profile.');
    const noEle = parse(elevationProfileSvg(profile([1, 2, 3]), null, { title: 't' }));
    expect(noEle.querySelector('.reference-line')).toBeNull();
  });

  it('escapes text and is deterministic', () => {
    const title = 'Profile <A&B> "quoted" \'single\'';
    const a = elevationProfileSvg(profile([1, 2]), 1, { title, negativeLabel: '<S>' });
    expect(a).toContain('Profile &lt;A&amp;B&gt; &quot;quoted&quot; &#39;single&#39;');
    expect(a).not.toContain('<A&B>');
    expect(parse(a).documentElement.getAttribute('aria-label')).toBe(title);
    expect(elevationProfileSvg(profile([1, 2]), 1, { title, negativeLabel: '<S>' })).toBe(a);
  });
});

describe('crimeSeriesSvg', () => {
  const series: CrimePoint[] = [
    { yearTo: 2022, rate: 200, count: 20 },
    { yearTo: 2020, rate: 100, count: 10 },
    { yearTo: 2021, rate: null, count: 15 },
    { yearTo: 2023, rate: 50.25, count: 5 },
  ];
  const unit = 'incidents per 100 000 residents per year';

  it('draws a bar per year with a value, oldest first, heights in proportion', () => {
    const doc = parse(crimeSeriesSvg(series, { title: 'Burglary at residential premises', unit }));
    const bars = [...doc.querySelectorAll('.bar')];
    expect(bars.map((b) => b.getAttribute('data-year'))).toEqual(['2020', '2022', '2023']);
    const heights = bars.map((b) => num(b, 'height'));
    expect(heights[1] / heights[0]).toBeCloseTo(2, 1);
    expect(heights[2] / heights[0]).toBeCloseTo(0.5025, 1);
    // Bars stand on the same baseline, left to right by year.
    const bottoms = bars.map((b) => num(b, 'y') + num(b, 'height'));
    expect(new Set(bottoms.map((v) => Math.round(v))).size).toBe(1);
    const xs = bars.map((b) => num(b, 'x'));
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(bars[2].querySelector('title')?.textContent).toBe(`2022/23: 50.3 ${unit}`);
    // The rotated axis label keeps to the plot's height: the long unit is shortened there (the bars' titles
    // and the report's table give it in full).
    expect(doc.querySelector('.axis-label')?.textContent).toBe('per 100 000 residents');
  });

  it('shows a missing year as a gap marked n/a, not a zero', () => {
    const doc = parse(crimeSeriesSvg(series, { title: 't', unit }));
    const gap = doc.querySelector('.gap')!;
    expect(gap.getAttribute('data-year')).toBe('2021');
    expect(gap.textContent).toContain('n/a');
    expect(doc.querySelector('.bar[data-year="2021"]')).toBeNull();
  });

  it('as a line, breaks at the missing year', () => {
    const doc = parse(crimeSeriesSvg(series, { title: 't', unit, kind: 'line' }));
    const d = doc.querySelector('.series-line')!.getAttribute('d')!;
    expect(d.match(/M/g)).toHaveLength(2);
    expect(doc.querySelectorAll('.point')).toHaveLength(3);
  });

  it('can draw the counts instead', () => {
    const doc = parse(crimeSeriesSvg(series, { title: 't', unit: 'incidents', value: 'count' }));
    expect(doc.querySelectorAll('.bar')).toHaveLength(4);
  });

  it('says so when there are no figures, and escapes the unit and title', () => {
    const doc = parse(crimeSeriesSvg([], { title: 'A & B', unit: '<u>' }));
    expect(doc.querySelector('.no-data')?.textContent).toBe('No figures for this station.');
    const text = crimeSeriesSvg(series, { title: 'A & B', unit: '<u>' });
    expect(text).toContain('A &amp; B');
    expect(text).toContain('&lt;u&gt;');
    parse(text);
  });
});

describe('helpers', () => {
  it('format numbers without a locale', () => {
    expect(formatNumber(1234567.891, 1)).toBe('1 234 567.9');
    expect(formatNumber(-1500)).toBe('−1 500');
    expect(formatNumber(-0.01, 1)).toBe('0.0');
  });
  it('escape the five XML characters', () => {
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&#39;');
  });
  it('escape nothing as the empty text, and any value as its text', () => {
    expect(escapeXml(null)).toBe('');
    expect(escapeXml(undefined)).toBe('');
    expect(escapeXml(12.5)).toBe('12.5');
  });
  it('pick round ticks that contain the data', () => {
    expect(niceDomain(0, 93, 4)).toEqual({ domain: [0, 100], ticks: [0, 20, 40, 60, 80, 100] });
    expect(niceDomain(101.3, 104.9, 5).ticks[0]).toBeLessThanOrEqual(101.3);
    expect(niceDomain(5, 5).domain[0]).toBeLessThan(5);
  });
  it('label financial years as SAPS does', () => {
    expect(financialYearLabel(2009)).toBe('2008/09');
    expect(financialYearLabel(2023)).toBe('2022/23');
  });
});
