/**
 * @jest-environment jsdom
 */
// jsdom only for its XML parser, to check the strings are well-formed SVG; the charts use no DOM.
import { groupedBarsSvg, lineSeriesSvg, shortDayLabel, stackedBarsSvg } from './series';

/** The SVG parsed as XML (a malformed one throws), for reading marks back. */
function parse(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
}

const DAYS = ['2026-01-05', '2026-01-06', '2026-01-07'];

describe('stackedBarsSvg', () => {
  const series = [
    { name: 'SAVI', values: [2, 0, 5] },
    { name: 'IRIS <&>', values: [1, null, 3] },
  ];

  it('stacks each category’s segments, the first series at the bottom, and leaves out zeros', () => {
    const doc = parse(stackedBarsSvg(DAYS, series, { title: 'Created', unit: 'requests' }));
    const bars = [...doc.querySelectorAll('rect.bar')];
    expect(
      bars.map((b) => [
        b.getAttribute('data-category'),
        b.getAttribute('data-series'),
        b.getAttribute('data-value'),
      ]),
    ).toEqual([
      ['2026-01-05', 'SAVI', '2'],
      ['2026-01-05', 'IRIS <&>', '1'],
      ['2026-01-07', 'SAVI', '5'],
      ['2026-01-07', 'IRIS <&>', '3'],
    ]);
    // The IRIS segment sits on top of the SAVI one: its bottom is SAVI's top.
    const [savi, iris] = bars;
    expect(Number(iris.getAttribute('y')) + Number(iris.getAttribute('height'))).toBeCloseTo(
      Number(savi.getAttribute('y')),
      1,
    );
    expect(doc.documentElement.getAttribute('role')).toBe('img');
    expect(doc.querySelector('title')?.textContent).toBe('Created');
    expect(bars[1].querySelector('title')?.textContent).toBe('IRIS <&>, 2026-01-05: 1 requests');
    expect(doc.querySelector('.legend')?.textContent).toBe('SAVIIRIS <&>');
  });

  it('is deterministic', () => {
    const options = { title: 'Created', unit: 'requests' };
    expect(stackedBarsSvg(DAYS, series, options)).toBe(stackedBarsSvg(DAYS, series, options));
  });
});

describe('lineSeriesSvg', () => {
  it('draws a line per series with a point per value, broken at a null', () => {
    const svg = lineSeriesSvg(
      DAYS,
      [
        { name: 'New', values: [4, null, 6] },
        { name: 'Dispatch', values: [1, 2, 3] },
      ],
      {
        title: 'Backlog',
        unit: 'requests',
      },
    );
    const doc = parse(svg);
    const paths = [...doc.querySelectorAll('path')].map((p) => p.getAttribute('d') ?? '');
    expect(paths[0].match(/M/g)).toHaveLength(2);
    expect(paths[1].match(/M/g)).toHaveLength(1);
    expect(doc.querySelectorAll('circle.point')).toHaveLength(5);
    expect(doc.querySelector('circle.point title')?.textContent).toBe('New, 2026-01-05: 4 requests');
  });
});

describe('groupedBarsSvg', () => {
  it('draws a bar per series in each row, marks the target and writes n/a for a missing value', () => {
    const doc = parse(
      groupedBarsSvg(
        [
          { label: 'New', values: [2, 3.5], target: 4 },
          { label: 'QC check', values: [null, 8] },
        ],
        { title: 'Time in each status', unit: 'hours', series: ['median', 'p90'] },
      ),
    );
    expect([...doc.querySelectorAll('rect.bar')].map((b) => b.getAttribute('data-value'))).toEqual([
      '2',
      '3.5',
      '8',
    ]);
    expect(doc.querySelectorAll('line.target')).toHaveLength(1);
    expect(doc.querySelector('line.target title')?.textContent).toBe('New target: 4.0 hours');
    expect(doc.querySelector('g.row[data-label="QC check"]')?.textContent).toContain('n/a');
    // The value scale is shared: the p90 of QC check (8) is the longest bar.
    const widths = [...doc.querySelectorAll('rect.bar')].map((b) => Number(b.getAttribute('width')));
    expect(Math.max(...widths)).toBe(widths[2]);
  });
});

describe('shortDayLabel', () => {
  it('writes a day short and leaves other texts alone', () => {
    expect(shortDayLabel('2026-01-05')).toBe('5 Jan');
    expect(shortDayLabel('Week 2')).toBe('Week 2');
  });
});
