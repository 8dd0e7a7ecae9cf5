import { type IrisReport } from '@portal/contracts';

// The fetch answers, the services, the references and the demo user are web-kit's; the reports here are
// this remote's.
export {
  json,
  text,
  errorAnswer,
  answerFetch,
  callsTo,
  meAnswer,
  servicesAnswer,
  referencesAnswer,
  KMI_REFERENCES,
} from '@portal/web-kit/testing';
export { plainUser as irisUser, operatorUser } from '@portal/web-kit/testing';

export const REPORT_ID = '5b0c2a52-3f7e-4d84-9a56-0d6c1b8e2f11';
export const REQUEST_ID = '9a7f3c1e-2b4d-4e6f-8a1b-3c5d7e9f1a2b';

const source = (name: string, date: string) => ({ name, date });

export const irisReport = (overrides: Partial<IrisReport['data']> = {}): IrisReport => ({
  _id: REPORT_ID,
  requestId: REQUEST_ID,
  gripReference: 'GRP-2611-000042',
  address: '12 Church Street, Stellenbosch',
  created: '2026-11-25T08:00:00.000Z',
  highResStatus: null,
  aerialView: null,
  version: 1,
  pdf: { state: 'none', progress: 0, error: null },
  data: {
    coordinates: { lat: -33.932112, lng: 18.860245 },
    computedAt: '2026-11-25T08:00:00.000Z',
    elevation: {
      ele: 112.4,
      elevation_ns: [
        { offset: -1000, ele: 100 },
        { offset: 0, ele: 112.4 },
        { offset: 1000, ele: 130 },
      ],
      elevation_ew: [
        { offset: -1000, ele: 90 },
        { offset: 0, ele: 112.4 },
        { offset: 1000, ele: null },
      ],
      unavailable: null,
      source: source('SRTM 1 arc-second', '2000'),
    },
    crimeData: {
      precinctName: 'Stellenbosch',
      match: 'precinct',
      stationDistance: 1200,
      population: 80000,
      burglaryBusiness: [{ yearTo: 2023, rate: 120.5, count: 96 }],
      burglaryResidential: [
        { yearTo: 2022, rate: 300, count: 240 },
        { yearTo: 2023, rate: null, count: 250 },
      ],
      maliciousDamage: [{ yearTo: 2023, rate: 90, count: 72 }],
      unit: 'incidents per 100 000 residents per year',
      unavailable: null,
      source: source('SAPS crime statistics', '2008/09–2022/23'),
    },
    waterBodyData: {
      range: 1000,
      waterBodiesInRange: [
        {
          name: 'Kleinplaas Dam',
          kind: 'lake',
          distance: 420,
          altitude: 110,
          altitudeClass: 'maybe safe',
          distanceClass: 'maybe safe',
        },
      ],
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
      coastInRange: [],
      overallClass: 'dangerous',
      source: source('DWS hydrography', '2020'),
    },
    fireServicesData: {
      closestFire: { name: 'Stellenbosch Fire Station', distance: 2300, lat: -33.93, lng: 18.86 },
      unavailable: null,
      source: source('OpenStreetMap fire stations', '2026-11'),
    },
    soilData: {
      s6Value: 8,
      s11Value: 5,
      dangerous: true,
      site: { id: 'ZA-1234', classification: 'Vertisol', drainage: 'imperfectly drained', distance: 3400 },
      method: 's6 from mean clay, s11 from drainage',
      unavailable: null,
      source: source('Africa Soil Profiles', '2014'),
    },
    ...overrides,
  },
});
