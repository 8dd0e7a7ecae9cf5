import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { requireExtensions } from './extensions';

/**
 * The identity schema: users, groups, services, their links, password reset tokens and the audit trail.
 * Constraint and index names are spelled out and match the entities, so TypeORM sees no schema drift.
 */
export class Initial1763700000000 implements MigrationInterface {
  name = 'Initial1763700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // postgis for the locator's geometry, pg_trgm for the admin grids' "contains" filters.
    // gen_random_uuid() is built into PostgreSQL 13+, so pgcrypto is not needed.
    await requireExtensions(queryRunner, ['postgis', 'pg_trgm']);
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');

    await queryRunner.query('CREATE SCHEMA identity');

    await queryRunner.query(`
      CREATE TABLE identity.groups (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        code text NOT NULL,
        admin_user_id uuid,
        active boolean NOT NULL DEFAULT true,
        include_vat boolean NOT NULL DEFAULT false,
        include_professional_fee boolean NOT NULL DEFAULT false,
        professional_fee_percentage numeric(6,2) NOT NULL DEFAULT 0,
        double_volume_percent numeric NOT NULL DEFAULT 0,
        extra_field text NOT NULL DEFAULT 'Betterments',
        report_name_format text NOT NULL DEFAULT '',
        "references" jsonb NOT NULL DEFAULT '[]',
        claims_references jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT groups_pkey PRIMARY KEY (id),
        CONSTRAINT groups_code_key UNIQUE (code),
        CONSTRAINT groups_references_is_array CHECK (jsonb_typeof("references") = 'array'),
        CONSTRAINT groups_claims_references_is_array CHECK (jsonb_typeof(claims_references) = 'array')
      )`);

    await queryRunner.query(`
      CREATE TABLE identity.users (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL DEFAULT 'Anonymous',
        email text NOT NULL,
        password_hash text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        is_admin boolean NOT NULL DEFAULT false,
        rates_editor boolean NOT NULL DEFAULT false,
        savi_operator boolean NOT NULL DEFAULT false,
        savi_qc boolean NOT NULL DEFAULT false,
        claims_user boolean NOT NULL DEFAULT false,
        include_ids boolean NOT NULL DEFAULT false,
        include_all boolean NOT NULL DEFAULT false,
        avs_service_url text NOT NULL DEFAULT '',
        group_id uuid,
        tokens_valid_after timestamptz,
        last_login_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_pkey PRIMARY KEY (id),
        CONSTRAINT users_email_key UNIQUE (email),
        CONSTRAINT users_email_is_normalised CHECK (email = lower(btrim(email))),
        CONSTRAINT users_group_id_fkey FOREIGN KEY (group_id) REFERENCES identity.groups (id) ON DELETE RESTRICT
      )`);
    await queryRunner.query('CREATE INDEX users_group_id_idx ON identity.users (group_id)');
    await queryRunner.query(
      'CREATE INDEX users_name_trgm_idx ON identity.users USING gin (name gin_trgm_ops)',
    );
    await queryRunner.query(
      'CREATE INDEX users_email_trgm_idx ON identity.users USING gin (email gin_trgm_ops)',
    );

    // Added after users exists: groups and users point at each other.
    await queryRunner.query(`
      ALTER TABLE identity.groups
        ADD CONSTRAINT groups_admin_user_id_fkey
        FOREIGN KEY (admin_user_id) REFERENCES identity.users (id) ON DELETE SET NULL`);
    await queryRunner.query('CREATE INDEX groups_admin_user_id_idx ON identity.groups (admin_user_id)');
    await queryRunner.query(
      'CREATE INDEX groups_name_trgm_idx ON identity.groups USING gin (name gin_trgm_ops)',
    );

    await queryRunner.query(`
      CREATE TABLE identity.services (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        identifier text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        url text NOT NULL DEFAULT '',
        image text NOT NULL DEFAULT '',
        active boolean NOT NULL DEFAULT true,
        config jsonb NOT NULL,
        CONSTRAINT services_pkey PRIMARY KEY (id),
        CONSTRAINT services_identifier_key UNIQUE (identifier)
      )`);

    await queryRunner.query(`
      CREATE TABLE identity.user_services (
        user_id uuid NOT NULL,
        service_id uuid NOT NULL,
        CONSTRAINT user_services_pkey PRIMARY KEY (user_id, service_id),
        CONSTRAINT user_services_user_id_fkey FOREIGN KEY (user_id) REFERENCES identity.users (id) ON DELETE CASCADE,
        CONSTRAINT user_services_service_id_fkey FOREIGN KEY (service_id) REFERENCES identity.services (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      'CREATE INDEX user_services_service_id_idx ON identity.user_services (service_id)',
    );

    await queryRunner.query(`
      CREATE TABLE identity.group_services (
        group_id uuid NOT NULL,
        service_id uuid NOT NULL,
        CONSTRAINT group_services_pkey PRIMARY KEY (group_id, service_id),
        CONSTRAINT group_services_group_id_fkey FOREIGN KEY (group_id) REFERENCES identity.groups (id) ON DELETE CASCADE,
        CONSTRAINT group_services_service_id_fkey FOREIGN KEY (service_id) REFERENCES identity.services (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      'CREATE INDEX group_services_service_id_idx ON identity.group_services (service_id)',
    );

    await queryRunner.query(`
      CREATE TABLE identity.password_reset_tokens (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        token_hash text NOT NULL,
        purpose text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT password_reset_tokens_pkey PRIMARY KEY (id),
        CONSTRAINT password_reset_tokens_token_hash_key UNIQUE (token_hash),
        CONSTRAINT password_reset_tokens_purpose_check CHECK (purpose IN ('reset-link', 'callback')),
        CONSTRAINT password_reset_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES identity.users (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      'CREATE INDEX password_reset_tokens_user_id_idx ON identity.password_reset_tokens (user_id)',
    );

    await queryRunner.query(`
      CREATE TABLE identity.audit_records (
        id bigint GENERATED ALWAYS AS IDENTITY,
        created_at timestamptz NOT NULL DEFAULT now(),
        message text NOT NULL,
        details jsonb,
        user_name text,
        user_email text,
        user_id text,
        actor_user_id uuid,
        entity text,
        entity_id text,
        before jsonb,
        after jsonb,
        ip text,
        CONSTRAINT audit_records_pkey PRIMARY KEY (id)
      )`);
    await queryRunner.query(
      'CREATE INDEX audit_records_created_at_idx ON identity.audit_records (created_at)',
    );
    await queryRunner.query(
      'CREATE INDEX audit_records_entity_idx ON identity.audit_records (entity, entity_id)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Tables are dropped one by one (no CASCADE) so that objects of later migrations that still depend
    // on them make this fail loudly instead of disappearing silently.
    await queryRunner.query('DROP TABLE identity.audit_records');
    await queryRunner.query('DROP TABLE identity.password_reset_tokens');
    await queryRunner.query('DROP TABLE identity.group_services');
    await queryRunner.query('DROP TABLE identity.user_services');
    await queryRunner.query('DROP TABLE identity.services');
    await queryRunner.query('ALTER TABLE identity.groups DROP CONSTRAINT groups_admin_user_id_fkey');
    await queryRunner.query('DROP TABLE identity.users');
    await queryRunner.query('DROP TABLE identity.groups');
    await queryRunner.query('DROP SCHEMA identity');
    // The extensions stay: they are created IF NOT EXISTS, so they may predate this migration, and
    // dropping postgis would take other schemas' geometry columns with it.
  }
}
