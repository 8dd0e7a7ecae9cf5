import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The operations dashboard's late list for one group (issue 24; services/requests/src/insight/store.ts
 * lateRequests): each status's late requests of the group, in the order they entered the status, as one
 * index range. Without it each status's range (a tenth of the requests) was ANDed with the group's
 * requests: the busiest group's page took 45–50 ms of a 70–120 ms answer at 1 000 000 requests, and the
 * late count's recent part 12 ms; with it 0.6 ms and 1.2 ms (bench/README.md "Operations dashboard"). A
 * request's status and status_changed_at are indexed already (requests_status_changed_idx), so a status
 * change updated an index entry before; this adds a second.
 */
export class InsightLateGroupIndex1764877000000 implements MigrationInterface {
  name = 'InsightLateGroupIndex1764877000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS requests_group_status_changed_idx
                               ON requests.requests (group_id, status, status_changed_at)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX requests.requests_group_status_changed_idx');
  }
}
