import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The report builder's uploaded images (issue 13; spec 02 §2.1 image-upload, §7.1 upload, image/rearrange,
 * image/thumbnails): `reportbuilder.report_images`, one row per request holding `uploads`, the file names
 * of the request's uploaded pictures (jsonb array, in the order the screens show them). The pictures
 * themselves are objects of the storage interface (reportbuilder/uploads/{requestID}/…); the row is only
 * their order, changed under the request's row lock. Kept apart from `reports` so that an upload neither
 * creates a report nor moves its version.
 */
export class ReportImages1764510000000 implements MigrationInterface {
  name = 'ReportImages1764510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE reportbuilder.report_images (
        request_id uuid NOT NULL PRIMARY KEY REFERENCES requests.requests (id) ON DELETE CASCADE,
        uploads jsonb NOT NULL DEFAULT '[]'::jsonb
          CONSTRAINT report_images_uploads_is_array CHECK (jsonb_typeof(uploads) = 'array'),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS reportbuilder.report_images');
  }
}
