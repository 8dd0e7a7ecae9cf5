import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * IRiS reports (issue 12; spec 03 §3 "IRiS report", §4) and the PDF job records shared by every PDF the
 * portal renders (libs/pdf-jobs: IRiS now, the SAVi report next).
 *
 * - `iris.reports`: one per IRIS request; the computed risk data (jsonb, the contract's IrisReportData),
 *   the imagery step (high-resolution status with its counts, the chosen aerial view's stored picture) and
 *   the PDF version the next generate makes (regenerate bumps it).
 * - `pdf.jobs`: one row per PDF job, keyed `{kind}:{subject}:v{version}` — the same id as the BullMQ job —
 *   so generating a version twice queues it once and a rerun after a killed worker writes the same file.
 *   State, progress, attempts and the outcome live here so a poll is answered from PostgreSQL, after a
 *   worker died and after Redis lost the queue.
 */
export class IrisReports1764410000000 implements MigrationInterface {
  name = 'IrisReports1764410000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS iris');
    await queryRunner.query(`
      CREATE TABLE iris.reports (
        id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
        request_id uuid NOT NULL CONSTRAINT reports_request_unique UNIQUE
          REFERENCES requests.requests (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        lat double precision NOT NULL,
        lng double precision NOT NULL,
        data jsonb NOT NULL,
        high_res_status smallint CONSTRAINT reports_high_res_check CHECK (high_res_status IN (0, 1, 2)),
        high_res_counts jsonb,
        aerial_view text,
        aerial_key text,
        imagery_at timestamptz,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX reports_user_idx ON iris.reports (user_id, created_at DESC)');

    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS pdf');
    await queryRunner.query(`
      CREATE TABLE pdf.jobs (
        id text NOT NULL PRIMARY KEY,
        kind text NOT NULL,
        subject_id uuid NOT NULL,
        version integer NOT NULL,
        user_id uuid,
        state text NOT NULL DEFAULT 'queued'
          CONSTRAINT jobs_state_check CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
        progress real NOT NULL DEFAULT 0,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        file_key text,
        bytes integer,
        payload jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        CONSTRAINT jobs_subject_version_unique UNIQUE (kind, subject_id, version)
      )`);
    await queryRunner.query('CREATE INDEX jobs_state_idx ON pdf.jobs (state, created_at)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS pdf CASCADE');
    await queryRunner.query('DROP SCHEMA IF EXISTS iris CASCADE');
  }
}
