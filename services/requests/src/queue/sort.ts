import { REQUEST_SORT_FIELDS, type RequestSortField } from '@portal/contracts';
import { badRequest } from '@portal/server-kit';

/** The request pager's sorts: `sort_object` read and checked, and the ORDER BY it makes. */

/** The column (SQL over `r`) each sortable grid field sorts by. */
const SORT_SQL: Record<RequestSortField, string> = {
  created: 'r.created_at',
  priority: 'r.priority',
  status: 'r.status',
  type: 'r.request_type',
  gripReference: 'r.grip_reference',
  user: 'r.user_name',
  address: 'r.address',
  client: 'r.group_name',
  // Longest in queue first when descending: time in queue grows as created_at falls (until delivery).
  timeInQueue: '(coalesce(r.delivered_at, now()) - r.created_at)',
  firstQS: 'r.first_user_name',
  invoice: 'r.report_invoice_number',
  rve: 'r.rve_total',
  reportFee: '(r.number_of_buildings * r.unit_price)',
  numberOfBuildings: 'r.number_of_buildings',
  unitPrice: 'r.unit_price',
};

export type SortKey = { field: RequestSortField; descending: boolean };

export const PAGER_TEXT = {
  badSort:
    'sort_object must be a JSON object of grid fields and directions (1, -1, "asc" or "desc"), e.g. {"created":-1}.',
  unknownSort: (field: string) => `Cannot sort by '${field}'. Sortable: ${REQUEST_SORT_FIELDS.join(', ')}.`,
} as const;

/** Spec 02 §9: the console's default order; spec 03: a user's own list, oldest first. */
export const STAFF_DEFAULT_SORT: SortKey[] = [
  { field: 'priority', descending: true },
  { field: 'created', descending: true },
];
export const USER_DEFAULT_SORT: SortKey[] = [{ field: 'created', descending: false }];

/** Reads `sort_object` ({"priority": -1, "created": -1}, in order of precedence); the default when absent. */
export function parseSort(raw: string | undefined, fallback: SortKey[]): SortKey[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '{}') return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(PAGER_TEXT.badSort);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw badRequest(PAGER_TEXT.badSort);
  const keys: SortKey[] = [];
  for (const [field, direction] of Object.entries(parsed as Record<string, unknown>)) {
    if (!(REQUEST_SORT_FIELDS as readonly string[]).includes(field))
      throw badRequest(PAGER_TEXT.unknownSort(field));
    const descending =
      direction === -1 ||
      direction === '-1' ||
      (typeof direction === 'string' && direction.toLowerCase() === 'desc');
    const ascending =
      direction === 1 ||
      direction === '1' ||
      (typeof direction === 'string' && direction.toLowerCase() === 'asc');
    if (!descending && !ascending) throw badRequest(PAGER_TEXT.badSort);
    keys.push({ field: field as RequestSortField, descending });
  }
  return keys.length > 0 ? keys : fallback;
}

/** The keys' SQL and directions, and the id's direction (the last key's) that ends every order. */
export function orderTerms(keys: SortKey[]): {
  terms: { expression: string; descending: boolean }[];
  idDescending: boolean;
} {
  return {
    terms: keys.map((key) => ({ expression: SORT_SQL[key.field], descending: key.descending })),
    idDescending: keys.length > 0 ? keys[keys.length - 1].descending : false,
  };
}

/**
 * ORDER BY for the keys, ending in the id so that pages never overlap or skip rows with equal keys. Nulls
 * go last ascending and first descending (PostgreSQL's own order, which its indexes hold).
 */
export function orderBySql(keys: SortKey[], reverse = false): string {
  const direction = (descending: boolean) => (descending !== reverse ? 'DESC' : 'ASC');
  const { terms, idDescending } = orderTerms(keys);
  return [
    ...terms.map((term) => `${term.expression} ${direction(term.descending)}`),
    `r.id ${direction(idDescending)}`,
  ].join(', ');
}
