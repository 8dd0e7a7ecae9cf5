import { coverageOutcome, imageryAvailable, imageryFailureAlert, stepZoom } from './pictureView';
import { IMAGERY_TEXT } from '../../texts';

describe('coverageOutcome (spec 01 §4)', () => {
  it('shows oblique imagery when covered', () => {
    expect(coverageOutcome({ success: true, covered: true, ortho: true })).toEqual({
      on: true,
      mode: 'oblique',
      alert: null,
    });
  });

  it('shows ortho only, with the satellite alert, when not covered but ortho exists', () => {
    expect(coverageOutcome({ success: true, covered: false, ortho: true })).toEqual({
      on: true,
      mode: 'ortho',
      alert:
        'High resolution imagery is not available for this area. Please refer to the coverage area in our FAQ section. We do however have satellite imagery available. Click OK to continue.',
    });
  });

  it('turns off with the not-available alert when neither exists', () => {
    expect(coverageOutcome({ success: true, covered: false, ortho: false })).toEqual({
      on: false,
      alert: 'Oblique Imagery could not be found.',
    });
  });

  it('turns off with the service-down alert when the lookup fails', () => {
    const down = {
      on: false,
      alert:
        'High resolution imagery service is down at the moment. We are unable to handle your request at this time.',
    };
    expect(coverageOutcome({ success: false, covered: true, ortho: true })).toEqual(down);
    expect(coverageOutcome(null)).toEqual(down);
  });
});

describe('imagery availability and failure', () => {
  it('needs coverage or ortho for RVE and Building Size Calculation', () => {
    expect(imageryAvailable({ success: true, covered: false, ortho: true })).toBe(true);
    expect(imageryAvailable({ success: true, covered: false, ortho: false })).toBe(false);
    expect(imageryAvailable({ success: false, covered: true, ortho: true })).toBe(false);
    expect(imageryAvailable(undefined)).toBe(false);
  });

  it('asks to log the request when imagery fails where coverage exists', () => {
    expect(imageryFailureAlert({ success: true, covered: true, ortho: false })).toBe(
      IMAGERY_TEXT.unableToLoad,
    );
    expect(imageryFailureAlert({ success: true, covered: false, ortho: false })).toBe(
      IMAGERY_TEXT.obliqueMissing,
    );
  });
});

describe('stepZoom', () => {
  it('steps by 0.2 within 0.2–4', () => {
    expect(stepZoom(1, 1)).toBe(1.2);
    expect(stepZoom(1, -1)).toBe(0.8);
    expect(stepZoom(0.2, -1)).toBe(0.2);
    expect(stepZoom(4, 1)).toBe(4);
    let zoom = 1;
    for (let i = 0; i < 30; i++) zoom = stepZoom(zoom, 1);
    expect(zoom).toBe(4);
  });
});
