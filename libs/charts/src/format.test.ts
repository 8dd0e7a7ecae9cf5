import { axisUnit, formatDistance } from './format';

describe('the report formats', () => {
  it("shortens a long unit for the charts' axis, and keeps a short one", () => {
    expect(
      axisUnit(
        'incidents per 100 000 residents per year (residents of the police station area, 2025 station list)',
      ),
    ).toBe('per 100 000 residents');
    expect(axisUnit('incidents per year')).toBe('incidents per year');
  });

  it('gives distances in m below 1 km, else in km', () => {
    expect(formatDistance(646)).toBe('646 m');
    expect(formatDistance(5000)).toBe('5.0 km');
  });
});
