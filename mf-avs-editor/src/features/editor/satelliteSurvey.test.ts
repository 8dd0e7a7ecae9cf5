import type { Survey } from '@portal/contracts';
import { BUILTIN_SATELLITE_LAYER } from '@portal/web-kit';
import { satelliteLayerOf, shownSurvey } from './satelliteSurvey';

const survey = (id: number, capturedOn: string): Survey => ({
  id,
  capturedOn,
  kind: 'ortho',
  provider: 'Portal imagery',
});

describe("the editor's satellite survey (issue 21)", () => {
  it('asks the satellite tiles for the chosen survey, keeping the layer id', () => {
    expect(satelliteLayerOf(null)).toBe(BUILTIN_SATELLITE_LAYER);
    const older = satelliteLayerOf(7);
    expect(older.url).toBe('/api/v1.0/tiles/satellite/{z}/{x}/{y}.jpg?survey=7');
    expect(older.id).toBe(BUILTIN_SATELLITE_LAYER.id);
  });

  it('shows the chosen survey while it covers the marker, else the newest there', () => {
    const surveys = [survey(9, '2025-02-01'), survey(7, '2019-06-30')];
    expect(shownSurvey(surveys, 7)?.id).toBe(7);
    expect(shownSurvey(surveys, null)?.id).toBe(9);
    expect(shownSurvey(surveys, 3)?.id).toBe(9);
    expect(shownSurvey([], 7)).toBeNull();
  });
});
