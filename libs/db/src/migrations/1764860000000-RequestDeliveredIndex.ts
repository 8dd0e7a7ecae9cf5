import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The request pager's time-in-queue sort at 5 000 000 requests (issue 23; bench/request-pager.mjs
 * --requests 5000000): whether any match of a filter is delivered decides how that sort is read (a walk of
 * the creation index while none is; time in queue stops at delivery). The check was an EXISTS over every
 * request without a delivered one — a scan of the whole table, past the statement timeout at 5 M (the
 * page answered 500). The delivered requests' own index answers it from the delivered rows alone.
 */
export class RequestDeliveredIndex1764860000000 implements MigrationInterface {
  name = 'RequestDeliveredIndex1764860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX requests_delivered_idx ON requests.requests (delivered_at)
                               WHERE delivered_at IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX requests.requests_delivered_idx');
  }
}
