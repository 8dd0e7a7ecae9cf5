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
import { GroupEntity } from './group.entity';
import { IDENTITY_SCHEMA, normalisedEmail } from './transformers';

/** A portal account (spec 01 §3 User, spec 03 §3 User). Roles are derived from the flags. */
@Entity({ schema: IDENTITY_SCHEMA, name: 'users' })
@Unique('users_email_key', ['email'])
@Check('users_email_is_normalised', `email = lower(btrim(email))`)
@Check('users_kind_known', `kind IN ('person', 'apiKey')`)
@Index('users_group_id_idx', [
  'groupId',
  'active',
  'isAdmin',
  'ratesEditor',
  'saviOperator',
  'saviQC',
  'claimsUser',
])
// The users grid's indexes, created by the migrations: GIN (pg_trgm) for its "contains" filters and
// btree with expressions and INCLUDE columns for its sorts (TypeORM can describe neither).
@Index('users_name_trgm_idx', { synchronize: false })
@Index('users_email_trgm_idx', { synchronize: false })
@Index('users_lower_name_idx', { synchronize: false })
@Index('users_email_id_idx', { synchronize: false })
@Index('users_created_at_idx', { synchronize: false })
@Index('users_group_id_lower_name_idx', { synchronize: false })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'users_pkey' })
  id: string;

  @Column('text', { default: 'Anonymous' })
  name: string;

  @Column('text', { transformer: normalisedEmail })
  email: string;

  /** argon2id PHC string (see passwords.ts). */
  @Column('text', { name: 'password_hash' })
  passwordHash: string;

  @Column('boolean', { default: true })
  active: boolean;

  @Column('boolean', { name: 'is_admin', default: false })
  isAdmin: boolean;

  @Column('boolean', { name: 'rates_editor', default: false })
  ratesEditor: boolean;

  @Column('boolean', { name: 'savi_operator', default: false })
  saviOperator: boolean;

  @Column('boolean', { name: 'savi_qc', default: false })
  saviQC: boolean;

  @Column('boolean', { name: 'claims_user', default: false })
  claimsUser: boolean;

  @Column('boolean', { name: 'include_ids', default: false })
  includeIds: boolean;

  @Column('boolean', { name: 'include_all', default: false })
  includeAll: boolean;

  /** The address-service address used in the user's calls; empty means the portal's own. */
  @Column('text', { name: 'avs_service_url', default: '' })
  avsServiceUrl: string;

  @Column('uuid', { name: 'group_id', nullable: true })
  groupId: string | null;

  /** 'person', or 'apiKey': the account an API key acts as (issue 22; never listed, never logs in). */
  @Column('text', { default: 'person' })
  kind: 'person' | 'apiKey';

  // RESTRICT: a group with members cannot be deleted by accident; move or delete the users first.
  @ManyToOne(() => GroupEntity, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'users_group_id_fkey' })
  group?: Relation<GroupEntity> | null;

  /** Session tokens issued before this instant are revoked (logout, password change). */
  @Column('timestamptz', { name: 'tokens_valid_after', nullable: true })
  tokensValidAfter: Date | null;

  @Column('timestamptz', { name: 'last_login_at', nullable: true })
  lastLoginAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
