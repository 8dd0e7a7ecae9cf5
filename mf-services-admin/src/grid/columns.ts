import {
  getGridBooleanOperators,
  getGridNumericOperators,
  getGridStringOperators,
  type GridFilterOperator,
} from '@mui/x-data-grid';
import type { FilterOperator } from '@portal/contracts';

const only = (operators: GridFilterOperator[], wanted: readonly FilterOperator[]) =>
  operators.filter((operator) => (wanted as readonly string[]).includes(operator.value));

/**
 * The grid's filter operators that page-for-model applies to each kind of field (a text field cannot be
 * 'isAnyOf', a number cannot be empty): the filter menus offer nothing the server would refuse.
 */
export const SERVER_FILTER_OPERATORS = {
  string: only(getGridStringOperators(), [
    'contains',
    'equals',
    'startsWith',
    'endsWith',
    'isEmpty',
    'isNotEmpty',
  ]),
  number: only(getGridNumericOperators(), ['=', '!=', '>', '>=', '<', '<=']),
  boolean: only(getGridBooleanOperators(), ['is']),
};
