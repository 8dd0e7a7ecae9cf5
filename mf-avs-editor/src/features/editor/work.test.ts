import { readPoint } from './editorPoint';
import { heldItem, type Work } from './work';

describe('the work held and the marker point', () => {
  it('gives back a parcel or a request by its id', () => {
    const parcel: Work = {
      kind: 'multi',
      parcel: { parcelId: '9001', version: 4, lat: -33.9, lng: 18.8, heldUntil: '2026-11-26T10:15:00.000Z' },
      remaining: 3,
    };
    expect(heldItem(parcel)).toEqual({ kind: 'parcel', id: '9001' });
    const request = { kind: 'cantLocate', request: { requestId: 'r-7' }, remaining: 0 } as unknown as Work;
    expect(heldItem(request)).toEqual({ kind: 'request', id: 'r-7' });
  });

  it('reads the marker from the address, rounded, and nothing that is no point', () => {
    expect(readPoint(new URLSearchParams('lat=-33.93211249&lng=18.8602451'))).toEqual({
      lat: -33.932112,
      lng: 18.860245,
    });
    expect(readPoint(new URLSearchParams(''))).toBeNull();
    expect(readPoint(new URLSearchParams('lat=-33.9'))).toBeNull();
    expect(readPoint(new URLSearchParams('lat=abc&lng=18'))).toBeNull();
    expect(readPoint(new URLSearchParams('lat=91&lng=18'))).toBeNull();
    expect(readPoint(new URLSearchParams('lat=-33&lng=181'))).toBeNull();
  });
});
