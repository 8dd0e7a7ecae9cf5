import type { FilterOperator } from '@portal/contracts';
import { SA_TIME_ZONE } from '@portal/domain';
import { containsPattern, escapeLike, SqlParameters, UserTotalsEntity } from '@portal/db';
import { badRequest } from '@portal/server-kit';
import { MODELS, type Field, type Filter, type Model, type PageRequest } from './models';

/**
 * The filters of a page as SQL conditions: every value a bound parameter, every column from the model's
 * table.
 */

/** A filter value the grid has not filled in yet: the filter is not applied (as the grid does locally). */
const isBlank = (value: unknown) => value === undefined || value === null || value === '';

function textCondition(
  fieldName: string,
  field: Field,
  operator: FilterOperator,
  value: unknown,
  params: SqlParameters,
) {
  if (operator === 'isEmpty' || operator === 'isNotEmpty') {
    const empty = field.emptyWhen ?? `${field.column} = ''`;
    return { condition: operator === 'isEmpty' ? empty : `NOT (${empty})`, scoped: !field.emptyWhen };
  }
  if (isBlank(value)) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw badRequest(`The filter of '${fieldName}' needs text.`);
  }
  const text = String(value);
  const like = (pattern: string) => `${field.column} ILIKE ${params.bind(pattern)}`;
  switch (operator) {
    case 'contains':
      return { condition: like(containsPattern(text)), scoped: true };
    case 'startsWith':
      return { condition: like(`${escapeLike(text)}%`), scoped: true };
    case 'endsWith':
      return { condition: like(`%${escapeLike(text)}`), scoped: true };
    case 'not':
    case '!=':
      return { condition: `${field.folded ?? field.sortBy} <> lower(${params.bind(text)})`, scoped: true };
    default:
      return { condition: `${field.folded ?? field.sortBy} = lower(${params.bind(text)})`, scoped: true };
  }
}

function booleanValue(fieldName: string, value: unknown): boolean | undefined {
  if (isBlank(value) || value === 'any') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badRequest(`The filter of '${fieldName}' needs true or false.`);
}

const COMPARISON: Partial<Record<FilterOperator, string>> = {
  '=': '=',
  equals: '=',
  is: '=',
  '!=': '<>',
  not: '<>',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

function dateCondition(
  fieldName: string,
  column: string,
  operator: FilterOperator,
  value: unknown,
  params: SqlParameters,
) {
  if (isBlank(value)) return undefined;
  const comparison = COMPARISON[operator]!;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) {
    // A calendar day: from its first instant (inclusive) to the next day's (exclusive), in SAST: day
    // boundaries of date filters are South African days (spec 03 §9).
    const day = params.bind(value);
    const start = `(${day}::date::timestamp AT TIME ZONE '${SA_TIME_ZONE}')`;
    const end = `((${day}::date + 1)::timestamp AT TIME ZONE '${SA_TIME_ZONE}')`;
    switch (comparison) {
      case '=':
        return `(${column} >= ${start} AND ${column} < ${end})`;
      case '<>':
        return `(${column} < ${start} OR ${column} >= ${end})`;
      case '>':
        return `${column} >= ${end}`;
      case '>=':
        return `${column} >= ${start}`;
      case '<':
        return `${column} < ${start}`;
      default:
        return `${column} < ${end}`;
    }
  }
  const instant = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(instant.getTime())) {
    throw badRequest(`The filter of '${fieldName}' needs a date (YYYY-MM-DD) or a date and time (ISO 8601).`);
  }
  return `${column} ${comparison} ${params.bind(instant.toISOString())}::timestamptz`;
}

export function conditionOf(filter: Filter, model: Model, params: SqlParameters): string | undefined {
  const field = model.fields[filter.field];
  const scope = (condition: string) => (field.scope ? field.scope(condition) : condition);
  switch (field.kind) {
    case 'text': {
      const built = textCondition(filter.field, field, filter.operator, filter.value, params);
      if (!built) return undefined;
      return built.scoped ? scope(built.condition) : built.condition;
    }
    case 'boolean': {
      const value = booleanValue(filter.field, filter.value);
      if (value === undefined) return undefined;
      return `${field.column} ${COMPARISON[filter.operator]} ${params.bind(value)}`;
    }
    case 'number': {
      if (isBlank(filter.value)) return undefined;
      const value = Number(filter.value);
      if (typeof filter.value === 'boolean' || !Number.isFinite(value)) {
        throw badRequest(`The filter of '${filter.field}' needs a number.`);
      }
      return `${field.column} ${COMPARISON[filter.operator]} ${params.bind(value)}`;
    }
    case 'date':
      return dateCondition(filter.field, field.column, filter.operator, filter.value, params);
  }
}

/** The rows a request selects: the conditions of its filters, over their bound values. */
export interface Selection {
  model: Model;
  conditions: string[];
  params: SqlParameters;
  /** What to add up in the kept user totals instead of counting, when the filters allow it. */
  kept?: string;
}

export function selectionOf(request: PageRequest, params = new SqlParameters()): Selection {
  const model = MODELS[request.model];
  const applied = request.filters.flatMap((filter) => {
    const condition = conditionOf(filter, model, params);
    return condition ? [{ filter, condition }] : [];
  });
  return {
    model,
    conditions: [...(model.only ? [model.only] : []), ...applied.map(({ condition }) => condition)],
    params,
    kept: keptOf(
      model,
      applied.map(({ filter }) => filter),
    ),
  };
}

/**
 * Users are counted by triggers per group, in all and per flag (identity.user_totals): with no filter or
 * one on a flag, the total is a sum over a few hundred rows instead of a count over every user.
 */
function keptOf(model: Model, filters: Filter[]): string | undefined {
  if (!model.keptTotals || filters.length > 1) return undefined;
  if (filters.length === 0) return 'users';
  const [{ field, operator, value }] = filters;
  const { tally } = model.fields[field];
  if (!tally) return undefined;
  const wantsSet = booleanValue(field, value) === (COMPARISON[operator] === '=');
  return wantsSet ? tally : `users - ${tally}`;
}

/** The matching users per group (null: without a group), from the kept totals. */
export const keptPerGroup = (kept: string) =>
  `SELECT NULLIF(group_id, '${UserTotalsEntity.NO_GROUP}') AS group_id, ${kept} AS members
   FROM identity.user_totals WHERE ${kept} > 0`;

export const whereOf = (conditions: string[]) =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
export const direction = (descending: boolean) => (descending ? 'DESC' : 'ASC');
