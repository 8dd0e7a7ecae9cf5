import type { GridFilterItem } from '@mui/x-data-grid';
import { FILTER_OPERATORS, type FieldFilter, type FilterOperator } from '@portal/contracts';

import type { GridQuery } from '@portal/web-kit/grid';

export type { GridQuery };

/**
 * A grid column the server can sort or filter by. `sortBy`/`filterBy` name the server's field when it
 * differs from the grid's (the users grid sorts its group column by the group's name, spec 03 §2);
 * `type` says how to send a filter value.
 */
export interface ServerField {
  sortBy?: string;
  filterBy?: string;
  type?: 'string' | 'number' | 'boolean';
}
export type ServerFields = Record<string, ServerField>;

/** The query parameters of GET page-for-model (spec 03 §7), all strings as a URL carries them. */
export type PageForModelParams = Record<string, string>;

const OPERATORS_WITHOUT_VALUE: ReadonlySet<string> = new Set(['isEmpty', 'isNotEmpty']);

/**
 * The page-for-model parameters for a grid's state: `pageNumber` 1-based, `sort=[[field,direction]]`,
 * and one `{field}={"compareBy","compareTo"}` per filter. Only the columns listed in `fields` reach the
 * server; a filter still being typed (no value yet) is left out.
 */
export function pageForModelParams(
  modelName: 'users' | 'groups',
  query: GridQuery,
  fields: ServerFields,
): PageForModelParams {
  const params: PageForModelParams = {
    modelName,
    pageNumber: String(query.page + 1),
    pageSize: String(query.pageSize),
  };
  const sort = query.sortModel
    .filter(({ field, sort: direction }) => direction && fields[field])
    .map(({ field, sort: direction }) => [fields[field].sortBy ?? field, direction]);
  if (sort.length > 0) params.sort = JSON.stringify(sort);
  for (const item of query.filterModel.items) {
    const field = fields[item.field];
    const filter = field && fieldFilter(item, field);
    if (filter) params[field.filterBy ?? item.field] = JSON.stringify(filter);
  }
  return params;
}

function fieldFilter(item: GridFilterItem, field: ServerField): FieldFilter | undefined {
  if (!isSupportedOperator(item.operator)) return undefined;
  if (OPERATORS_WITHOUT_VALUE.has(item.operator)) return { compareBy: item.operator };
  const compareTo = filterValue(item.value, field.type ?? 'string');
  return compareTo === undefined ? undefined : { compareBy: item.operator, compareTo };
}

function isSupportedOperator(operator: string): operator is FilterOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(operator);
}

/** The grid hands filter values over as typed text (booleans as 'true'/'false'); the server wants JSON. */
function filterValue(
  value: unknown,
  type: NonNullable<ServerField['type']>,
): string | number | boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  switch (type) {
    case 'boolean':
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return undefined;
    case 'number': {
      const text = String(value).trim();
      const number = text === '' ? NaN : Number(text);
      return Number.isFinite(number) ? number : undefined;
    }
    default:
      return String(value);
  }
}
