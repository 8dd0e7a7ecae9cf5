import { REQUEST_ADMIN_API, type RequestPagerAnswer } from '@portal/contracts';
import { call, env, userByEmail } from './harness';

/**
 * Requests written straight into the table for the queue's tests (their creation is
 * routes/requestCreation.test.ts's), what the table holds of them, and the pager as a user reads it.
 */

let made = 0;
/** How many requests this file has written straight into the table (their addresses are numbered by it). */
export const requestsMade = () => made;

/** A request of `email` straight into the table; answers its id. */
export async function seedRequest(
  email: string,
  fields: Partial<{
    status: string;
    request_type: string;
    priority: boolean;
    lat: number;
    lng: number;
    address: string;
    created_at: string;
    cant_locate: boolean;
    rve_total: number;
    date_finalised: string;
  }> = {},
): Promise<string> {
  const user = await userByEmail(email);
  const row = {
    status: 'New',
    request_type: 'SAVI',
    priority: false,
    lat: -33.9321,
    lng: 18.8602,
    address: `${++made} Church Street, Stellenbosch`,
    created_at: new Date(Date.UTC(2026, 0, 1) + made * 60_000).toISOString(),
    cant_locate: false,
    rve_total: null as number | null,
    date_finalised: null as string | null,
    ...fields,
  };
  const [{ id }] = (await env.db.dataSource.query(
    `INSERT INTO requests.requests
       (request_type, status, user_id, user_name, user_email, group_id, group_name, group_code, address, lat,
        lng, point, priority, created_at, cant_locate, rve_total, date_finalised, reference, reference_string)
     SELECT $1, $2, u.id, u.name, u.email, g.id, g.name, g.code, $3, $4::float8, $5::float8,
            ST_SetSRID(ST_MakePoint($5::float8, $4::float8), 4326), $6, $7, $8, $9, $10,
            '{"POLICY_NUMBER":"KM123456"}', '{"POLICY_NUMBER":"KM123456"}'
       FROM identity.users u LEFT JOIN identity.groups g ON g.id = u.group_id WHERE u.id = $11
     RETURNING id`,
    [
      row.request_type,
      row.status,
      row.address,
      row.lat,
      row.lng,
      row.priority,
      row.created_at,
      row.cant_locate,
      row.rve_total,
      row.date_finalised,
      user.id,
    ],
  )) as { id: string }[];
  return id;
}

export const statusOf = async (id: string) =>
  (
    (await env.db.dataSource.query('SELECT status FROM requests.requests WHERE id = $1', [id])) as {
      status: string;
    }[]
  )[0].status;
export const historyOf = async (id: string) =>
  (await env.db.dataSource.query(
    `SELECT user_name, field, from_value, to_value, comment FROM requests.request_history
      WHERE request_id = $1 ORDER BY id`,
    [id],
  )) as {
    user_name: string;
    field: string;
    from_value: string | null;
    to_value: string | null;
    comment: string | null;
  }[];
export const pager = async (email: string, query: Record<string, string> = {}) => {
  const answer = await call(email, 'GET', `${REQUEST_ADMIN_API.pager}?${new URLSearchParams(query)}`);
  expect(answer.statusCode).toBe(200);
  return answer.json<RequestPagerAnswer>();
};

export const allChecks = (n: number) => Array.from({ length: n }, () => true);
