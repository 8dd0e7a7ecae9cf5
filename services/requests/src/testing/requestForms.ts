import type { InjectOptions } from 'fastify';
import { REQUEST_API, type RequestForm } from '@portal/contracts';
import { call, env } from './harness';

/** Request forms as the request tool sends them, their creation call, and the rows they write. */

export const create = (email: string | null, form: object, headers?: InjectOptions['headers']) =>
  call(email, 'PUT', REQUEST_API.create, form, headers);

/** A square parcel around a point, as the locator answers it (GeoJSON Polygon). */
export const square = (lat: number, lng: number, d = 0.0002) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng - d, lat - d],
      [lng + d, lat - d],
      [lng + d, lat + d],
      [lng - d, lat + d],
      [lng - d, lat - d],
    ],
  ],
});

/** A Replacement Value Estimate from the request tool, as a KMI user fills it in (Stellenbosch). */
export function rveForm(overrides: Partial<RequestForm> = {}): RequestForm {
  const lat = -33.9321;
  const lng = 18.8602;
  return {
    requestType: 'SAVI',
    requestSubType: 'Replacement Value Estimate',
    Searched_For: '12 Church Street Stellenbosch',
    mode: 'address',
    Selected_Address: {
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      id: '42',
      type: 'address',
      location: { lat, lng },
    },
    Alternative_Addresses: ['12A Church Street, Stellenbosch Central, Stellenbosch, 7600'],
    coordinates: { lat, lng },
    coordinateArray: [lat, lng],
    map: { lat, lng, zoom: 18 },
    reference: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' },
    additional: 'Gate code 1234',
    needsUpdate: false,
    selected: {
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      no: '12',
      name: 'Church Street',
      streetcode: '7600',
      boxcode: '7599',
    },
    parcel: {
      id: '9001',
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      addresses: [{ id: '42', short_formatted_address: '12 Church Street' }],
      geometry: square(lat, lng),
    },
    query: '12 CHURCH STREET STELLENBOSCH',
    usedIdan: true,
    imageUrls: { n: '/api/imagery/images/n.jpg', e: null, s: '/api/imagery/images/s.jpg', o: '/o.jpg' },
    ...overrides,
  };
}

export const rowOf = async (id: string) =>
  (
    await env.db.dataSource.query(
      `SELECT *, ST_X(point) AS x, ST_Y(point) AS y, GeometryType(parcel_geom) AS parcel_type,
              ST_SRID(parcel_geom) AS parcel_srid
       FROM requests.requests WHERE id = $1`,
      [id],
    )
  )[0];

export const idFrom = (location: unknown) => String(location).split('/').at(-2)!;
export const countRows = async () =>
  Number((await env.db.dataSource.query('SELECT count(*) FROM requests.requests'))[0].count);
