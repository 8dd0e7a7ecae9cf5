import { buildIrisRequest, requestIdFromLocation } from './orderRequest';

describe('the IRiS request', () => {
  it('is type IRIS with no subtype, the point rounded to 6 decimals', () => {
    const form = buildIrisRequest({
      point: { lat: -33.93211234, lng: 18.8602449 },
      mode: 'gps',
      searchedFor: ' -33.932112, 18.860245 ',
      address: null,
      item: null,
    });
    expect(form).toMatchObject({
      requestType: 'IRIS',
      requestSubType: null,
      mode: 'gps',
      coordinates: { lat: -33.932112, lng: 18.860245 },
      Searched_For: '-33.932112, 18.860245',
      Selected_Address: '',
    });
  });

  it('takes the request id from the Location header', () => {
    expect(requestIdFromLocation('/api/v1.0/request/9a7f3c1e-2b4d/any')).toBe('9a7f3c1e-2b4d');
    expect(requestIdFromLocation('http://localhost:8080/api/v1.0/request/abc/any/')).toBe('abc');
    expect(requestIdFromLocation(null)).toBeNull();
    expect(requestIdFromLocation('/somewhere/else')).toBeNull();
  });
});
