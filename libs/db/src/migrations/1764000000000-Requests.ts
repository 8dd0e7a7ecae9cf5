import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Requests logged by the request tool, the can't-locate screen and IRiS (schema `requests`, written by
 * services/requests): spec 01 §3 "Request form", spec 02 §3 and spec 03 §3.
 *
 * - The requesting user and their group are copied onto the row (id, name, e-mail; id, name, code) and
 *   the ids are not foreign keys: deleting a user or a group must never delete or orphan-break their
 *   requests, and the request list shows who asked as they were when they asked.
 * - `grip_reference` is the human-readable reference, 'GRP-YYMM-NNNNNN': the South African month of
 *   creation and a number from one sequence (unique by itself; six digits, more when it passes 999 999).
 *   Digits and one prefix only, so it is read out and typed without confusing O/0 or I/1.
 * - `point` is the request's location (coordinates) for the mapping service; `parcel_geom` the parcel
 *   outline, both EPSG:4326. What the form sends as GeoJSON or nested objects is kept as jsonb.
 * - `idempotency_key` is unique per user: a retried submission finds its first row instead of adding one.
 *
 * No TypeORM entity: rows are written and read with SQL (PostGIS), like the geo schema; the schema builder
 * leaves tables it has no entity for alone.
 */
export class Requests1764000000000 implements MigrationInterface {
  name = 'Requests1764000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('CREATE SCHEMA requests');
    await q('CREATE SEQUENCE requests.grip_reference_seq AS bigint');
    await q(`
      CREATE TABLE requests.requests (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        grip_reference text NOT NULL DEFAULT 'GRP-'
          || to_char(now() AT TIME ZONE 'Africa/Johannesburg', 'YYMM') || '-'
          || lpad(nextval('requests.grip_reference_seq')::text, 6, '0'),
        request_type text NOT NULL,
        request_sub_type text,
        status text NOT NULL DEFAULT 'New',
        user_id uuid NOT NULL,
        user_name text NOT NULL,
        user_email text NOT NULL,
        group_id uuid,
        group_name text,
        group_code text,
        for_group_id uuid,
        claims_user boolean NOT NULL DEFAULT false,
        searched_for text,
        mode text,
        form_type text,
        -- The address as one line, for lists, the map's popups and searching (from the form's fields).
        address text NOT NULL DEFAULT '',
        selected_address jsonb,
        alternative_addresses jsonb NOT NULL DEFAULT '[]',
        lat double precision,
        lng double precision,
        point geometry(Point, 4326),
        coordinate_array jsonb,
        cant_locate boolean NOT NULL DEFAULT false,
        geojson jsonb,
        map_view jsonb,
        reference jsonb NOT NULL DEFAULT '{}',
        reference_string text NOT NULL DEFAULT '',
        additional text NOT NULL DEFAULT '',
        needs_update boolean NOT NULL DEFAULT false,
        selected jsonb,
        parcel_id text,
        parcel jsonb,
        parcel_geom geometry(MultiPolygon, 4326),
        used_idan boolean NOT NULL DEFAULT false,
        image_urls jsonb,
        query text,
        priority boolean NOT NULL DEFAULT false,
        report_pdf_url text,
        report_id text,
        date_finalised timestamptz,
        rve_total numeric(14, 2),
        property_type text,
        idempotency_key text,
        request_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT requests_pkey PRIMARY KEY (id),
        CONSTRAINT requests_grip_reference_key UNIQUE (grip_reference),
        CONSTRAINT requests_request_type_check CHECK (request_type IN ('SAVI', 'AVS', 'IRIS')),
        CONSTRAINT requests_request_sub_type_check CHECK (request_sub_type IN
          ('Replacement Value Estimate', 'Building Size Calculation', 'Can''t Locate', 'Report')),
        CONSTRAINT requests_status_check CHECK (status IN ('New', 'Ready for QS', 'In progress', 'Pending',
          'Cancelled_rejected', 'QC check', 'Query', 'Dispatch', 'Delivered', 'Finalised')),
        CONSTRAINT requests_coordinates_check CHECK ((lat IS NULL) = (lng IS NULL)
          AND (lat IS NULL OR (lat BETWEEN -90 AND 90 AND lng BETWEEN -180 AND 180))),
        CONSTRAINT requests_reference_is_object CHECK (jsonb_typeof(reference) = 'object'),
        CONSTRAINT requests_alternative_addresses_is_array CHECK (jsonb_typeof(alternative_addresses) = 'array')
      )`);
    // A retry of the same submission (same user, same key) finds the first row.
    await q(`CREATE UNIQUE INDEX requests_user_idempotency_key ON requests.requests (user_id, idempotency_key)
             WHERE idempotency_key IS NOT NULL`);
    // The request list (spec 02 pager: newest first, by status, type, user, group) and the mapping service.
    await q('CREATE INDEX requests_created_at_idx ON requests.requests (created_at DESC, id DESC)');
    await q('CREATE INDEX requests_status_idx ON requests.requests (status, created_at DESC)');
    await q('CREATE INDEX requests_user_id_idx ON requests.requests (user_id, created_at DESC)');
    await q('CREATE INDEX requests_group_id_idx ON requests.requests (group_id, created_at DESC)');
    await q('CREATE INDEX requests_request_type_idx ON requests.requests (request_type, created_at DESC)');
    await q('CREATE INDEX requests_point_idx ON requests.requests USING gist (point)');
    await q('CREATE INDEX requests_parcel_geom_idx ON requests.requests USING gist (parcel_geom)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA requests CASCADE');
  }
}
