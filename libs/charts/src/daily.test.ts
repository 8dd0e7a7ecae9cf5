import { dailyCountsSvg } from './daily';

describe('dailyCountsSvg', () => {
  const days = [
    { day: '2026-03-01', count: 120 },
    { day: '2026-03-02', count: 0 },
    { day: '2026-03-03', count: 1_500 },
  ];

  it('draws a bar per day with its date and count in its title', () => {
    const svg = dailyCountsSvg(days, { title: 'Geocodes', unit: 'geocodes' });
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(3);
    expect(svg).toContain('data-day="2026-03-03" data-value="1500"');
    expect(svg).toContain('<title>2026-03-03: 1 500 geocodes</title>');
    expect(svg).toContain('aria-label="Geocodes"');
  });

  it('is deterministic and escapes its texts', () => {
    const options = { title: 'Keys <&> "quotes"', unit: 'calls' };
    expect(dailyCountsSvg(days, options)).toBe(dailyCountsSvg(days, options));
    expect(dailyCountsSvg(days, options)).toContain('Keys &lt;&amp;&gt; &quot;quotes&quot;');
  });

  it('draws an empty month as flat bars, not gaps', () => {
    const svg = dailyCountsSvg(
      days.map((d) => ({ ...d, count: 0 })),
      { title: 'Nothing', unit: 'calls' },
    );
    expect(svg.match(/height="0"/g)).toHaveLength(3);
  });
});
