import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The SAVi report builder (issue 13; spec 02 §3), schema `reportbuilder` (its `rates` table is
 * services-admin's, migration 1763800000000):
 *
 * - `reports`: one per request — the sections (jsonb: an array of [section ID, section] in the report's
 *   order, since a jsonb object does not keep its keys' order),
 *   the report details the builder edits (location, suburb, town, province, suburbTownCity, coordinates,
 *   vatPercentage), the extra field, comments and note, the totals of the last save (for the versions) and
 *   `version` for optimistic concurrency, with who saved it last.
 * - `report_edits`: who saved what when (one row per save, written in the save's transaction).
 * - `report_versions`: one row per submission (issue 13 "Beyond the spec": QC sees what changed since the
 *   last one). Written by a deferred trigger on requests.requests when a request moves to 'QC check'
 *   (services/requests' submit): the report as it is at that commit, with the user of the status change's
 *   history row. No cross-service call, and a submission without its version cannot happen.
 */
export class ReportBuilder1764500000000 implements MigrationInterface {
  name = 'ReportBuilder1764500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SCHEMA IF NOT EXISTS reportbuilder');
    await queryRunner.query(`
      CREATE TABLE reportbuilder.reports (
        request_id uuid NOT NULL PRIMARY KEY REFERENCES requests.requests (id) ON DELETE CASCADE,
        sections jsonb NOT NULL DEFAULT '[]'::jsonb
          CONSTRAINT reports_sections_is_array CHECK (jsonb_typeof(sections) = 'array'),
        details jsonb NOT NULL DEFAULT '{}'::jsonb
          CONSTRAINT reports_details_is_object CHECK (jsonb_typeof(details) = 'object'),
        extra_include boolean NOT NULL DEFAULT false,
        extra_description text,
        extra_value numeric(14, 2) NOT NULL DEFAULT 0,
        comments text NOT NULL DEFAULT '',
        comments_user_id uuid,
        note text NOT NULL DEFAULT '',
        note_user_id uuid,
        totals jsonb,
        version integer NOT NULL DEFAULT 1 CONSTRAINT reports_version_positive CHECK (version > 0),
        updated_by uuid,
        updated_by_name text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE reportbuilder.report_edits (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        request_id uuid NOT NULL REFERENCES reportbuilder.reports (request_id) ON DELETE CASCADE,
        version integer NOT NULL,
        what text NOT NULL,
        user_id uuid,
        user_name text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      'CREATE INDEX report_edits_request_idx ON reportbuilder.report_edits (request_id, version)',
    );

    await queryRunner.query(`
      CREATE TABLE reportbuilder.report_versions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        request_id uuid NOT NULL REFERENCES reportbuilder.reports (request_id) ON DELETE CASCADE,
        number integer NOT NULL,
        report_version integer NOT NULL,
        sections jsonb NOT NULL,
        details jsonb NOT NULL,
        extra_include boolean NOT NULL,
        extra_description text,
        extra_value numeric(14, 2) NOT NULL,
        comments text NOT NULL,
        note text NOT NULL,
        totals jsonb,
        submitted_by uuid,
        submitted_by_name text,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT report_versions_number_key UNIQUE (request_id, number)
      )`);

    // At the commit of a move to 'QC check' (deferred, so the status change's history row is there to say
    // who submitted): the report as it is then becomes the next version. A request without a report (never
    // saved) keeps none.
    await queryRunner.query(`
      CREATE FUNCTION reportbuilder.keep_submitted_version() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        who record;
      BEGIN
        IF NEW.status IS DISTINCT FROM 'QC check' THEN RETURN NULL; END IF;
        SELECT h.user_id, h.user_name INTO who FROM requests.request_history h
         WHERE h.request_id = NEW.id AND h.field = 'status' AND h.to_value = 'QC check'
         ORDER BY h.at DESC, h.id DESC LIMIT 1;
        INSERT INTO reportbuilder.report_versions (request_id, number, report_version, sections, details,
          extra_include, extra_description, extra_value, comments, note, totals, submitted_by, submitted_by_name)
        SELECT r.request_id,
               COALESCE((SELECT max(v.number) FROM reportbuilder.report_versions v WHERE v.request_id = r.request_id), 0) + 1,
               r.version, r.sections, r.details, r.extra_include, r.extra_description, r.extra_value, r.comments,
               r.note, r.totals, who.user_id, who.user_name
          FROM reportbuilder.reports r
         WHERE r.request_id = NEW.id
           -- the same report submitted twice in one transaction is one version
           AND NOT EXISTS (SELECT 1 FROM reportbuilder.report_versions v
                            WHERE v.request_id = r.request_id AND v.report_version = r.version
                              AND v.submitted_at = now());
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER requests_keep_report_version AFTER UPDATE OF status ON requests.requests
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.status = 'QC check' AND OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION reportbuilder.keep_submitted_version()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER IF EXISTS requests_keep_report_version ON requests.requests');
    await queryRunner.query('DROP FUNCTION IF EXISTS reportbuilder.keep_submitted_version()');
    await queryRunner.query('DROP TABLE IF EXISTS reportbuilder.report_versions');
    await queryRunner.query('DROP TABLE IF EXISTS reportbuilder.report_edits');
    await queryRunner.query('DROP TABLE IF EXISTS reportbuilder.reports');
  }
}
