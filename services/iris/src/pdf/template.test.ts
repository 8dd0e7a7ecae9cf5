import type { IrisReportData } from '@portal/contracts';
import { capturedText, irisReportHtml, type IrisPdfInput } from './template';

// The PDF's aerial picture carries its capture date (issue 21): the HTML the worker prints, read as text.

const source = { name: 'Test data', date: '2024' };
const data = {
  coordinates: { lat: -33.9376, lng: 18.8603 },
  computedAt: '2025-01-01T10:00:00.000Z',
  elevation: {
    unavailable: 'No elevation data here.',
    ele: null,
    elevation_ns: [],
    elevation_ew: [],
    source,
  },
  crimeData: { unavailable: 'No crime data here.', source },
  waterBodyData: { unavailable: 'No water data here.', source },
  fireServicesData: { unavailable: 'No fire data here.', closestFire: null, source },
  soilData: { unavailable: 'No soil data here.', s6Value: null, s11Value: null, method: 'none', source },
} as unknown as IrisReportData;

const input = (overrides: Partial<IrisPdfInput>): IrisPdfInput => ({
  gripReference: 'GRIP-1',
  address: '12 Dorp Street',
  data,
  version: 1,
  aerialDataUrl: 'data:image/jpeg;base64,AAAA',
  aerialView: 'o',
  aerialCapturedOn: '2019-03-12',
  highResStatus: 0,
  madeAt: '2025-01-01T10:00:00.000Z',
  ...overrides,
});

it('prints a calendar date without shifting it', () => {
  expect(capturedText('2019-03-12')).toBe('Captured 12 March 2019');
  expect(capturedText('2024-12-31')).toBe('Captured 31 December 2024');
  expect(capturedText('not a date')).toBe('Captured not a date');
});

it('prints the capture date with the aerial picture', () => {
  const html = irisReportHtml(input({}));
  expect(html).toMatch(/<figcaption>[^<]*Captured 12 March 2019\.[^<]*<\/figcaption>/);
});

it('says when the date is unknown, and prints none without a picture', () => {
  expect(irisReportHtml(input({ aerialCapturedOn: null }))).toContain('Capture date unknown.');
  const none = irisReportHtml(input({ aerialDataUrl: null, aerialView: null }));
  expect(none).not.toContain('Captured');
  expect(none).toContain('No aerial picture in this report');
});
