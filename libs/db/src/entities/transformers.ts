import { type ValueTransformer } from 'typeorm';

/** The one schema of the identity tables (users, groups, services and what hangs off them). */
export const IDENTITY_SCHEMA = 'identity';

/** The report builder's schema; its rate tables are written by services-admin (docs/architecture.md). */
export const REPORTBUILDER_SCHEMA = 'reportbuilder';

/**
 * PostgreSQL returns `numeric` as a string so no precision is lost; percentages and rand amounts are
 * far inside a double's exact range, so reading them as JavaScript numbers is safe and is what the API
 * contracts expect.
 */
export const numericAsNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * E-mail addresses are stored trimmed and lower-case (spec 01 §5, same rule as `normaliseEmail` in
 * @portal/domain). Applied on writes and on `where` values, so `findOneBy({ email: 'Thandi@X.co.za' })`
 * finds the row too. A check constraint in the database backs it up for raw SQL.
 */
export const normalisedEmail: ValueTransformer = {
  to: (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  from: (value: string) => value,
};
