import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Dated imagery in IRiS (issue 21): the aerial picture a report's PDF shows is printed with its capture
 * date, so the report keeps which survey (a row of geo.imagery_coverage) the chosen picture came from and
 * that survey's capture date. The date is copied, not joined: the PDF of a report says what the picture
 * was when it was chosen, whatever later happens to the coverage table.
 */
export class IrisAerialSurvey1764736000000 implements MigrationInterface {
  name = 'IrisAerialSurvey1764736000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE iris.reports
        ADD COLUMN aerial_survey_id bigint,
        ADD COLUMN aerial_captured_on date`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE iris.reports DROP COLUMN aerial_captured_on, DROP COLUMN aerial_survey_id`);
  }
}
