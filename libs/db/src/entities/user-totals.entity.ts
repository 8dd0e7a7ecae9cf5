import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IDENTITY_SCHEMA } from './transformers';

/**
 * How many users a group has, in all and with each flag, kept exact by triggers on `identity.users` (the
 * ServicesAdmin migration), so the users grid's totals and its group sort need no count. Users without a
 * group are counted under `NO_GROUP`. Rows are never removed; a deleted group's row stays at zero.
 */
@Entity({ schema: IDENTITY_SCHEMA, name: 'user_totals' })
export class UserTotalsEntity {
  static readonly NO_GROUP = '00000000-0000-0000-0000-000000000000';

  @PrimaryColumn('uuid', { name: 'group_id', primaryKeyConstraintName: 'user_totals_pkey' })
  groupId: string;

  @Column('integer')
  users: number;

  @Column('integer')
  active: number;

  @Column('integer', { name: 'is_admin' })
  isAdmin: number;

  @Column('integer', { name: 'rates_editor' })
  ratesEditor: number;

  @Column('integer', { name: 'savi_operator' })
  saviOperator: number;

  @Column('integer', { name: 'savi_qc' })
  saviQC: number;

  @Column('integer', { name: 'claims_user' })
  claimsUser: number;
}
