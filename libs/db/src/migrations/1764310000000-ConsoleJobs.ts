import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The request console's background jobs (issue 11; spec 02 §7.2 export_to_excel, createzip): one row per
 * job with its state, progress and outcome, so a poll always has an answer — after a worker died, and
 * after Redis lost the queue. The worker writes it; the service reads it.
 */
export class ConsoleJobs1764310000000 implements MigrationInterface {
  name = 'ConsoleJobs1764310000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE requests.console_jobs (
        id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
        kind text NOT NULL CONSTRAINT console_jobs_kind_check CHECK (kind IN ('xlsx', 'zip')),
        user_id uuid NOT NULL,
        state text NOT NULL DEFAULT 'queued'
          CONSTRAINT console_jobs_state_check CHECK (state IN ('queued', 'running', 'done', 'failed')),
        progress real NOT NULL DEFAULT 0,
        rows integer,
        error text,
        file_key text,
        params jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await queryRunner.query(
      'CREATE INDEX console_jobs_user_idx ON requests.console_jobs (user_id, created_at DESC)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE requests.console_jobs');
  }
}
