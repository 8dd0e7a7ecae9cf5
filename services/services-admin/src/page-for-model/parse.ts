import { ADMIN_MODELS, FILTER_OPERATORS, type FilterOperator } from '@portal/contracts';
import { badRequest } from '@portal/server-kit';
import { MODELS, OPERATORS, type Filter, type ModelName, type PageRequest, type SortKey } from './models';

/** Reading and checking the query of a page: every problem is a 400 that says what is wrong. */

const MAX_PAGE_SIZE = 1000;
const MAX_SORT_KEYS = 3;
const RESERVED_PARAMETERS = new Set(['modelName', 'pageNumber', 'pageSize', 'sort']);

const PAGE_TEXT = {
  pageNumber: 'pageNumber must be a positive integer',
  pageSize: `pageSize must be a positive integer no greater than ${MAX_PAGE_SIZE}`,
  modelName: `modelName must be one of ${ADMIN_MODELS.join(', ')}`,
} as const;

const isModelName = (value: unknown): value is ModelName => ADMIN_MODELS.includes(value as ModelName);

function positiveInteger(raw: string | undefined, max: number): number | undefined {
  if (raw === undefined || !/^\d{1,12}$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return value >= 1 && value <= max ? value : undefined;
}

function parseJson(raw: string, what: string, shape: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`${what} is not valid JSON: expected ${shape}.`);
  }
}

function parseSort(raw: string | undefined, model: ModelName): SortKey[] {
  const shape = '[["field","asc|desc"]]';
  if (raw === undefined || raw.trim() === '') return MODELS[model].defaultSort;
  let keys = parseJson(raw, 'sort', shape);
  if (!Array.isArray(keys)) throw badRequest(`sort must be a JSON list: ${shape}.`);
  // A single pair, ["name","asc"], is read as a list of one.
  if (typeof keys[0] === 'string') keys = [keys];
  const list = keys as unknown[];
  if (list.length === 0) return MODELS[model].defaultSort;
  if (list.length > MAX_SORT_KEYS) throw badRequest(`sort takes at most ${MAX_SORT_KEYS} fields.`);
  return list.map((key) => {
    if (!Array.isArray(key) || typeof key[0] !== 'string')
      throw badRequest(`sort must be a JSON list: ${shape}.`);
    const [field, direction = 'asc'] = key as [string, unknown];
    if (!Object.hasOwn(MODELS[model].fields, field)) {
      throw badRequest(
        `Cannot sort ${model} by '${field}'. Fields: ${Object.keys(MODELS[model].fields).join(', ')}.`,
      );
    }
    if (typeof direction !== 'string' || !['asc', 'desc'].includes(direction.toLowerCase())) {
      throw badRequest(`The sort direction of '${field}' must be asc or desc.`);
    }
    return { field, descending: direction.toLowerCase() === 'desc' };
  });
}

function parseFilter(field: string, raw: string, model: ModelName): Filter {
  const spec = MODELS[model].fields;
  if (!Object.hasOwn(spec, field)) {
    throw badRequest(
      `Unknown filter field '${field}' for ${model}. Fields: ${Object.keys(spec).join(', ')}.`,
    );
  }
  const shape = '{"compareBy":"operator","compareTo":"value"}';
  const filter = parseJson(raw, `The filter of '${field}'`, shape);
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw badRequest(`The filter of '${field}' must be a JSON object: ${shape}.`);
  }
  const { compareBy, compareTo } = filter as { compareBy?: unknown; compareTo?: unknown };
  if (!FILTER_OPERATORS.includes(compareBy as FilterOperator)) {
    throw badRequest(
      `Unknown operator '${String(compareBy)}' in the filter of '${field}'. Operators: ${FILTER_OPERATORS.join(', ')}.`,
    );
  }
  const operator = compareBy as FilterOperator;
  const kind = spec[field].kind;
  if (!OPERATORS[kind].includes(operator)) {
    throw badRequest(
      `The operator '${operator}' does not apply to '${field}'. Use one of: ${OPERATORS[kind].join(', ')}.`,
    );
  }
  return { field, operator, value: compareTo };
}

/** Reads and checks the query; every problem is a 400 that says what is wrong. */
export function parsePageQuery(query: Record<string, string | undefined>): PageRequest {
  const { modelName, pageNumber, pageSize, sort } = query;
  if (!isModelName(modelName)) throw badRequest(PAGE_TEXT.modelName);
  const page = positiveInteger(pageNumber, 1_000_000_000);
  if (page === undefined) throw badRequest(PAGE_TEXT.pageNumber);
  const limit = positiveInteger(pageSize, MAX_PAGE_SIZE);
  if (limit === undefined) throw badRequest(PAGE_TEXT.pageSize);
  const filters = Object.entries(query)
    .filter(([name, raw]) => !RESERVED_PARAMETERS.has(name) && raw !== undefined)
    .map(([name, raw]) => parseFilter(name, raw!, modelName));
  return { model: modelName, offset: (page - 1) * limit, limit, filters, sort: parseSort(sort, modelName) };
}
