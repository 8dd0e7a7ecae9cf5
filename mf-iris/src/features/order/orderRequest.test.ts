import { buildIrisRequest, requestIdFromLocation } from './orderRequest';

describe('the IRiS request', () => {
  it('is type IRIS with no subtype, the point rounded to 6 decimals', () => {
    const form = buildIrisRequest({
      point: { lat: -33.93211234, lng: 18.8602449 },
      mode: 'gps',
      searchedFor: ' -33.932112, 18.860245 ',
      address: null,
      item: null,
      references: {},
    });
    expect(form).toMatchObject({
      requestType: 'IRIS',
      requestSubType: null,
      mode: 'gps',
      coordinates: { lat: -33.932112, lng: 18.860245 },
      Searched_For: '-33.932112, 18.860245',
      Selected_Address: '',
      reference: {},
      referenceString: '{}',
    });
  });

  it("carries the group's references as /savi sends them: trimmed, the empty ones left out", () => {
    const form = buildIrisRequest({
      point: { lat: -33.9321, lng: 18.8602 },
      mode: 'address',
      searchedFor: '12 Church Street',
      address: '12 Church Street, Stellenbosch',
      item: null,
      references: { POLICY_NUMBER: ' KM123456 ', BROKER_NAME: '  ' },
    });
    expect(form.reference).toEqual({ POLICY_NUMBER: 'KM123456' });
    expect(form.referenceString).toBe('{"POLICY_NUMBER":"KM123456"}');
  });

  it('takes the request id from the Location header', () => {
    expect(requestIdFromLocation('/api/v1.0/request/9a7f3c1e-2b4d/any')).toBe('9a7f3c1e-2b4d');
    expect(requestIdFromLocation('http://localhost:8080/api/v1.0/request/abc/any/')).toBe('abc');
    expect(requestIdFromLocation(null)).toBeNull();
    expect(requestIdFromLocation('/somewhere/else')).toBeNull();
  });
});
