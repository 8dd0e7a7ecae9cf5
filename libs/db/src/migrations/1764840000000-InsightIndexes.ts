import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The operations dashboard at 1 000 000 requests (issue 24; services/requests/src/insight, bench/insight.mjs):
 *
 * - the status lines of a period: the history read by time, status lines only, carrying what the figures
 *   read (the request, who, from and to), so a year of them is one index range;
 * - the late list: requests by status and the time they entered it (each status's range up to its target);
 * - the PDF and export jobs that ended in a period.
 */
export class InsightIndexes1764840000000 implements MigrationInterface {
  name = 'InsightIndexes1764840000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`CREATE INDEX request_history_status_at_idx ON requests.request_history (at)
               INCLUDE (request_id, id, from_value, to_value, user_id, user_name) WHERE field = 'status'`);
    await q('CREATE INDEX requests_status_changed_idx ON requests.requests (status, status_changed_at)');
    await q('CREATE INDEX jobs_finished_idx ON pdf.jobs (finished_at) WHERE finished_at IS NOT NULL');
    await q(`CREATE INDEX console_jobs_finished_idx ON requests.console_jobs (finished_at)
               WHERE finished_at IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('DROP INDEX requests.console_jobs_finished_idx');
    await q('DROP INDEX pdf.jobs_finished_idx');
    await q('DROP INDEX requests.requests_status_changed_idx');
    await q('DROP INDEX requests.request_history_status_at_idx');
  }
}
