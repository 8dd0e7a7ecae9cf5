import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { GroupEntity } from './group.entity';
import { numericAsNumber, REPORTBUILDER_SCHEMA } from './transformers';

/**
 * One row of a group's rate table (spec 02 §3 Rate row, spec 03 §3): the replacement cost per unit of a
 * category/type/class, in three tiers (standard, in-between, expensive; the report builder offers them as
 * the class suffixes -s, -i and -e). Written by services-admin, read by the report builder.
 */
@Entity({ schema: REPORTBUILDER_SCHEMA, name: 'rates' })
// Also the index the report builder and the rates editor read a group's table through, in order.
@Unique('rates_group_id_position_key', ['groupId', 'position'])
@Check('rates_standard_not_negative', 'standard >= 0')
@Check('rates_inbetween_not_negative', 'inbetween >= 0')
@Check('rates_expensive_not_negative', 'expensive >= 0')
export class RateEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'rates_pkey' })
  id: string;

  @Column('uuid', { name: 'group_id' })
  groupId: string;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'rates_group_id_fkey' })
  group?: Relation<GroupEntity>;

  /** The row's place in the table, from 0: the editor's and the spreadsheet's order. */
  @Column('integer')
  position: number;

  /** The primary category: the report the row is for ('savi'). */
  @Column('text', { default: '' })
  report: string;

  @Column('text', { default: '' })
  category: string;

  @Column('text', { default: '' })
  type: string;

  @Column('text', { default: '' })
  class: string;

  /** The unit the rates are per: 'm²', 'm' or 'no' (a count). */
  @Column('text', { default: 'no' })
  quantity: string;

  /** Annual increase, in percent. */
  @Column('numeric', { default: 0, transformer: numericAsNumber })
  increase: number;

  /** Rand per unit, in the three tiers. */
  @Column('numeric', { default: 0, transformer: numericAsNumber })
  standard: number;

  @Column('numeric', { default: 0, transformer: numericAsNumber })
  inbetween: number;

  @Column('numeric', { default: 0, transformer: numericAsNumber })
  expensive: number;

  /** Whether the slope percentage applies, and whether the professional fee and VAT are charged on it. */
  @Column('boolean', { default: true })
  slope: boolean;

  @Column('boolean', { default: true })
  fee: boolean;

  @Column('boolean', { default: true })
  vat: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
