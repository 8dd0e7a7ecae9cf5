import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The users' role and status flags, as columns. */
const USER_FLAGS = ['active', 'is_admin', 'rates_editor', 'savi_operator', 'savi_qc', 'claims_user'];
/** The key of the users without a group in identity.user_totals (UserTotalsEntity.NO_GROUP). */
const NO_GROUP = '00000000-0000-0000-0000-000000000000';

/**
 * Services administration: the per-group rate tables (schema `reportbuilder`, written by services-admin,
 * read by the report builder) and the indexes behind the users and groups grids (page-for-model), sized
 * for 100 000 users (bench/page-for-model.mjs).
 */
export class ServicesAdmin1763800000000 implements MigrationInterface {
  name = 'ServicesAdmin1763800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA reportbuilder');
    await queryRunner.query(`
      CREATE TABLE reportbuilder.rates (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        group_id uuid NOT NULL,
        position integer NOT NULL,
        report text NOT NULL DEFAULT '',
        category text NOT NULL DEFAULT '',
        type text NOT NULL DEFAULT '',
        class text NOT NULL DEFAULT '',
        quantity text NOT NULL DEFAULT 'no',
        increase numeric NOT NULL DEFAULT 0,
        standard numeric NOT NULL DEFAULT 0,
        inbetween numeric NOT NULL DEFAULT 0,
        expensive numeric NOT NULL DEFAULT 0,
        slope boolean NOT NULL DEFAULT true,
        fee boolean NOT NULL DEFAULT true,
        vat boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT rates_pkey PRIMARY KEY (id),
        CONSTRAINT rates_group_id_position_key UNIQUE (group_id, position),
        CONSTRAINT rates_standard_not_negative CHECK (standard >= 0),
        CONSTRAINT rates_inbetween_not_negative CHECK (inbetween >= 0),
        CONSTRAINT rates_expensive_not_negative CHECK (expensive >= 0),
        CONSTRAINT rates_group_id_fkey FOREIGN KEY (group_id) REFERENCES identity.groups (id) ON DELETE CASCADE
      )`);

    // Users grid (page-for-model): each sort has a btree ending in the id tie-breaker, so a page is one
    // index walk, and carries what filters and the walk read (the flags, the name), so that walk never
    // visits the table (an index-only scan: a deep page skips tens of thousands of entries). Names sort
    // case-insensitively (the database collates bytewise); e-mail addresses are stored lower-case.
    const flags = USER_FLAGS.join(', ');
    const read = `name, ${flags}`;
    await queryRunner.query(
      `CREATE INDEX users_lower_name_idx ON identity.users (lower(name), id) INCLUDE (${read})`,
    );
    await queryRunner.query(
      `CREATE INDEX users_email_id_idx ON identity.users (email) INCLUDE (id, ${flags})`,
    );
    await queryRunner.query(
      `CREATE INDEX users_created_at_idx ON identity.users (created_at, id) INCLUDE (${flags})`,
    );
    // Sorting by group name counts the matching users per group and walks each group's users by name.
    // The flags as key columns (not INCLUDE) keep the counting index deduplicated, and so small: it is
    // also the cheapest way to count all users or those of a flag, which every page does for its total.
    await queryRunner.query(
      `CREATE INDEX users_group_id_lower_name_idx ON identity.users (group_id, lower(name), id) INCLUDE (${read})`,
    );
    await queryRunner.query('DROP INDEX identity.users_group_id_idx');
    await queryRunner.query(`CREATE INDEX users_group_id_idx ON identity.users (group_id, ${flags})`);
    await queryRunner.query('CREATE INDEX groups_lower_name_idx ON identity.groups (lower(name), id)');

    // How many users each group has, in all and per flag, kept by triggers: the users grid shows its total
    // on every page and sorts by group, and counting 100 000 rows each time costs more than the page
    // itself. Inserts and deletes are counted per statement (a bulk insert touches each group's row once),
    // changes of group or flags per row. Users without a group are counted under the nil uuid.
    await queryRunner.query(`
      CREATE TABLE identity.user_totals (
        group_id uuid NOT NULL,
        users integer NOT NULL,
        ${USER_FLAGS.map((flag) => `${flag} integer NOT NULL`).join(',\n        ')},
        CONSTRAINT user_totals_pkey PRIMARY KEY (group_id)
      )`);
    const key = (row: string) => `COALESCE(${row}.group_id, '${NO_GROUP}')`;
    const columns = ['group_id', 'users', ...USER_FLAGS].join(', ');
    // Adds the per-group deltas of a `SELECT group_id, users, <flags>` to the kept totals.
    const addTotals = (deltas: string) => `
      INSERT INTO identity.user_totals AS t (${columns})
      SELECT group_id, sum(users), ${USER_FLAGS.map((f) => `sum(${f})`).join(', ')}
      FROM (${deltas}) deltas GROUP BY group_id
      ON CONFLICT (group_id) DO UPDATE SET users = t.users + excluded.users,
        ${USER_FLAGS.map((f) => `${f} = t.${f} + excluded.${f}`).join(', ')};`;
    const tally = (sign: '' | '-', rows: string) =>
      `SELECT ${key(rows)} AS group_id, ${sign}count(*) AS users, ${USER_FLAGS.map(
        (f) => `${sign}count(*) FILTER (WHERE ${f}) AS ${f}`,
      ).join(', ')} FROM ${rows} GROUP BY 1`;
    const change = (sign: '' | '-', row: 'OLD' | 'NEW') =>
      `SELECT ${key(row)} AS group_id, ${sign}1 AS users, ${USER_FLAGS.map(
        (f) => `${sign}${row}.${f}::int AS ${f}`,
      ).join(', ')}`;
    await queryRunner.query(addTotals(tally('', 'identity.users')));
    await queryRunner.query(`
      CREATE FUNCTION identity.count_users() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await queryRunner.query(`
      CREATE TRIGGER users_count_inserts AFTER INSERT ON identity.users
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION identity.count_users()`);
    await queryRunner.query(`
      CREATE TRIGGER users_count_deletes AFTER DELETE ON identity.users
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION identity.count_users()`);
    const counted = ['group_id', ...USER_FLAGS];
    await queryRunner.query(`
      CREATE TRIGGER users_count_changes AFTER UPDATE OF ${counted.join(', ')} ON identity.users
      FOR EACH ROW WHEN (${counted.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
      EXECUTE FUNCTION identity.count_users()`);
    await queryRunner.query(`
      CREATE TRIGGER users_count_truncate AFTER TRUNCATE ON identity.users
      FOR EACH STATEMENT EXECUTE FUNCTION identity.count_users()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const trigger of ['truncate', 'changes', 'deletes', 'inserts']) {
      await queryRunner.query(`DROP TRIGGER users_count_${trigger} ON identity.users`);
    }
    await queryRunner.query('DROP FUNCTION identity.count_users()');
    await queryRunner.query('DROP TABLE identity.user_totals');
    await queryRunner.query('DROP INDEX identity.groups_lower_name_idx');
    await queryRunner.query('DROP INDEX identity.users_group_id_idx');
    await queryRunner.query('CREATE INDEX users_group_id_idx ON identity.users (group_id)');
    await queryRunner.query('DROP INDEX identity.users_group_id_lower_name_idx');
    await queryRunner.query('DROP INDEX identity.users_created_at_idx');
    await queryRunner.query('DROP INDEX identity.users_email_id_idx');
    await queryRunner.query('DROP INDEX identity.users_lower_name_idx');
    await queryRunner.query('DROP TABLE reportbuilder.rates');
    await queryRunner.query('DROP SCHEMA reportbuilder');
  }
}
