import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Usage metering (issue 22): what each group used, per service, day (SAST), metric and source (an API
 * key's id, or 'session' for people). Written by server-kit's meter (libs/server-kit/src/metering.ts), read
 * by services-admin's usage API and its invoicing export.
 *
 * `usage_daily` holds the totals. `group_id` is null for callers without a group (staff, administrators):
 * kept so the operators see all use, never on a group's invoice. No foreign key on the group: usage stays
 * (and can still be invoiced) after a group is deleted; `source` is text for the same reason.
 *
 * `process_totals` makes the counting exact across a killed process: each process journals its running
 * totals in Redis and records here, in the same transaction as it adds to `usage_daily`, how much of each
 * total it has added so far. Whoever adds later (the process's next flush, or another process recovering
 * the journal of a dead one) adds only the part above `flushed` and moves `flushed` up — never down.
 */
export class UsageMetering1764810000000 implements MigrationInterface {
  name = 'UsageMetering1764810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS metering`);
    await queryRunner.query(`
      CREATE TABLE metering.usage_daily (
        group_id uuid,
        service text NOT NULL,
        day date NOT NULL,
        metric text NOT NULL CONSTRAINT usage_daily_metric_known CHECK (metric IN (
          'geocode', 'search', 'reverse', 'validation', 'validation_row', 'parcel_tile',
          'imagery_picture', 'iris_report', 'pdf', 'savi_request')),
        source text NOT NULL,
        count bigint NOT NULL CONSTRAINT usage_daily_count_positive CHECK (count >= 0),
        CONSTRAINT usage_daily_unit UNIQUE NULLS NOT DISTINCT (group_id, service, day, metric, source)
      )`);
    // The usage API reads a month, of one group or of all.
    await queryRunner.query(`CREATE INDEX usage_daily_day_idx ON metering.usage_daily (day, group_id)`);
    await queryRunner.query(`
      CREATE TABLE metering.process_totals (
        process_id text NOT NULL,
        field text NOT NULL,
        flushed bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (process_id, field)
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA metering CASCADE`);
  }
}
