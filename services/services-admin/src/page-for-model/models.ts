import type { ADMIN_MODELS, FilterOperator } from '@portal/contracts';
import { PEOPLE } from '../store/lookups';
import { USER_PAGE_COLUMNS, type RowSource, type Rows } from '../store/views';

/**
 * The models page-for-model reads (spec 03 §7): each known field maps to fixed SQL expressions, so field
 * names never reach SQL.
 */

export type ModelName = (typeof ADMIN_MODELS)[number];
export type FieldKind = 'text' | 'boolean' | 'number' | 'date';

export interface Field {
  kind: FieldKind;
  /** What the field is compared with. */
  column: string;
  /** What it sorts by: text folded to lower case (the database collates bytewise), matching an index. */
  sortBy: string;
  /** Text folded to lower case, what equality filters compare, when it is not `sortBy`. */
  folded?: string;
  /** Further sort expressions, in the same direction (users' groupName: the group's id, the user's name). */
  thenBy?: string[];
  /** Sorting needs the user's group joined (users' groupName). */
  sortJoinsGroup?: boolean;
  /** Unique values: the sort needs no tie-breaker. */
  unique?: boolean;
  /** Turns a condition on `column` into one on the model's own rows (users' groupName: a sub-select). */
  scope?: (condition: string) => string;
  /** What 'isEmpty' means when it is not "the text is empty" (a user without a group). */
  emptyWhen?: string;
  /** The column of the kept user totals that counts the users with this flag set. */
  tally?: string;
  /**
   * The type of `sortBy` when an index walks it (with the id after it unless unique) and carries every
   * column of a page: such a sort is read from checkpoints (see pageFromCheckpoints).
   */
  sortType?: 'text' | 'timestamptz';
}

export interface Model {
  from: string;
  alias: string;
  /** A condition every row of the model meets, before any filter (users: people, not API keys' rows). */
  only?: string;
  /** Joined only when a sort needs it; filters use `scope` instead, so counting never joins. */
  groupJoin?: string;
  fields: Record<string, Field>;
  defaultSort: SortKey[];
  /** Whether the kept user totals (per group, in all and per flag) count this model's rows. */
  keptTotals?: boolean;
  /** Whether identity.user_list_revision counts this model's changes (pages from checkpoints). */
  revisioned?: boolean;
  /** What a page shows of a row, when its reader takes rows rather than ids (RowSource.rows). */
  pageColumns?: string;
}

const text = (column: string, sortBy = `lower(${column})`): Field => ({ kind: 'text', column, sortBy });
const flag = (column: string, tally?: string): Field => ({ kind: 'boolean', column, sortBy: column, tally });

export const MODELS: Record<ModelName, Model> = {
  users: {
    from: 'identity.users u',
    alias: 'u',
    // An API key's own account row (issue 22) is not a user of the grid; the kept totals count people only.
    only: PEOPLE,
    groupJoin: `LEFT JOIN (
        SELECT g.id, row_number() OVER (ORDER BY lower(g.name), g.id) AS position FROM identity.groups g
      ) gp ON gp.id = u.group_id`,
    keptTotals: true,
    revisioned: true,
    pageColumns: USER_PAGE_COLUMNS,
    fields: {
      name: { ...text('u.name'), sortType: 'text' },
      // Stored lower-case (a check constraint says so): compared and sorted as is.
      email: { ...text('u.email', 'u.email'), unique: true, sortType: 'text' },
      groupName: {
        // Sorted by the group's place in name order (then id, so namesakes do not mix): the order of
        // pageByGroupName, so that both ways of reading a page agree, with a number to compare per user
        // instead of the group's name (a third of the time of sorting 2 500 matches).
        ...text('g.name', 'gp.position'),
        folded: 'lower(g.name)',
        thenBy: ['lower(u.name)'],
        sortJoinsGroup: true,
        scope: (condition) => `u.group_id IN (SELECT g.id FROM identity.groups g WHERE ${condition})`,
        emptyWhen: 'u.group_id IS NULL',
      },
      active: flag('u.active', 'active'),
      admin: flag('u.is_admin', 'is_admin'),
      ratesEditor: flag('u.rates_editor', 'rates_editor'),
      saviOperator: flag('u.savi_operator', 'savi_operator'),
      saviQC: flag('u.savi_qc', 'savi_qc'),
      claimsUser: flag('u.claims_user', 'claims_user'),
      createdAt: { kind: 'date', column: 'u.created_at', sortBy: 'u.created_at', sortType: 'timestamptz' },
    },
    defaultSort: [{ field: 'name', descending: false }],
  },
  groups: {
    from: 'identity.groups g',
    alias: 'g',
    fields: {
      name: text('g.name'),
      code: text('g.code'),
      active: flag('g.active'),
      includeVAT: flag('g.include_vat'),
      includeProfessionalFee: flag('g.include_professional_fee'),
      professionalFeePercentage: {
        kind: 'number',
        column: 'g.professional_fee_percentage',
        sortBy: 'g.professional_fee_percentage',
      },
      extraField: text('g.extra_field'),
      reportNameFormat: text('g.report_name_format'),
    },
    defaultSort: [{ field: 'name', descending: false }],
  },
};

/** Which operators make sense for which kind of field (those of the MUI data grid's column types). */
export const OPERATORS: Record<FieldKind, readonly FilterOperator[]> = {
  text: ['contains', 'equals', 'startsWith', 'endsWith', 'isEmpty', 'isNotEmpty', 'is', 'not', '=', '!='],
  boolean: ['is', 'not', 'equals', '=', '!='],
  number: ['=', '!=', '>', '>=', '<', '<=', 'equals', 'is', 'not'],
  date: ['is', 'not', 'equals', '=', '!=', '>', '>=', '<', '<='],
};

/** A key of a page's sort. */
export interface SortKey {
  field: string;
  descending: boolean;
}

/** A filter of a page: a field, an operator of its kind, the grid's value. */
export interface Filter {
  field: string;
  operator: FilterOperator;
  value: unknown;
}

/** A page request, read and checked (parse.ts). */
export interface PageRequest {
  model: ModelName;
  offset: number;
  limit: number;
  filters: Filter[];
  sort: SortKey[];
}

/** A page of rows and the number of rows its sort and filters select. */
export interface Page<Doc> {
  docs: Doc[];
  total: number;
}

/** Reads a page's rows from the SQL that picks its ids (see views.ts). */
export type RowReader<Doc> = (source: RowSource) => Promise<Rows<Doc>>;
