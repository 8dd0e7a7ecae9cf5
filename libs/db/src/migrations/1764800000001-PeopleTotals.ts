import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The users' role and status flags, as columns (as in migration ServicesAdmin). */
const USER_FLAGS = ['active', 'is_admin', 'rates_editor', 'savi_operator', 'savi_qc', 'claims_user'];
/** The key of the users without a group in identity.user_totals (UserTotalsEntity.NO_GROUP). */
const NO_GROUP = '00000000-0000-0000-0000-000000000000';

/**
 * The kept user totals (identity.user_totals, migration ServicesAdmin) count people only: an API key's own
 * account row (kind 'apiKey', migration ApiKeys) is never listed or counted among a group's users, and the
 * users grid takes its totals from these rows. The trigger function is the same as before with a
 * `kind = 'person'` filter (or none, going down), and the totals are counted again.
 */
export class PeopleTotals1764800000001 implements MigrationInterface {
  name = 'PeopleTotals1764800000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await replaceCountUsers(queryRunner, true);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await replaceCountUsers(queryRunner, false);
  }
}

async function replaceCountUsers(queryRunner: QueryRunner, peopleOnly: boolean): Promise<void> {
  const columns = ['group_id', 'users', ...USER_FLAGS].join(', ');
  const addTotals = (deltas: string) => `
    INSERT INTO identity.user_totals AS t (${columns})
    SELECT group_id, sum(users), ${USER_FLAGS.map((f) => `sum(${f})`).join(', ')}
    FROM (${deltas}) deltas GROUP BY group_id
    ON CONFLICT (group_id) DO UPDATE SET users = t.users + excluded.users,
      ${USER_FLAGS.map((f) => `${f} = t.${f} + excluded.${f}`).join(', ')};`;
  const counted = (row: string) => (peopleOnly ? `${row}.kind = 'person'` : 'true');
  const tally = (sign: '' | '-', table: string) =>
    `SELECT COALESCE(r.group_id, '${NO_GROUP}') AS group_id, ${sign}count(*) AS users, ${USER_FLAGS.map(
      (f) => `${sign}count(*) FILTER (WHERE r.${f}) AS ${f}`,
    ).join(', ')} FROM ${table} r WHERE ${counted('r')} GROUP BY 1`;
  const change = (sign: '' | '-', row: 'OLD' | 'NEW') =>
    `SELECT COALESCE(${row}.group_id, '${NO_GROUP}') AS group_id, ${sign}1 AS users, ${USER_FLAGS.map(
      (f) => `${sign}${row}.${f}::int AS ${f}`,
    ).join(', ')} WHERE ${counted(row)}`;
  await queryRunner.query(`
    CREATE OR REPLACE FUNCTION identity.count_users() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${addTotals(tally('', 'new_rows'))}
      ELSIF TG_OP = 'DELETE' THEN
        ${addTotals(tally('-', 'old_rows'))}
      ELSIF TG_OP = 'UPDATE' THEN
        ${addTotals(`${change('-', 'OLD')} UNION ALL ${change('', 'NEW')}`)}
      ELSE
        DELETE FROM identity.user_totals;
      END IF;
      RETURN NULL;
    END $$`);
  await queryRunner.query('DELETE FROM identity.user_totals');
  await queryRunner.query(addTotals(tally('', 'identity.users')));
}
