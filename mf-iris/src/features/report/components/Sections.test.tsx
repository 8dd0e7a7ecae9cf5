import { render, screen, within } from '@testing-library/react';
import type { WaterBodyData } from '@portal/contracts';
import { WaterSection } from './Sections';

const notLoaded: WaterBodyData = {
  range: 5000,
  waterBodiesInRange: [],
  riversInRange: [],
  coastInRange: [],
  overallClass: null,
  unavailable: 'No water-body data is loaded.',
  source: { name: 'water bodies: not loaded', date: '' },
};

describe('the water section (spec 03 §3; no made-up answer)', () => {
  it('says plainly that no water layer is loaded, instead of "none in range"', () => {
    render(<WaterSection data={notLoaded} />);
    const section = screen.getByRole('region', { name: 'Water bodies' });
    expect(within(section).getByTestId('unavailable').textContent).toBe('No water-body data is loaded.');
    expect(within(section).queryByText(/None in range/)).toBeNull();
    // A source without a date shows no empty brackets.
    expect(within(section).getByTestId('source').textContent).toBe('Source: water bodies: not loaded');
  });

  it('lists the water in range when the layers are loaded (reports stored before `unavailable` too)', () => {
    const { unavailable: _left, ...older } = notLoaded;
    render(
      <WaterSection
        data={{
          ...older,
          riversInRange: [
            {
              name: 'Eerste River',
              kind: 'river',
              distance: 120,
              altitude: 113,
              altitudeClass: 'dangerous',
              distanceClass: 'dangerous',
            },
          ],
          overallClass: 'dangerous',
          source: { name: 'DWS hydrography', date: '2020' },
        }}
      />,
    );
    const section = screen.getByRole('region', { name: 'Water bodies' });
    expect(within(section).queryByTestId('unavailable')).toBeNull();
    expect(within(section).getByText('Eerste River')).toBeTruthy();
    expect(within(section).getByTestId('source').textContent).toBe('Source: DWS hydrography (2020)');
  });
});
