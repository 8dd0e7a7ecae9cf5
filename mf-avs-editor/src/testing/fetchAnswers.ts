import type {
  AddressEditorData,
  AvsEditorSettings,
  DisplayDataAnswer,
  EditorAddress,
  EditorPoi,
} from '@portal/contracts';
import { operatorUser as demoOperator, plainUser as demoUser } from '@portal/web-kit/testing';

// The fetch answers are web-kit's; the users and the editor's data here are this remote's.
export { json, errorAnswer, answerFetch, callsTo, meAnswer } from '@portal/web-kit/testing';

/** The demo operator and user, with the address service (avs) among their services. */
export const operatorUser = { ...demoOperator, services: ['avs', 'savi'] };
export const plainUser = { ...demoUser, services: ['avs', 'savi'] };

export const POINT = { lat: -33.932112, lng: 18.860245 };

export const settings = (overrides: Partial<AvsEditorSettings> = {}): AvsEditorSettings => ({
  canValidate: false,
  holdSeconds: 900,
  zoom: 18,
  qualities: [
    { code: 'CNF', value: 25 },
    { code: 'EST', value: 30 },
    { code: 'DDS', value: 40 },
    { code: 'VR', value: 50 },
    { code: 'SV', value: 60 },
  ],
  parcelTypes: [
    { id: 1, label: 'Erf' },
    { id: 100, label: 'Un-addressable' },
  ],
  ...overrides,
});

export const address = (overrides: Partial<EditorAddress> = {}): EditorAddress => ({
  addressId: '501',
  houseNumber: '12',
  streetId: '77',
  streetName: 'Church Street',
  unit: null,
  estate: null,
  suburb: 'Die Boord',
  town: 'Stellenbosch',
  streetCode: '7600',
  formattedAddress: '12 Church Street, Die Boord, Stellenbosch, 7600',
  quality: 20,
  qualityCode: 'CNF',
  official: false,
  review: null,
  parcelId: '9001',
  lat: POINT.lat,
  lng: POINT.lng,
  version: 3,
  editedBy: null,
  editedAt: null,
  ...overrides,
});

export const poi = (overrides: Partial<EditorPoi> = {}): EditorPoi => ({
  poiId: '701',
  name: 'Die Boord Primary',
  poiType: 10000,
  category: 'school',
  addressId: '501',
  parentId: null,
  parcelId: '9001',
  lat: POINT.lat,
  lng: POINT.lng,
  version: 1,
  editedBy: null,
  editedAt: null,
  ...overrides,
});

export const pointData = (overrides: Partial<AddressEditorData> = {}): AddressEditorData => ({
  parcelId: '9001',
  parcelNo: '1234',
  portionNo: 0,
  parcelTypeId: 1,
  dataQualityId: 1,
  parcelVersion: 4,
  parcel: null,
  road: 'Church Street',
  closestRoads: [
    {
      roadId: '77',
      roadNameEng: 'Church Street',
      closest: true,
      distance: 12.5,
      suburb: 'Die Boord',
      town: 'Stellenbosch',
    },
    {
      roadId: '78',
      roadNameEng: 'Rose Street',
      closest: false,
      distance: 48,
      suburb: 'Die Boord',
      town: 'Stellenbosch',
    },
  ],
  suburb: 'Die Boord',
  town: 'Stellenbosch',
  municipality: '',
  district: '',
  streetCode: '600',
  boxCode: '12',
  editedBy: 'qc@portal.test',
  lat: POINT.lat,
  lng: POINT.lng,
  centre: POINT,
  addresses: [address()],
  pois: [poi()],
  ...overrides,
});

const ring = [
  [18.8601, -33.9322],
  [18.8604, -33.9322],
  [18.8604, -33.932],
  [18.8601, -33.932],
  [18.8601, -33.9322],
];

/** Points as the display data has them: a feature collection, each feature its item's id and properties. */
const pointCollection = <T extends { lat: number; lng: number }>(items: T[], id: (item: T) => string) => ({
  data: {
    type: 'FeatureCollection' as const,
    features: items.map((item) => ({
      type: 'Feature' as const,
      id: id(item),
      geometry: { type: 'Point' as const, coordinates: [item.lng, item.lat] },
      properties: item,
    })),
  },
});

export const displayData = (data: AddressEditorData = pointData()): DisplayDataAnswer => ({
  success: true,
  parcelId: data.parcelId,
  parcelData: {
    data: {
      type: 'FeatureCollection',
      features: data.parcelId
        ? [
            {
              type: 'Feature',
              id: data.parcelId,
              geometry: { type: 'MultiPolygon', coordinates: [[ring]] },
              properties: {
                parcelId: data.parcelId,
                parcelNo: data.parcelNo ?? '',
                portionNo: data.portionNo ?? 0,
                parcelTypeId: data.parcelTypeId ?? 1,
                dataQualityId: data.dataQualityId ?? 0,
                sgKey: null,
                suburb: data.suburb,
                town: data.town,
                addressCount: data.addresses.length,
                reviewed: false,
                heldBy: null,
                heldUntil: null,
                version: data.parcelVersion ?? 1,
                editedBy: null,
                editedAt: null,
                selected: true,
              },
            },
          ]
        : [],
    },
  },
  voronoiData: {
    data: {
      type: 'FeatureCollection',
      features: data.parcelId
        ? [
            {
              type: 'Feature',
              id: `${data.parcelId}-1`,
              geometry: { type: 'MultiPolygon', coordinates: [[ring]] },
              properties: { parcelId: data.parcelId, addressIds: data.addresses.map((a) => a.addressId) },
            },
          ]
        : [],
    },
  },
  addressData: pointCollection(data.addresses, (a) => a.addressId),
  poiData: pointCollection(data.pois, (p) => p.poiId),
});
