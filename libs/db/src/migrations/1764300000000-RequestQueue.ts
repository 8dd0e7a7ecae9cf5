import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The request queue (issue 11; spec 02 §3, §4, §7.2, §9; spec 03 §7): the console's fields on
 * `requests.requests`, the history of every change and the users' saved views.
 *
 * - `version` is bumped by every change: an edit naming an older version is refused (409), so two operators
 *   saving the same row cannot overwrite each other unseen.
 * - `preliminary_rve` is the estimate shown before a report is finalised (the report builder sets it;
 *   `rve_total` is the final one).
 * - `status_changed_at` and `delivered_at` (time in queue stops at delivery) are set by the service.
 * - Indexes for the pager over ~1 000 000 rows: the console's default sort (priority desc, created desc, id
 *   desc) with and without its default filter (SAVI, not can't locate), created both ways for a user's own
 *   list, and trigram indexes for the "contains" filters most used (address, GRiP reference, client).
 */
export class RequestQueue1764300000000 implements MigrationInterface {
  name = 'RequestQueue1764300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`
      ALTER TABLE requests.requests
        ADD COLUMN first_user_id uuid,
        ADD COLUMN first_user_name text,
        ADD COLUMN report_invoice_number text,
        ADD COLUMN report_disputed boolean NOT NULL DEFAULT false,
        ADD COLUMN report_pdf_downloaded boolean NOT NULL DEFAULT false,
        ADD COLUMN number_of_buildings integer
          CONSTRAINT requests_number_of_buildings_check CHECK (number_of_buildings >= 0),
        ADD COLUMN unit_price numeric(14, 2) CONSTRAINT requests_unit_price_check CHECK (unit_price >= 0),
        ADD COLUMN preliminary_rve numeric(14, 2),
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN delivered_at timestamptz`);
    // The GRiP reference's number was lpad(…, 6): from the millionth request on, lpad cut it to six digits
    // and references repeated. Six digits at least, more when the number needs them.
    await q(`
      CREATE FUNCTION requests.next_grip_reference() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
      DECLARE n text := nextval('requests.grip_reference_seq')::text;
      BEGIN
        RETURN 'GRP-' || to_char(now() AT TIME ZONE 'Africa/Johannesburg', 'YYMM') || '-'
               || lpad(n, greatest(6, length(n)), '0');
      END $$`);
    await q(
      'ALTER TABLE requests.requests ALTER COLUMN grip_reference SET DEFAULT requests.next_grip_reference()',
    );
    // Existing rows: their status dates from their creation, as far as anyone knows.
    await q('UPDATE requests.requests SET status_changed_at = created_at');
    await q(`
      CREATE TABLE requests.request_history (
        id bigserial PRIMARY KEY,
        request_id uuid NOT NULL REFERENCES requests.requests (id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        user_id uuid,
        user_name text,
        field text NOT NULL,
        from_value text,
        to_value text,
        comment text
      )`);
    await q('CREATE INDEX request_history_request_idx ON requests.request_history (request_id, at, id)');
    await q(`
      CREATE TABLE requests.saved_views (
        id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
        user_id uuid NOT NULL,
        name text NOT NULL,
        state jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q('CREATE UNIQUE INDEX saved_views_user_name_key ON requests.saved_views (user_id, lower(name))');

    // The pager's sorts (keyset: every sort ends in id).
    await q(`CREATE INDEX requests_priority_created_idx
             ON requests.requests (priority DESC, created_at DESC, id DESC)`);
    await q(`CREATE INDEX requests_default_filter_idx
             ON requests.requests (request_type, cant_locate, priority DESC, created_at DESC, id DESC)`);
    await q('CREATE INDEX requests_user_created_id_idx ON requests.requests (user_id, created_at, id)');
    await q(
      'CREATE INDEX requests_status_created_id_idx ON requests.requests (status, created_at DESC, id DESC)',
    );
    // "Contains" filters (ILIKE '%…%').
    await q('CREATE INDEX requests_address_trgm_idx ON requests.requests USING gin (address gin_trgm_ops)');
    await q(`CREATE INDEX requests_grip_reference_trgm_idx
             ON requests.requests USING gin (grip_reference gin_trgm_ops)`);
    await q(
      'CREATE INDEX requests_group_name_trgm_idx ON requests.requests USING gin (group_name gin_trgm_ops)',
    );
    await q(`CREATE INDEX requests_reference_string_trgm_idx
             ON requests.requests USING gin (reference_string gin_trgm_ops)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    for (const index of [
      'requests_reference_string_trgm_idx',
      'requests_group_name_trgm_idx',
      'requests_grip_reference_trgm_idx',
      'requests_address_trgm_idx',
      'requests_status_created_id_idx',
      'requests_user_created_id_idx',
      'requests_default_filter_idx',
      'requests_priority_created_idx',
    ])
      await q(`DROP INDEX requests.${index}`);
    await q(`ALTER TABLE requests.requests ALTER COLUMN grip_reference SET DEFAULT 'GRP-'
               || to_char(now() AT TIME ZONE 'Africa/Johannesburg', 'YYMM') || '-'
               || lpad(nextval('requests.grip_reference_seq')::text, 6, '0')`);
    await q('DROP FUNCTION requests.next_grip_reference()');
    await q('DROP TABLE requests.saved_views');
    await q('DROP TABLE requests.request_history');
    await q(`
      ALTER TABLE requests.requests
        DROP COLUMN first_user_id,
        DROP COLUMN first_user_name,
        DROP COLUMN report_invoice_number,
        DROP COLUMN report_disputed,
        DROP COLUMN report_pdf_downloaded,
        DROP COLUMN number_of_buildings,
        DROP COLUMN unit_price,
        DROP COLUMN preliminary_rve,
        DROP COLUMN version,
        DROP COLUMN status_changed_at,
        DROP COLUMN delivered_at`);
  }
}
