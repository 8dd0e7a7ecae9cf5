import { env } from './harness';

/**
 * The page-for-model tests' users: 45 'Paging Person NN' in two extra groups (Alpha Brokers, Zulu
 * Assessors), a few without a group, every third inactive, created a day apart from 2025-03-02 (SAST).
 */
export async function addPagingPeople(): Promise<void> {
  const [alpha] = await env.db.dataSource.query(
    `INSERT INTO identity.groups (name, code, professional_fee_percentage) VALUES ('Alpha Brokers', 'ALP', 5) RETURNING id`,
  );
  const [zulu] = await env.db.dataSource.query(
    `INSERT INTO identity.groups (name, code, professional_fee_percentage, active) VALUES ('Zulu Assessors', 'ZUL', 20, false) RETURNING id`,
  );
  await env.db.dataSource.query(
    `INSERT INTO identity.users (name, email, password_hash, group_id, active, created_at)
     SELECT 'Paging Person ' || lpad(n::text, 2, '0'), 'paging' || n || '@example.co.za', 'x',
            CASE WHEN n % 15 = 0 THEN NULL WHEN n % 2 = 0 THEN $1::uuid ELSE $2::uuid END,
            n % 3 <> 0, timestamptz '2025-03-01 10:00+02' + n * interval '1 day'
     FROM generate_series(1, 45) AS n`,
    [alpha.id, zulu.id],
  );
}

/** The filter that selects exactly the paging people. */
export const pagingFilter = { name: { compareBy: 'startsWith', compareTo: 'Paging Person' } };
