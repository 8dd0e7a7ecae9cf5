import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The operations dashboard (issue 24): the requests created in a period, counted per day, type, sub-type
 * and group, and the backlog's current statuses, read index-only (bench/insight.mjs: a year of 1 000 000
 * requests was a heap scan of the wide request rows).
 */
export class InsightCreatedIndex1764850000000 implements MigrationInterface {
  name = 'InsightCreatedIndex1764850000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX requests_created_insight_idx ON requests.requests (created_at)
                               INCLUDE (request_type, request_sub_type, group_id, status)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX requests.requests_created_insight_idx');
  }
}
