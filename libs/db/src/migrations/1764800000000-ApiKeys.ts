import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * API keys (issue 22): machines call the portal with `Authorization: Bearer ppk_…`. A key belongs to a
 * group and acts through an account row of its own (`identity.users.kind = 'apiKey'`): the requests it
 * logs are that account's, its calls are audited under it, and every service's "who is calling" read
 * (server-kit's caller hook) works for it unchanged. Such a row has no usable password (it can never log
 * in) and is never listed among the group's people.
 *
 * Only the SHA-256 of a key is stored (keys are 256 random bits, so a fast hash is enough: there is no
 * dictionary to guess from); the first 12 characters (`prefix`) are kept to tell keys apart in lists.
 * `services` narrows the group's services for the key, `scope` says whether it may change anything,
 * `roles` are staff roles an administrator gave the key (the operations team's own automation).
 * `last_used_at` and `use_count` are written by the usage meter's flush, not on every call.
 *
 * `identity.groups.api_rate_limit_per_minute` is the group's limit per key (null: the portal's default).
 */
export class ApiKeys1764800000000 implements MigrationInterface {
  name = 'ApiKeys1764800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE identity.users
        ADD COLUMN kind text NOT NULL DEFAULT 'person'
          CONSTRAINT users_kind_known CHECK (kind IN ('person', 'apiKey'))`);
    await queryRunner.query(`
      ALTER TABLE identity.groups
        ADD COLUMN api_rate_limit_per_minute integer
          CONSTRAINT groups_api_rate_limit_positive CHECK (api_rate_limit_per_minute > 0)`);
    await queryRunner.query(`
      CREATE TABLE identity.api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        group_id uuid NOT NULL REFERENCES identity.groups(id) ON DELETE CASCADE,
        user_id uuid NOT NULL UNIQUE REFERENCES identity.users(id) ON DELETE CASCADE,
        name text NOT NULL CONSTRAINT api_keys_name_given CHECK (length(btrim(name)) BETWEEN 1 AND 100),
        prefix text NOT NULL UNIQUE,
        secret_hash text NOT NULL UNIQUE,
        services text[] NOT NULL
          CONSTRAINT api_keys_services_known
          CHECK (services <@ ARRAY['avs', 'iris', 'savi', 'spatialkey']::text[] AND cardinality(services) > 0),
        scope text NOT NULL CONSTRAINT api_keys_scope_known CHECK (scope IN ('read', 'write')),
        roles text[] NOT NULL DEFAULT '{}'
          CONSTRAINT api_keys_roles_known CHECK (roles <@ ARRAY['admin', 'saviOperator', 'saviQC']::text[]),
        created_by uuid REFERENCES identity.users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        revoked_by uuid REFERENCES identity.users(id) ON DELETE SET NULL,
        last_used_at timestamptz,
        use_count bigint NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(
      `CREATE INDEX api_keys_group_idx ON identity.api_keys (group_id, created_at DESC)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM identity.users WHERE kind = 'apiKey'`);
    await queryRunner.query(`DROP TABLE identity.api_keys`);
    await queryRunner.query(`ALTER TABLE identity.groups DROP COLUMN api_rate_limit_per_minute`);
    await queryRunner.query(`ALTER TABLE identity.users DROP COLUMN kind`);
  }
}
