import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A group's name places its users in the users grid too: the groupName filters select users by it and the
 * groupName sort orders them by it. services-admin keeps the sorted matches of a filter with the users
 * list's revision (services/services-admin/src/page-for-model/kept-lists.ts), so adding, renaming or deleting a group bumps that
 * revision as well, in the same transaction as the change.
 */
export class GroupListRevision1764200000000 implements MigrationInterface {
  name = 'GroupListRevision1764200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TRIGGER groups_user_list_revision AFTER INSERT OR DELETE OR UPDATE OF name
      ON identity.groups FOR EACH STATEMENT EXECUTE FUNCTION identity.bump_user_list_revision()`);
    await queryRunner.query(`
      CREATE TRIGGER groups_user_list_revision_truncate AFTER TRUNCATE ON identity.groups
      FOR EACH STATEMENT EXECUTE FUNCTION identity.bump_user_list_revision()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER groups_user_list_revision_truncate ON identity.groups');
    await queryRunner.query('DROP TRIGGER groups_user_list_revision ON identity.groups');
  }
}
