import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { queryRun } from './env';

// SAVi requests as the request tool makes them (PUT /api/v1.0/request/ with the located parcel of a
// reverse lookup), for the tests that need one to work on. Each test file takes addresses of its own
// (`nth`, in id order among the located, unit-less addresses), so no other test's request stands beside it.

export interface LocatedPoint {
  lat: number;
  lng: number;
}

/** The n-th located address of the run's geodata (one on a parcel, with a house number, no unit). */
export async function locatedAddress(nth = 0): Promise<LocatedPoint> {
  const [address] = await queryRun<LocatedPoint>(
    `SELECT ST_Y(point) AS lat, ST_X(point) AS lng FROM geo.addresses
      WHERE parcel_id IS NOT NULL AND unit IS NULL AND house_number <> '' ORDER BY id OFFSET $1 LIMIT 1`,
    [nth],
  );
  return address;
}

/**
 * The request tool's form for a Replacement Value Estimate at `point`, with a Policy Number reference, from
 * the reverse look-up made with `api` (a page's session, or a machine's key).
 */
export async function saviRequestForm(api: APIRequestContext, point: LocatedPoint, policyNumber: string) {
  const reverse = await api.post('/api/avs/reverse', {
    data: { lat: point.lat, lng: point.lng, searchOption: 'address' },
  });
  expect(reverse.status(), await reverse.text()).toBe(200);
  const { result } = await reverse.json();
  return {
    requestType: 'SAVI',
    requestSubType: 'Replacement Value Estimate',
    Searched_For: result.address.formatted_address,
    mode: 'address',
    Selected_Address: result.address.formatted_address,
    coordinates: { lat: point.lat, lng: point.lng },
    selected: result.address,
    parcel: result.parcel,
    reference: { POLICY_NUMBER: policyNumber },
  };
}

/** Logs a SAVi request of the page's user at the n-th located address; its GRiP reference and id. */
export async function createSaviRequest(
  page: Page,
  { nth, policyNumber, keyPrefix }: { nth: number; policyNumber: string; keyPrefix: string },
): Promise<{ grip: string; id: string }> {
  const form = await saviRequestForm(page.request, await locatedAddress(nth), policyNumber);
  const created = await page.request.put('/api/v1.0/request/', {
    data: form,
    headers: { 'Idempotency-Key': `${keyPrefix}-${Date.now()}-${nth}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const grip = created.headers()['x-grip-reference'];
  const id = created.headers()['location'].match(/\/request\/([^/]+)\/any/)![1];
  return { grip, id };
}
