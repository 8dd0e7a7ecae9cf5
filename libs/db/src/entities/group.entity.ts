import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { IDENTITY_SCHEMA, numericAsNumber } from './transformers';
import { UserEntity } from './user.entity';

/**
 * A customer organisation (spec 03 §3 Group). Its users share its services, its fee settings and the
 * reference fields of the request form.
 */
@Entity({ schema: IDENTITY_SCHEMA, name: 'groups' })
@Unique('groups_code_key', ['code'])
@Check('groups_references_is_array', `jsonb_typeof("references") = 'array'`)
@Check('groups_claims_references_is_array', `jsonb_typeof(claims_references) = 'array'`)
@Check('groups_api_rate_limit_positive', `api_rate_limit_per_minute > 0`)
@Index('groups_admin_user_id_idx', ['adminUserId'])
// Created by the migration (GIN, pg_trgm) for the groups grid's "contains" filter. TypeORM cannot
// describe such an index; `synchronize: false` tells it to leave the index alone.
@Index('groups_name_trgm_idx', { synchronize: false })
// The groups grid's name sort (case-insensitive), also created by a migration.
@Index('groups_lower_name_idx', { synchronize: false })
export class GroupEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'groups_pkey' })
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  code: string;

  @Column('uuid', { name: 'admin_user_id', nullable: true })
  adminUserId: string | null;

  @ManyToOne(() => UserEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'admin_user_id', foreignKeyConstraintName: 'groups_admin_user_id_fkey' })
  admin?: Relation<UserEntity> | null;

  @Column('boolean', { default: true })
  active: boolean;

  @Column('boolean', { name: 'include_vat', default: false })
  includeVAT: boolean;

  @Column('boolean', { name: 'include_professional_fee', default: false })
  includeProfessionalFee: boolean;

  @Column('numeric', {
    name: 'professional_fee_percentage',
    precision: 6,
    scale: 2,
    default: 0,
    transformer: numericAsNumber,
  })
  professionalFeePercentage: number;

  @Column('numeric', { name: 'double_volume_percent', default: 0, transformer: numericAsNumber })
  doubleVolumePercent: number;

  @Column('text', { name: 'extra_field', default: 'Betterments' })
  extraField: string;

  @Column('text', { name: 'report_name_format', default: '' })
  reportNameFormat: string;

  /**
   * Reference fields of the request form (spec 01 §3): `[label, key, position, required, regex, message,
   * hidden?]`; the groups grid makes the short form `[label, key, position, true]` (spec 03 §3).
   */
  @Column('jsonb', { name: 'references', default: [] })
  references: unknown[][];

  /** Same format as `references`, used instead of them for claims users. */
  @Column('jsonb', { name: 'claims_references', default: [] })
  claimsReferences: unknown[][];

  /** The group's limit of calls per minute per API key; null: the portal's default (issue 22). */
  @Column('integer', { name: 'api_rate_limit_per_minute', nullable: true })
  apiRateLimitPerMinute: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
