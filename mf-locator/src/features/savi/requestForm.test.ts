import { Value } from '@sinclair/typebox/value';
import { RequestForm } from '@portal/contracts';
import { churchStreetItem, churchStreetParcel } from '../../testing/places';
import { buildRequestForm, capitalise, type RequestInput } from './requestForm';

const item = churchStreetItem({
  formatted_address: '12 Church Street, Die Boord, Stellenbosch, 7600',
  short_formatted_address: '12 Church Street',
  suburb: 'Die Boord',
  town: 'Stellenbosch',
  postalCode: '7600',
});

const parcel = churchStreetParcel({ formatted_address: item.formatted_address });

const input: RequestInput = {
  searchedFor: '12 church street',
  option: 'address',
  subType: 'Replacement Value Estimate',
  point: item.location,
  item,
  address: item,
  parcel,
  area: null,
  mapView: { lat: -33.9368, lng: 18.86, zoom: 18 },
  references: { POLICY_NUMBER: ' KM123456 ', BROKER_NAME: '' },
  comments: ' Back door ',
  imageUrls: { n: '/api/imagery/images/n.jpg', o: '/api/imagery/images/o.jpg' },
};

describe('buildRequestForm', () => {
  it('builds the request the requests service accepts (its contract)', () => {
    const form = buildRequestForm(input);
    expect(Value.Errors(RequestForm, form).First()).toBeUndefined();
    expect(form).toMatchObject({
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      Searched_For: '12 Church Street',
      query: '12 CHURCH STREET',
      mode: 'address',
      Selected_Address: item.formatted_address,
      Alternative_Addresses: ['12A Church Street'],
      coordinates: item.location,
      coordinateArray: [-33.9368, 18.86],
      cantlocate: false,
      geojson: parcel.geometry,
      reference: { POLICY_NUMBER: 'KM123456' },
      referenceString: '{"POLICY_NUMBER":"KM123456"}',
      additional: 'Back door',
      usedIdan: true,
      selected: {
        formatted_address: item.formatted_address,
        suburb: 'Die Boord',
        town: 'Stellenbosch',
        streetcode: '7600',
      },
    });
  });

  it("leaves the address sections out of a Can't Locate request", () => {
    const form = buildRequestForm({ ...input, subType: "Can't Locate", option: null });
    expect(Value.Errors(RequestForm, form).First()).toBeUndefined();
    expect(form).toMatchObject({
      mode: 'cantlocate',
      cantlocate: true,
      Selected_Address: '',
      Alternative_Addresses: [],
      selected: null,
      parcel: null,
      geojson: null,
    });
  });

  it('capitalises the query', () => {
    expect(capitalise('  12 church street, die boord ')).toBe('12 Church Street, Die Boord');
  });
});

describe('measurements made before logging (issue 21)', () => {
  const measurement = {
    kind: 'area' as const,
    surveyId: 3,
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        [
          [18.8606, -33.9364],
          [18.86075, -33.9364],
          [18.86075, -33.93628],
          [18.8606, -33.9364],
        ],
      ],
    },
    label: 'Main house',
  };

  it('travel with the request in its `measurements`, within the contract', () => {
    const form = buildRequestForm({ ...input, measurements: [measurement] });
    expect(Value.Errors(RequestForm, form).First()).toBeUndefined();
    expect(form.measurements).toEqual([measurement]);
  });

  it('are left out when there are none, and for a request that cannot be located', () => {
    expect(buildRequestForm({ ...input, measurements: [] })).not.toHaveProperty('measurements');
    expect(
      buildRequestForm({ ...input, subType: "Can't Locate", measurements: [measurement] }),
    ).not.toHaveProperty('measurements');
  });
});
