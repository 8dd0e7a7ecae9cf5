import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The users' role and status flags, as columns. */
const USER_FLAGS = ['active', 'is_admin', 'rates_editor', 'savi_operator', 'savi_qc', 'claims_user'];
/** Every column the users grid shows (contracts AdminUser), but the group's name and the services. */
const GRID_COLUMNS = ['id', 'name', 'email', 'group_id', 'created_at', ...USER_FLAGS];
/** What changes a user's place in some sort or filter of the grid (and so the list's revision). */
const LISTED_COLUMNS = ['name', 'email', 'group_id', 'created_at', ...USER_FLAGS];

/** The four sort indexes of the users grid, by their key columns. */
const SORT_INDEXES: Record<string, string[]> = {
  users_lower_name_idx: ['lower(name)', 'id'],
  users_email_id_idx: ['email'],
  users_created_at_idx: ['created_at', 'id'],
  users_group_id_lower_name_idx: ['group_id', 'lower(name)', 'id'],
};
/** What the sort indexes carried before this migration (for `down`). */
const PREVIOUS_INCLUDES: Record<string, string> = {
  users_lower_name_idx: `name, ${USER_FLAGS.join(', ')}`,
  users_email_id_idx: `id, ${USER_FLAGS.join(', ')}`,
  users_created_at_idx: USER_FLAGS.join(', '),
  users_group_id_lower_name_idx: `name, ${USER_FLAGS.join(', ')}`,
};

/**
 * Pages of the users grid read without walking (bench/page-for-model.mjs: any page of 100 000 users).
 *
 * - The sort indexes carry every column the grid shows, so a page's rows come from the walk itself (an
 *   index-only scan) instead of a primary-key lookup per row.
 * - identity.user_list_revision counts the changes that move users in a sort or filter, in the same
 *   transaction as the change (statement triggers), so a reader sees the revision that matches the rows
 *   it sees.
 * - identity.sort_checkpoints(query, step) walks a sort once and returns its key at every `step`-th
 *   position and the number of rows. The service keeps these per sort and filter with the revision they
 *   were read at; a deep page then starts at the nearest checkpoint (`WHERE (key) >= checkpoint`) and
 *   skips fewer than `step` entries, where OFFSET alone skips tens of thousands.
 */
export class UserPages1764100000000 implements MigrationInterface {
  name = 'UserPages1764100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [index, keys] of Object.entries(SORT_INDEXES)) {
      const included = GRID_COLUMNS.filter((column) => !keys.includes(column));
      await queryRunner.query(`DROP INDEX identity.${index}`);
      await queryRunner.query(
        `CREATE INDEX ${index} ON identity.users (${keys.join(', ')}) INCLUDE (${included.join(', ')})`,
      );
    }

    // One row (the check keeps it one): the revision of the users list.
    await queryRunner.query(`
      CREATE TABLE identity.user_list_revision (
        singleton boolean NOT NULL DEFAULT true,
        revision bigint NOT NULL DEFAULT 0,
        CONSTRAINT user_list_revision_pkey PRIMARY KEY (singleton),
        CONSTRAINT user_list_revision_singleton CHECK (singleton)
      )`);
    await queryRunner.query('INSERT INTO identity.user_list_revision DEFAULT VALUES');
    // Per statement, not per row: a bulk insert bumps it once. Updates of other columns (last login,
    // tokens) leave the lists where they are and so the revision too.
    await queryRunner.query(`
      CREATE FUNCTION identity.bump_user_list_revision() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE identity.user_list_revision SET revision = revision + 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER users_list_revision AFTER INSERT OR DELETE OR UPDATE OF ${LISTED_COLUMNS.join(', ')}
      ON identity.users FOR EACH STATEMENT EXECUTE FUNCTION identity.bump_user_list_revision()`);
    await queryRunner.query(`
      CREATE TRIGGER users_list_revision_truncate AFTER TRUNCATE ON identity.users
      FOR EACH STATEMENT EXECUTE FUNCTION identity.bump_user_list_revision()`);

    // STABLE: the walk sees the calling statement's snapshot, so the checkpoints and a revision read in the
    // same statement agree. MOVE skips rows without sending them. The query is the service's own SQL
    // (fixed expressions, no caller's text), one text[] key per row; the filters' values come as $1, an
    // array (a filter on a flag reads ($1)[n]).
    await queryRunner.query(`
      CREATE FUNCTION identity.sort_checkpoints(keys_query text, step integer, filter_values boolean[],
                                                OUT total integer, OUT checkpoints text[])
      LANGUAGE plpgsql STABLE AS $$
      DECLARE
        walk refcursor;
        key text[];
        moved integer;
      BEGIN
        IF step < 1 THEN
          RAISE EXCEPTION 'sort_checkpoints: step must be at least 1, not %', step;
        END IF;
        total := 0;
        checkpoints := '{}';
        OPEN walk NO SCROLL FOR EXECUTE keys_query USING filter_values;
        LOOP
          FETCH walk INTO key;
          EXIT WHEN NOT FOUND;
          checkpoints := checkpoints || ARRAY[key];
          total := total + 1;
          -- (MOVE FORWARD 0 would stay on the row: a step of 1 moves nothing.)
          IF step > 1 THEN
            MOVE FORWARD step - 1 FROM walk;
            GET DIAGNOSTICS moved = ROW_COUNT;
            total := total + moved;
          END IF;
        END LOOP;
        CLOSE walk;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION identity.sort_checkpoints(text, integer, boolean[])');
    await queryRunner.query('DROP TRIGGER users_list_revision_truncate ON identity.users');
    await queryRunner.query('DROP TRIGGER users_list_revision ON identity.users');
    await queryRunner.query('DROP FUNCTION identity.bump_user_list_revision()');
    await queryRunner.query('DROP TABLE identity.user_list_revision');
    for (const [index, keys] of Object.entries(SORT_INDEXES)) {
      await queryRunner.query(`DROP INDEX identity.${index}`);
      await queryRunner.query(
        `CREATE INDEX ${index} ON identity.users (${keys.join(', ')}) INCLUDE (${PREVIOUS_INCLUDES[index]})`,
      );
    }
  }
}
